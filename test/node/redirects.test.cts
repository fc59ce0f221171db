import http, { type IncomingHttpHeaders } from 'node:http';
import type { AddressInfo } from 'node:net';

import type { INodeParameters } from 'n8n-workflow';

import { runNode } from '../../harness/engine.cts';
import { startSimulator, type Simulator } from '../../simulator/index.cts';
import { finishedCallsPoll } from '../helpers/polling.cts';

/**
 * Redirects of the API requests (docs/decisions.md, "Redirects"): the Base URL (the simulator)
 * answers 301/302/307/308 pointing at a second loopback origin, which answers like the API would,
 * so that a followed redirect would show as a success there.
 */
describe('redirects: the API key stays on the Base URL origin and a write stays a write', () => {
	let sim: Simulator;
	let other: http.Server;
	let otherUrl = '';
	const otherRequests: Array<{ method: string; url: string; headers: IncomingHttpHeaders }> = [];

	beforeAll(async () => {
		other = http.createServer((req, res) => {
			otherRequests.push({ method: req.method ?? '', url: req.url ?? '', headers: req.headers });
			req.resume();
			res.writeHead(200, { 'content-type': 'application/json' });
			res.end(JSON.stringify({ statusCode: 200, data: { id: 'tag-from-elsewhere', name: 'x' } }));
		});
		await new Promise<void>((resolve) => other.listen(0, '127.0.0.1', resolve));
		otherUrl = `http://127.0.0.1:${(other.address() as AddressInfo).port}`;
	});
	afterAll(async () => {
		await new Promise<void>((resolve) => other.close(() => resolve()));
	});
	beforeEach(async () => {
		sim = await startSimulator();
		otherRequests.length = 0;
	});
	afterEach(() => sim.stop());

	const run = (parameters: INodeParameters) =>
		runNode({ credentials: { apiKey: sim.apiKey, baseUrl: sim.baseUrl }, parameters });

	const requests = {
		read: {
			parameters: { resource: 'tag', operation: 'getAll', returnAll: true },
			method: 'GET',
			path: '/v1/tags',
		},
		write: {
			parameters: { resource: 'tag', operation: 'create', name: 'Redirected' },
			method: 'POST',
			path: '/v1/tags',
		},
	};

	describe.each([301, 302, 307, 308])('HTTP %i to another origin', (status) => {
		it.each(['read', 'write'] as const)(
			'a %s is not followed: no request reaches the other origin, the error names its host',
			async (kind) => {
				const { parameters, method, path } = requests[kind];
				const tagsBefore = sim.org.tags.size;
				sim.faults.inject({
					method,
					path,
					fault: { status, headers: { Location: `${otherUrl}${path}` } },
				});
				const { error, items } = await run(parameters);
				expect(items).toEqual([]);
				expect(error?.message).toContain(otherUrl.replace('http://', ''));
				expect(error?.message).toContain('the API key was not sent there');
				expect(otherRequests).toEqual([]);
				expect(otherRequests.filter((r) => r.headers['x-api-key'])).toEqual([]);
				// one request, to the Base URL; a write is not sent again as a GET anywhere
				expect(sim.requestsTo(undefined, path).map((r) => r.method)).toEqual([method]);
				expect(sim.org.tags.size).toBe(tagsBefore);
			},
		);
	});

	it('a redirect to the same host on another scheme is another origin: not followed, and the error says what to write as the Base URL', async () => {
		const httpsTarget = sim.baseUrl.replace('http://', 'https://');
		sim.faults.inject({
			method: 'GET',
			path: '/v1/tags',
			fault: { status: 301, headers: { Location: `${httpsTarget}/v1/tags` } },
		});
		const { error } = await run(requests.read.parameters);
		expect(error?.message).toContain(httpsTarget);
		expect(error?.message).toContain(`write ${httpsTarget} as the Base URL`);
		expect(error?.message).toContain('the API key was not sent there');
		expect(sim.requestsTo('GET', '/v1/tags')).toHaveLength(1);
	});

	it('a 307 on the same origin is followed with the same method and body: one tag created', async () => {
		sim.faults.inject({
			method: 'POST',
			path: '/v1/tags',
			fault: { status: 307, headers: { Location: '/v1/tags' } },
		});
		const tagsBefore = sim.org.tags.size;
		const { error, items } = await run(requests.write.parameters);
		expect(error).toBeUndefined();
		expect(items[0].json).toMatchObject({ name: 'Redirected' });
		const sent = sim.requestsTo(undefined, '/v1/tags');
		expect(sent.map((r) => [r.method, r.status])).toEqual([
			['POST', 307],
			['POST', 201],
		]);
		expect(sent[1].body).toMatchObject({ name: 'Redirected' });
		expect(sim.org.tags.size).toBe(tagsBefore + 1);
	});

	it.each([
		[301, 'would send it again as a GET'],
		[302, 'would send it again as a GET'],
		// "see other" is how a server says it carried the write out
		[303, 'The tag may have been created: the service answered with a redirect (HTTP 303)'],
	])(
		'a write answered %i on the same origin is not turned into a GET: refused, nothing else sent',
		async (status, headline) => {
			sim.faults.inject({
				method: 'POST',
				path: '/v1/tags',
				fault: { status, headers: { Location: '/v1/tags' } },
			});
			const { error } = await run(requests.write.parameters);
			expect(error?.message).toContain(headline);
			expect(sim.requestsTo(undefined, '/v1/tags').map((r) => r.method)).toEqual(['POST']);
		},
	);

	it('a read answered 301 on the same origin is followed', async () => {
		sim.faults.inject({
			method: 'GET',
			path: '/v1/tags',
			fault: { status: 301, headers: { Location: `${sim.baseUrl}/v1/tags?limit=1000&offset=0` } },
		});
		const { error, items } = await run(requests.read.parameters);
		expect(error).toBeUndefined();
		expect(items.length).toBe(sim.org.tags.size);
		expect(sim.requestsTo('GET', '/v1/tags').map((r) => r.status)).toEqual([301, 200]);
	});

	it('same-origin redirects stop after a few hops', async () => {
		sim.faults.inject({
			method: 'GET',
			path: '/v1/tags',
			times: 10,
			fault: { status: 307, headers: { Location: '/v1/tags' } },
		});
		const { error } = await run(requests.read.parameters);
		expect(error?.message).toContain('redirected the request more than 3 times');
		expect(sim.requestsTo('GET', '/v1/tags')).toHaveLength(4);
	});

	it("the polling trigger's reads are not followed to another origin either", async () => {
		const trigger = finishedCallsPoll(sim);
		sim.faults.inject({
			method: 'GET',
			path: '/v1/calls',
			fault: { status: 302, headers: { Location: `${otherUrl}/v1/calls` } },
		});
		const failed = await trigger.poll().then(
			() => undefined,
			(e: unknown) => e as Error,
		);
		expect(failed?.message).toContain('the API key was not sent there');
		expect(otherRequests).toEqual([]);
	});
});
