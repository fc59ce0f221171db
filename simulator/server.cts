import { randomBytes } from 'node:crypto';
import http, {
	type IncomingHttpHeaders,
	type IncomingMessage,
	type ServerResponse,
} from 'node:http';
import type { AddressInfo } from 'node:net';

import { SimClock } from './clock.cts';
import { FaultInjector, type Fault } from './faults.cts';
import {
	DEFAULT_LIMITS,
	FixedWindowLimiter,
	HEADER_SUFFIX,
	type BudgetLimits,
	type BudgetName,
} from './rateLimit.cts';
import { newOrganization } from './seed.cts';
import type { Organization } from './types.cts';

export interface SimRequest {
	method: string;
	path: string;
	params: Record<string, string>;
	query: Record<string, string>;
	headers: IncomingHttpHeaders;
	body: unknown;
	org: Organization;
	sim: Simulator;
}

export interface SimResponse {
	status: number;
	/** Serialized as JSON; a Buffer is sent as it is (with its own content-type header); `undefined` sends no body. */
	body?: unknown;
	headers?: Record<string, string>;
}

export interface RouteDef {
	method: 'GET' | 'POST' | 'PUT' | 'PATCH' | 'DELETE';
	/** e.g. `/v1/contacts/:contactId`; literal segments win over parameters. */
	pattern: string;
	/** Budgets the request draws on besides the IP budget; default `['org']`. */
	budgets?: BudgetName[] | ((req: SimRequest) => BudgetName[]);
	handler: (req: SimRequest) => SimResponse | Promise<SimResponse>;
}

export interface RecordedRequest {
	method: string;
	path: string;
	query: Record<string, string>;
	headers: IncomingHttpHeaders;
	body: unknown;
	status: number;
	at: number;
	orgId: string | null;
}

export interface WebhookDelivery {
	url: string;
	payload: Record<string, unknown>;
	status: number | null;
	/** Simulator clock time of the event. */
	at: number;
	/** Wall-clock time the delivery was sent (the simulator clock may run ahead of it). */
	sentAt: number;
}

export interface SimulatorOptions {
	port?: number;
	/** Rate window length; the reference's is 60,000 ms. Tests shorten it. */
	windowMs?: number;
	limits?: Partial<BudgetLimits>;
	/**
	 * Rate headers carry whole seconds, as the service does. With this on they carry
	 * fractions (e.g. `0.25`), so that tests with short windows do not wait whole seconds.
	 */
	fractionalSeconds?: boolean;
	/** Demo data (agents, numbers, contacts, channels, a template). Default true. */
	seed?: boolean;
	/** A fixed API key for the main organization; a random one otherwise. */
	apiKey?: string;
	/** How long a webhook receiver may take to answer before the delivery counts as failed; 5 s by default. */
	webhookTimeoutMs?: number;
}

/** Helper for handlers: the error body the reference shows for rate-limit and stop errors. */
export function apiError(status: number, message: string): SimResponse {
	return { status, body: { statusCode: status, message } };
}

export function envelope(data: unknown, status = 200): SimResponse {
	return { status, body: { statusCode: status, data } };
}

export function bare(body: unknown, status = 200): SimResponse {
	return { status, body };
}

interface CompiledRoute extends RouteDef {
	segments: string[];
}

export class Simulator {
	readonly clock = new SimClock();
	readonly faults = new FaultInjector();
	readonly requests: RecordedRequest[] = [];
	readonly webhooks: WebhookDelivery[] = [];
	readonly organizations = new Map<string, Organization>();
	readonly limits: BudgetLimits;
	readonly windowMs: number;
	baseUrl = '';
	/** Main organization (events add-on enabled) and a second one for scoping tests. */
	org!: Organization;
	otherOrg!: Organization;
	/**
	 * A call list that lags behind the writes (a test's condition, as the faults are): `GET
	 * /v1/calls` leaves out calls created in the last this many ms of the clock. 0: none.
	 */
	listingLagMs = 0;
	private readonly limiter: FixedWindowLimiter;
	private readonly routes: CompiledRoute[] = [];
	private server?: http.Server;
	private readonly sockets = new Set<import('node:net').Socket>();
	private readonly requestListeners = new Set<(request: RecordedRequest) => void>();

