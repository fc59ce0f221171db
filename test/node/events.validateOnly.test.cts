import type { IDataObject, INodeParameters } from 'n8n-workflow';

import { runNode, type RunNodeOptions } from '../../harness/engine.cts';
import { startSimulator, type Simulator } from '../../simulator/index.cts';

/** Event → Send's Validate Only: the node's own checks, the same output and summary, 0 requests. */
describe('Event → Send with Validate Only, through the engine against the simulator', () => {
	let sim: Simulator;
	beforeAll(async () => {
		sim = await startSimulator({ seed: false });
	});
	afterAll(() => sim.stop());
	/** Event → Send with `parameters` (Validate Only among them), having checked it sent no request. */
	const sendNothing = async (parameters: INodeParameters, run: Partial<RunNodeOptions>) => {
		const before = sim.requests.length;
		const result = await runNode({
			credentials: { apiKey: sim.apiKey, baseUrl: sim.baseUrl },
			parameters: { resource: 'event', operation: 'send', ...parameters },
			...run,
		});
		expect(sim.requests.slice(before)).toEqual([]);
		return result;
	};

	it('from items: valid rows answered "valid", refused rows as a real run answers them, the summary, and no request', async () => {
		const rows: IDataObject[] = [
			{
				event_name: 'Trial Started',
				email: 'ana@example.com',
				occurred_at: '2024-05-01T10:00:00Z',
			},
			{ event_name: '9 lives', email: 'ben@example.com' },
			{ event_name: 'Signup' },
		];
		const { items, error } = await sendNothing(
			{
				eventInput: 'autoMapInputData',
				options: { validateOnly: true, output: 'eventsAndSummary' },
			},
			{ items: rows },
		);
		expect(error).toBeUndefined();
		expect(items.map((item) => item.json.status)).toEqual([
			'valid',
			'invalid',
			'rejected',
			undefined,
		]);
		expect(items[0].json).toEqual({
			status: 'valid',
			event_id: expect.stringMatching(/^n8n_/),
			event_name: 'trial_started',
			original_event_name: 'Trial Started',
		});
		expect(items[3].json.summary).toMatchObject({
			received: 3,
			valid: 1,
			invalid: 1,
			rejected: 1,
			created: 0,
			requests: 0,
		});
	});

	it('from a file: the summary and the rows not accepted with their row numbers, and no request', async () => {
		const csv = [
			'event_name,email',
			'Purchase,a@example.com',
			',b@example.com',
			'Purchase,c@example.com',
		].join('\n');
		const { items, error } = await sendNothing(
			{ eventInput: 'file', fileOptions: { validateOnly: true } },
			{
				items: [{}],
				binary: [
					{
						data: {
							data: Buffer.from(csv).toString('base64'),
							mimeType: 'text/csv',
							fileName: 'e.csv',
						},
					},
				],
			},
		);
		expect(error).toBeUndefined();
		expect(items[0].json).toMatchObject({
			summary: { rows_read: 3, valid: 2, invalid: 1, created: 0, requests: 0 },
			not_accepted: [
				{ row: 3, status: 'invalid', reason: 'event_name is required and must be a string' },
			],
		});
	});
});
