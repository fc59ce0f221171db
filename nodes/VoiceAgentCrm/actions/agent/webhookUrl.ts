import type { IDataObject } from 'n8n-workflow';

/**
 * An agent's `webhook_url` as the nodes output it: with its secrets hidden. The Instant Trigger
 * sets its URL on agents with the delivery secret (`?secret=…`), and its manual mode's URL ends
 * in the URL Secret (`…/call-events/<secret>`); whoever reads an execution, or a picker, must not
 * learn a secret that lets them post forged call events. Other URLs may carry a token of their own
 * (a query parameter named like one, or a password before the host): hidden too. The rest of the
 * URL is kept as the API gave it, so the user still sees where the events go.
 */
export const HIDDEN = '***';

/** Query parameter names that carry a secret. */
const SECRET_NAME = /(secret|token|key|signature|password)$|^(sig|auth|pass|code)$/i;

/** The Instant Trigger's path segment followed by its manual mode's URL Secret. */
const TRIGGER_SEGMENT = '/call-events/';

export function urlWithoutSecrets(url: string): string {
	let hidden = url.replace(/^([a-z][a-z\d+.-]*:\/\/[^/?#@:]*:)[^/?#@]*@/i, `$1${HIDDEN}@`);
	const queryAt = hidden.search(/[?#]/);
	const path = queryAt === -1 ? hidden : hidden.slice(0, queryAt);
	const rest = queryAt === -1 ? '' : hidden.slice(queryAt);
	const segment = path.indexOf(TRIGGER_SEGMENT);
	const shownPath =
		segment === -1 ? path : `${path.slice(0, segment + TRIGGER_SEGMENT.length)}${HIDDEN}`;
	hidden = shownPath + rest.replace(/([?&;])([^=&#;]*)=([^&#;]*)/g, hiddenParameter);
	return hidden;
}

function hiddenParameter(whole: string, separator: string, name: string): string {
	return SECRET_NAME.test(decodedName(name)) ? `${separator}${name}=${HIDDEN}` : whole;
}

function decodedName(name: string): string {
	try {
		return decodeURIComponent(name.replace(/\+/g, ' '));
	} catch {
		return name;
	}
}

/** Whether a URL was copied from an output: a secret's place holds HIDDEN. */
export function holdsHiddenSecret(url: string): boolean {
	return url.includes(HIDDEN) && urlWithoutSecrets(url) === url;
}

/** An agent record as output: its `webhook_url` without secrets; every other field as given. */
export function agentOutput(agent: IDataObject): IDataObject {
	if (typeof agent?.webhook_url !== 'string') return agent;
	return { ...agent, webhook_url: urlWithoutSecrets(agent.webhook_url) };
}