	constructor(private readonly options: SimulatorOptions = {}) {
		this.limits = { ...DEFAULT_LIMITS, ...options.limits };
		this.windowMs = options.windowMs ?? 60_000;
		this.limiter = new FixedWindowLimiter(this.limits, this.windowMs);
	}

	get apiKey(): string {
		return this.org.apiKey;
	}

	addOrganization(
		settings: Partial<
			Pick<Organization, 'eventsAddon' | 'contactQuota' | 'anonymousDailyCap' | 'eventNameCap'>
		> = {},
		apiKey?: string,
	): Organization {
		const org = newOrganization(
			apiKey ?? `vak_${randomBytes(27).toString('base64url')}`,
			settings,
			this.clock,
		);
		this.organizations.set(org.apiKey, org);
		return org;
	}

	register(routes: RouteDef[]): void {
		for (const route of routes)
			this.routes.push({ ...route, segments: route.pattern.split('/').filter(Boolean) });
		// literal segments before parameters, so `/v1/agents/voices` wins over `/v1/agents/:agentId`
		this.routes.sort((a, b) => specificity(b) - specificity(a));
	}

	async listen(): Promise<string> {
		this.server = http.createServer((req, res) => void this.handle(req, res));
		this.server.on('connection', (socket) => {
			this.sockets.add(socket);
			socket.on('close', () => this.sockets.delete(socket));
		});
		await new Promise<void>((resolve) =>
			this.server!.listen(this.options.port ?? 0, '127.0.0.1', resolve),
		);
		const { port } = this.server.address() as AddressInfo;
		this.baseUrl = `http://127.0.0.1:${port}`;
		return this.baseUrl;
	}

	async stop(): Promise<void> {
		await this.clock.stopRunning();
		for (const socket of this.sockets) socket.destroy();
		await new Promise<void>((resolve) =>
			this.server ? this.server.close(() => resolve()) : resolve(),
		);
	}

	/** Requests received, optionally filtered by method and path (string exact or RegExp). */
	/**
	 * Calls `listener` with each request as it arrives, before due clock work, faults and the
	 * answer; returns a function that removes it. A test acts at a counted request (between the
	 * pages of one poll) with it, instead of relying on time passing between requests.
	 */
	onRequest(listener: (request: RecordedRequest) => void): () => void {
		this.requestListeners.add(listener);
		return () => this.requestListeners.delete(listener);
	}

	requestsTo(method?: string, path?: string | RegExp): RecordedRequest[] {
		return this.requests.filter(
			(r) =>
				(!method || r.method === method) &&
				(!path || (typeof path === 'string' ? r.path === path : path.test(r.path))),
		);
	}

	/** Post a webhook; failures are recorded, never thrown (the service does not retry them either). */
	async postWebhook(url: string, payload: Record<string, unknown>): Promise<void> {
		const delivery: WebhookDelivery = {
			url,
			payload,
			status: null,
			at: this.clock.now(),
			sentAt: Date.now(),
		};
		this.webhooks.push(delivery);
		try {
			const res = await fetch(url, {
				method: 'POST',
				headers: { 'content-type': 'application/json' },
				body: JSON.stringify(payload),
				signal: AbortSignal.timeout(this.options.webhookTimeoutMs ?? 5_000),
			});
			delivery.status = res.status;
			await res.arrayBuffer();
		} catch {
			delivery.status = null;
		}
	}

