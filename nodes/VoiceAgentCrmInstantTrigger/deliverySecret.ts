import type { IDataObject, IHookFunctions, IWebhookFunctions } from 'n8n-workflow';
import { NodeOperationError, randomString } from 'n8n-workflow';

/**
 * The secret a delivery must carry, checked before any request so that a forged delivery costs
 * the organization's API budget nothing.
 *
 * - Registration on agents: a random secret kept in the node's static data (as n8n's own triggers
 *   keep their webhook secrets), created at the first activation and kept across restarts and
 *   deactivations; the URL set on the agents carries it as `?secret=`.
 * - I Copy the URL Myself: the URL Secret parameter, the last segment of the Production URL the
 *   editor shows, so the URL copied from the editor carries it.
 */
export type InstantContext = IHookFunctions | IWebhookFunctions;

const SECRET_LENGTH = 40;

export function isManual(context: InstantContext): boolean {
	return context.getNodeParameter('registration', 'agents') === 'manual';
}

/** The secret of the registration on agents, created on first use and kept in the static data. */
export function agentsSecret(context: InstantContext): string {
	const staticData = context.getWorkflowStaticData('node');
	if (typeof staticData.deliverySecret !== 'string' || !staticData.deliverySecret)
		staticData.deliverySecret = randomString(SECRET_LENGTH);
	return staticData.deliverySecret as string;
}

/** The URL set on the chosen agents: this node's URL with its secret. */
export function registeredUrl(context: IHookFunctions): string {
	const url = new URL(context.getNodeWebhookUrl('default') ?? '');
	url.searchParams.set('secret', agentsSecret(context));
	return url.toString();
}

function manualSecret(context: InstantContext): string {
	return String(context.getNodeParameter('urlSecret', '') ?? '').trim();
}

/**
 * The characters a URL Secret may hold. It is a path segment of the URL n8n shows and routes as
 * written: `#` and `?` cut the URL a client sends, `%` and spaces are decoded before n8n looks the
 * path up, `/` adds a segment. So any other character would make the Production URL answer 404.
 */
export const URL_SECRET_CHARACTERS = /^[A-Za-z0-9_-]*$/;

export const URL_SECRET_RULE =
	'The URL Secret may hold only letters, digits, "-" and "_" (it is part of the URL, where other characters break it)';

/** Refuses a URL Secret that would give a URL no delivery can reach (at activation and at the test's start). */
export function assertUrlSecretUsable(context: IHookFunctions): void {
	if (!isManual(context)) return;
	const secret = String(context.getNodeParameter('urlSecret', '') ?? '');
	if (URL_SECRET_CHARACTERS.test(secret)) return;
	throw new NodeOperationError(context.getNode(), `${URL_SECRET_RULE}.`, {
		description:
			'With any other character the Production URL answers 404 and every call event would be lost. Generate a secret of letters and digits and set it again.',
	});
}

/** Compares in a time that does not depend on where the strings differ. */
export function sameSecret(given: string, expected: string): boolean {
	let difference = given.length ^ expected.length;
	for (let i = 0; i < expected.length; i++)
		difference |= (given.charCodeAt(i % Math.max(given.length, 1)) || 0) ^ expected.charCodeAt(i);
	return expected.length > 0 && difference === 0;
}

/** Whether a delivery carries the secret of this node's registration. */
export function deliveryIsAuthentic(context: IWebhookFunctions): boolean {
	if (isManual(context)) {
		// n8n routes only the URL whose last segment is the URL Secret to this node; an empty one is refused
		return manualSecret(context) !== '';
	}
	const query = context.getQueryData() as IDataObject;
	const staticData = context.getWorkflowStaticData('node');
	const expected = typeof staticData.deliverySecret === 'string' ? staticData.deliverySecret : '';
	return sameSecret(typeof query.secret === 'string' ? query.secret : '', expected);
}

/** The webhook path: the manual mode's URL Secret becomes its last segment. */
export const WEBHOOK_PATH =
	'={{ $parameter["registration"] === "manual" && $parameter["urlSecret"] ? "call-events/" + $parameter["urlSecret"] : "call-events" }}';
