import type { IExecuteFunctions, IHookFunctions } from 'n8n-workflow';
import { NodeOperationError } from 'n8n-workflow';

import { CREDENTIAL_NAME } from '../transport/credential';

/**
 * Whether the service can reach a URL n8n gave for its own webhooks. n8n builds those URLs from
 * its Webhook URL setting (`N8N_WEBHOOK_URL`), and without it from its own host and port: behind
 * a proxy that is `http://localhost:5678/`, an address no service on the internet can call. A
 * loopback or private address is refused only while the credential's Base URL is a public one:
 * a service on the same machine or network (the simulator on loopback) reaches it fine.
 */

const PRIVATE_IPV4 = [
	/^127\./,
	/^10\./,
	/^192\.168\./,
	/^172\.(1[6-9]|2\d|3[01])\./,
	/^169\.254\./,
	/^0\./,
	/^100\.(6[4-9]|[7-9]\d|1[01]\d|12[0-7])\./,
];

/** A host no public service can call: loopback, private ranges, link-local, or a name only a local network resolves. */
export function isLocalHost(hostname: string): boolean {
	const host = hostname.toLowerCase().replace(/^\[|\]$/g, '');
	if (/^\d{1,3}(\.\d{1,3}){3}$/.test(host)) return PRIVATE_IPV4.some((range) => range.test(host));
	if (host.includes(':'))
		return host === '::' || host === '::1' || /^f[cd]/.test(host) || /^fe[89ab]/.test(host);
	return (
		!host.includes('.') ||
		host === 'localhost' ||
		/\.(localhost|local|internal|lan|home\.arpa)$/.test(host)
	);
}

function hostOf(url: string): string | undefined {
	try {
		return new URL(url).hostname;
	} catch {
		return undefined;
	}
}

/** The origin of a webhook URL, without its path and query (the Instant Trigger's carries a secret). */
function originOf(url: string): string {
	try {
		return new URL(url).origin;
	} catch {
		return 'an address that is not a URL';
	}
}

/**
 * Refuse `webhookUrl` when the service at the credential's Base URL cannot reach it, with what
 * to change; `purpose` says what the URL is for, e.g. "the trigger's URL for the chosen agents".
 */
export async function refuseUnreachableWebhookUrl(
	context: IExecuteFunctions | IHookFunctions,
	webhookUrl: string,
	itemIndex?: number,
	purpose = "the call's events",
): Promise<void> {
	const credentials = await context.getCredentials(CREDENTIAL_NAME, itemIndex);
	const baseHost = hostOf(String(credentials.baseUrl ?? '').trim());
	const webhookHost = hostOf(webhookUrl);
	if (!baseHost || !webhookHost || isLocalHost(baseHost) || !isLocalHost(webhookHost)) return;
	throw new NodeOperationError(
		context.getNode(),
		`n8n's webhook address ${originOf(webhookUrl)} cannot be reached by the service at ${baseHost}, so ${purpose} would never arrive`,
		{
			itemIndex,
			description:
				'n8n builds its webhook URLs from its Webhook URL setting: set the environment variable N8N_WEBHOOK_URL to the public address of this n8n (for example https://n8n.example.com/), restart n8n and try again. On n8n Cloud the address is public already. Nothing was changed on the service.',
		},
	);
}