	private async handle(req: IncomingMessage, res: ServerResponse): Promise<void> {
		const url = new URL(req.url ?? '/', 'http://localhost');
		const method = (req.method ?? 'GET').toUpperCase();
		const rawBody = await readBody(req);
		const record: RecordedRequest = {
			method,
			path: url.pathname,
			query: Object.fromEntries(url.searchParams),
			headers: req.headers,
			body: undefined,
			status: 0,
			at: this.clock.now(),
			orgId: null,
		};
		this.requests.push(record);
		for (const listener of [...this.requestListeners]) listener(record);
		await this.clock.runDue();

		const fault = this.faults.take(method, url.pathname);
		if (fault && !fault.afterHandling) {
			if (
				fault.drop ||
				fault.cutBody ||
				fault.status !== undefined ||
				fault.rawBody !== undefined
			) {
				return this.answerFault(fault, res, record);
			}
			if (fault.delayMs) await delay(fault.delayMs);
			await fault.until;
		}

		let answer: SimResponse;
		try {
			answer = await this.dispatch(method, url, rawBody, req.headers, record);
		} catch (error) {
			answer = apiError(500, `Internal simulator error: ${(error as Error).message}`);
		}
		if (fault?.afterHandling) {
			if (fault.delayMs) await delay(fault.delayMs);
			return this.answerFault(fault, res, record, answer);
		}
		record.status = answer.status;
		send(res, answer);
	}

	private async dispatch(
		method: string,
		url: URL,
		rawBody: string,
		headers: IncomingHttpHeaders,
		record: RecordedRequest,
	): Promise<SimResponse> {
		const now = this.clock.now();
		const ip = '127.0.0.1';
		if (!this.limiter.take('ip', ip, now)) return this.tooMany('ip', ip, 'IP address');
		const ipHeaders = this.rateHeaders('ip', ip);

		const org = this.organizations.get(String(headers['x-api-key'] ?? ''));
		if (!org)
			return withHeaders(apiError(401, 'Unauthorized: missing or invalid API key'), ipHeaders);
		record.orgId = org.id;

		const match = this.match(method, url.pathname);
		if (!match) return withHeaders(apiError(404, `Cannot ${method} ${url.pathname}`), ipHeaders);

		let body: unknown = undefined;
		if (rawBody.length) {
			try {
				body = JSON.parse(rawBody);
			} catch {
				return withHeaders(apiError(400, 'Malformed JSON body'), ipHeaders);
			}
		}
		record.body = body;
		const request: SimRequest = {
			method,
			path: url.pathname,
			params: match.params,
			query: Object.fromEntries(url.searchParams),
			headers,
			body,
			org,
			sim: this,
		};
		const budgets =
			typeof match.route.budgets === 'function'
				? match.route.budgets(request)
				: (match.route.budgets ?? ['org']);
		for (const budget of budgets) {
			if (this.limiter.peek(budget, org.id, now).remaining === 0) {
				return this.tooMany(
					budget,
					org.id,
					budgetLabel(budget),
					budgets.includes('listing') ? ipHeaders : {},
				);
			}
		}
		for (const budget of budgets) this.limiter.take(budget, org.id, now);

		const answer = await match.route.handler(request);
		const rate: Record<string, string> = {};
		for (const budget of budgets) Object.assign(rate, this.rateHeaders(budget, org.id));
		// the reference shows the `-ip` twin on listing endpoints
		if (budgets.includes('listing')) Object.assign(rate, ipHeaders);
		return withHeaders(answer, rate);
	}

	private match(
		method: string,
		path: string,
	): { route: CompiledRoute; params: Record<string, string> } | undefined {
		const parts = path.split('/').filter(Boolean);
		for (const route of this.routes) {
			if (route.method !== method || route.segments.length !== parts.length) continue;
			const params: Record<string, string> = {};
			const ok = route.segments.every((seg, i) => {
				if (seg.startsWith(':')) {
					params[seg.slice(1)] = decodeURIComponent(parts[i]);
					return true;
				}
				return seg === parts[i];
			});
			if (ok) return { route, params };
		}
		return undefined;
	}

	private seconds(ms: number): string {
		const s = Math.max(0, ms) / 1000;
		return this.options.fractionalSeconds
			? String(Math.round(s * 1000) / 1000)
			: String(Math.ceil(s));
	}

	private rateHeaders(budget: BudgetName, key: string): Record<string, string> {
		const state = this.limiter.peek(budget, key, this.clock.now());
		const suffix = HEADER_SUFFIX[budget];
		return {
			[`X-RateLimit-Limit${suffix}`]: String(state.limit),
			[`X-RateLimit-Remaining${suffix}`]: String(state.remaining),
			[`X-RateLimit-Reset${suffix}`]: this.seconds(state.resetMs),
		};
	}

