import type { RedirectRefusal } from './errors';

/**
 * Which redirects a request of the nodes follows (docs/decisions.md, "Redirects"). n8n's HTTP
 * client would follow them itself and strip only `Authorization` and `Cookie` on the way to
 * another host, not the `x-api-key` header, and would turn a POST answered 301/302 into a GET.
 * So every request is sent with redirects off and the transport decides here:
 * - to another origin (scheme, host or port): never followed, whatever the method;
 * - on the Base URL's origin: 307 and 308 (which keep the method and the body) are followed, and
 *   any redirect of a GET; a write answered 301, 302 or 303 is not (it would become a GET);
 * - at most `MAX_SAME_ORIGIN_REDIRECTS` hops.
 */
export const MAX_SAME_ORIGIN_REDIRECTS = 3;

const REDIRECT_STATUSES = new Set([301, 302, 303, 307, 308]);
const METHOD_KEEPING = new Set([307, 308]);

/** The origin (`scheme://host:port`) of a URL, without any user info; undefined when it is not a URL. */
export function originOf(url: string): string | undefined {
	try {
		const { origin } = new URL(url);
		return origin && origin !== 'null' ? origin : undefined;
	} catch {
		return undefined;
	}
}

/** Whether `url` is on the origin of the credential's Base URL: only there may the key go. */
export function isOnOrigin(url: string, baseUrl: string): boolean {
	const origin = originOf(baseUrl);
	return origin !== undefined && originOf(url) === origin;
}

function hostOf(url: string): string | undefined {
	try {
		return new URL(url).host;
	} catch {
		return undefined;
	}
}

export type RedirectStep =
	| { follow: string }
	| { refuse: RedirectRefusal; status: number; target: string };

/**
 * What to do with an answer: undefined when it is not a redirect with a readable `Location`
 * (then it is an answer like any other), else the URL to follow or why not.
 */
export function redirectStep(
	method: string,
	status: number,
	location: unknown,
	currentUrl: string,
	baseUrl: string,
	hops: number,
): RedirectStep | undefined {
	if (!REDIRECT_STATUSES.has(status) || typeof location !== 'string' || !location.trim())
		return undefined;
	let next: string;
	try {
		next = new URL(location.trim(), currentUrl).toString();
	} catch {
		return undefined;
	}
	const target = originOf(next);
	if (!target) return undefined;
	if (!isOnOrigin(next, baseUrl))
		return {
			refuse: hostOf(next) === hostOf(baseUrl) ? 'otherScheme' : 'otherOrigin',
			status,
			target,
		};
	if (method !== 'GET' && !METHOD_KEEPING.has(status))
		return { refuse: 'changesMethod', status, target };
	if (hops >= MAX_SAME_ORIGIN_REDIRECTS) return { refuse: 'tooMany', status, target };
	return { follow: next };
}
