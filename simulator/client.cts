import type { Simulator } from './server.cts';

export interface ApiAnswer<T = any> {
	status: number;
	headers: Headers;
	body: T;
}

/** A plain HTTP client for conformance tests: talks to the simulator as any API client would. */
export async function api<T = any>(
	sim: Simulator,
	method: string,
	path: string,
	options: {
		body?: unknown;
		query?: Record<string, string | number | boolean>;
		key?: string | null;
	} = {},
): Promise<ApiAnswer<T>> {
	const url = new URL(sim.baseUrl + path);
	for (const [k, v] of Object.entries(options.query ?? {})) url.searchParams.set(k, String(v));
	const headers: Record<string, string> = {};
	const key = options.key === undefined ? sim.apiKey : options.key;
	if (key !== null) headers['x-api-key'] = key;
	if (options.body !== undefined) headers['content-type'] = 'application/json';
	const res = await fetch(url, {
		method,
		headers,
		body: options.body === undefined ? undefined : JSON.stringify(options.body),
	});
	const text = await res.text();
	let body: any = text;
	try {
		body = text.length ? JSON.parse(text) : undefined;
	} catch {
		// non-JSON answers (fault injection) stay text
	}
	return { status: res.status, headers: res.headers, body };
}