	private tooMany(
		budget: BudgetName,
		key: string,
		label: string,
		extra: Record<string, string> = {},
	): SimResponse {
		const state = this.limiter.peek(budget, key, this.clock.now());
		return {
			...apiError(
				429,
				`Too many requests: ${label} rate limit exceeded, retry in ${this.seconds(state.resetMs)} seconds`,
			),
			headers: {
				...extra,
				...this.rateHeaders(budget, key),
				'Retry-After': this.seconds(state.resetMs),
			},
		};
	}

	/** The fault's answer; a body cut after handling is the real answer's, cut. */
	private answerFault(
		fault: Fault,
		res: ServerResponse,
		record: RecordedRequest,
		handled?: SimResponse,
	): void {
		if (fault.drop) {
			record.status = -1;
			res.socket?.destroy();
			return;
		}
		const real =
			fault.cutBody && fault.body === undefined && fault.rawBody === undefined
				? handled
				: undefined;
		const status = fault.status ?? real?.status ?? 500;
		record.status = fault.cutBody ? -1 : status;
		const headers: Record<string, string> = { ...fault.headers };
		if (fault.retryAfter !== undefined) headers['Retry-After'] = String(fault.retryAfter);
		const contentType =
			fault.rawBody !== undefined ? (fault.contentType ?? 'text/html') : 'application/json';
		const body =
			fault.rawBody ?? JSON.stringify(real ? real.body : this.faultBody(fault, status, record));
		if (fault.cutBody) {
			// the full length announced, half of it sent: the client sees the connection close mid-body
			res.writeHead(status, {
				'content-type': contentType,
				'content-length': String(Buffer.byteLength(body)),
				...headers,
			});
			res.write(body.slice(0, Math.floor(body.length / 2)), () => res.socket?.destroy());
			return;
		}
		res.writeHead(status, { 'content-type': contentType, ...headers });
		res.end(body);
	}

	private faultBody(fault: Fault, status: number, record: RecordedRequest): unknown {
		const body = fault.body ?? {
			statusCode: status,
			message: http.STATUS_CODES[status] ?? 'Error',
		};
		if (!fault.quoteKey || !body || typeof body !== 'object') return body;
		const message = String((body as { message?: unknown }).message ?? '');
		return { ...body, message: `${message} (key: ${String(record.headers['x-api-key'] ?? '')})` };
	}
}

function specificity(route: CompiledRoute): number {
	return route.segments.reduce((n, seg, i) => n + (seg.startsWith(':') ? 0 : 2 ** (10 - i)), 0);
}

function budgetLabel(budget: BudgetName): string {
	return {
		org: 'organization',
		listing: 'organization listing',
		ip: 'IP address',
		events: 'events',
		eventsAnonymous: 'anonymous events',
	}[budget];
}

function withHeaders(answer: SimResponse, headers: Record<string, string>): SimResponse {
	return { ...answer, headers: { ...headers, ...answer.headers } };
}

function send(res: ServerResponse, answer: SimResponse): void {
	const headers: Record<string, string> = { ...answer.headers };
	if (answer.body === undefined) {
		res.writeHead(answer.status, headers);
		res.end();
		return;
	}
	if (Buffer.isBuffer(answer.body)) {
		res.writeHead(answer.status, { 'content-length': String(answer.body.length), ...headers });
		res.end(answer.body);
		return;
	}
	res.writeHead(answer.status, { 'content-type': 'application/json; charset=utf-8', ...headers });
	res.end(JSON.stringify(answer.body));
}

function readBody(req: IncomingMessage): Promise<string> {
	return new Promise((resolve, reject) => {
		const chunks: Buffer[] = [];
		req.on('data', (c: Buffer) => chunks.push(c));
		req.on('end', () => resolve(Buffer.concat(chunks).toString('utf8')));
		req.on('error', reject);
	});
}

function delay(ms: number): Promise<void> {
	return new Promise((resolve) => setTimeout(resolve, ms));
}
