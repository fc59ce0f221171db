import type { IDataObject, INodeExecutionData, INodeParameters } from 'n8n-workflow';

import {
	ENDPOINTS,
	endpointPath,
	type EndpointName,
} from '../../nodes/VoiceAgentCrm/transport/endpoints';
import { runNode } from '../../harness/engine.cts';
import { installFakeTime } from '../../harness/fakeTime.cts';
import { pollingTrigger } from '../../harness/poll.cts';
import { startSimulator, type Simulator } from '../../simulator/index.cts';
import { insertCall, planCalls, storedEvents } from '../../simulator/index.cts';
import {
	expectedOutcome,
	FAULTS,
	OPERATION_CLASSES,
	type FaultColumn,
	type OperationClass,
} from './matrix.cts';

const byId = (value: string) => ({ __rl: true, mode: 'id', value });

/** What one cell left behind: the failure's words (if it failed) and the records it stored. */
interface CellResult {
	/** Message and description of the failure, or undefined when the operation succeeded. */
	failure?: string;
	/**
	 * One key per record the operation stored (or call emitted, for the trigger), read once the
	 * simulator has answered every request; undefined for reads.
	 */
	stored?: () => string[];
}

interface ClassRunner {
	/** The path the faults hit, filled in from the simulator's records (a pattern for an ID not known before the run). */
	path(sim: Simulator): string | RegExp;
	/** How many records the operation stores when its request takes effect once. */
	records?: number;
	/** Runs the operation once, calling `injectFault` just before the request the fault is for. */
	run(sim: Simulator, injectFault: () => void): Promise<CellResult>;
}

const failureOf = (items: INodeExecutionData[]): string | undefined => {
	const failed = items.filter((item) => item.json.error !== undefined);
	if (!failed.length) return undefined;
	// every failed item of the cell is paired to its input and says the same
	return failed
		.map((item) => `${String(item.json.error)} ${String(item.json.description ?? '')}`)
		.join('\n');
};

async function runAction(
	sim: Simulator,
	parameters: INodeParameters,
	items?: IDataObject[],
): Promise<INodeExecutionData[]> {
	const { items: output, error } = await runNode({
		credentials: { apiKey: sim.apiKey, baseUrl: sim.baseUrl },
		parameters,
		items,
		continueOnFail: true,
	});
	expect(error).toBeUndefined();
	output.forEach((item, index) => expect(item.pairedItem).toEqual({ item: index }));
	return output;
}

const firstAgent = (sim: Simulator) => [...sim.org.agents.values()][0];
const maria = (sim: Simulator) =>
	[...sim.org.contacts.values()].find((c) => c.phone_number === '+34600000001')!;
const path = (name: EndpointName, params?: Record<string, string>) => endpointPath(name, params);

const NEW_PHONE = '+34699000111';
const CALLED = '+14155550777';
const MESSAGE = 'Fault matrix: your order has shipped.';
const EVENT_NAME = 'fault_matrix_check';

/** Place AI Call to CALLED: the placement the matrix injects its faults into. */
const callToCalled = (sim: Simulator): INodeParameters => ({
	resource: 'call',
	operation: 'placePhoneCall',
	agentId: byId(firstAgent(sim).id),
	fromNumber: byId('+14155550100'),
	toNumber: CALLED,
	fullName: 'Matrix Person',
});
const EVENT_ROWS = 3;

function eventRows(withIds: boolean): IDataObject[] {
	return Array.from({ length: EVENT_ROWS }, (_, i) => ({
		event_name: EVENT_NAME,
		...(withIds ? { event_id: `matrix-${i}` } : {}),
		contact: { email: `matrix-${i}@example.com` },
	}));
}

function eventsRunner(withIds: boolean): ClassRunner {
	return {
		path: () => path('sendEvents'),
		records: EVENT_ROWS,
		async run(sim, injectFault) {
			injectFault();
			const items = await runAction(
				sim,
				{
					resource: 'event',
					operation: 'send',
					eventInput: 'json',
					eventJson: '={{ $json }}',
					options: { deriveEventIds: 'never' },
				},
				eventRows(withIds),
			);
			const failure = failureOf(items);
			if (!failure)
				for (const item of items) expect(['created', 'duplicate']).toContain(item.json.status);
			return {
				failure,
				stored: () =>
					storedEvents(sim.org, { event_name: EVENT_NAME }).map((e) => String(e.contact_id)),
			};
		},
	};
}

/**
 * The trigger after its baseline, with one call finished since: the faulted poll either emits it
 * (the list was read again) or fails leaving its state as it was, and then the next good poll
 * emits it. Either way the call comes out exactly once.
 */
const pollRunner: ClassRunner = {
	path: () => path('listCalls'),
	records: 1,
	async run(sim, injectFault) {
		const trigger = pollingTrigger({
			credentials: { apiKey: sim.apiKey, baseUrl: sim.baseUrl },
			parameters: { event: 'callFinished' },
			clock: () => sim.clock.now(),
		});
		expect(await trigger.poll()).toBeNull();
		await sim.clock.advance(60_000);
		const finished = insertCall(sim, { created_at: sim.clock.iso() });
		const before = JSON.stringify(trigger.staticData);
		injectFault();
		const emitted: string[] = [];
		let failure: string | undefined;
		try {
			emitted.push(...idsOf(await trigger.poll()));
		} catch (error) {
			const e = error as { message?: string; description?: string };
			failure = `${e.message} ${e.description ?? ''}`;
			expect(JSON.stringify(trigger.staticData)).toBe(before);
		}
		await settled(sim);
		emitted.push(...idsOf(await trigger.poll()));
		expect(emitted.every((id) => id === finished.id)).toBe(true);
		return { failure, stored: () => emitted };
	},
};

/**
 * Place AI Call with "Wait for Outcome: Until Its Analysis Is Ready", the fault on the wait's
 * status reads or its record read. The call is scripted to be over, analysis included, about a
 * second after placement, so the first status read (5 s after placement) finds it finished and
 * the record read finds it complete: each read is sent once unless the fault is repeated.
 */
function waitRunner(read: 'getCallStatus' | 'getCall'): ClassRunner {
	return {
		// any call's: its ID is not known until the placement answers
		path: () => new RegExp(`^${ENDPOINTS[read].path.replace('{callId}', '[0-9a-f-]{36}')}$`),
		records: 1,
		async run(sim, injectFault) {
			planCalls(sim).next({
				queueMs: 200,
				ringMs: 200,
				talkMs: 300,
				finishedDelayMs: 100,
				reasonDelayMs: 100,
				analysisDelayMs: 300,
			});
			injectFault();
			const items = await runAction(sim, { ...callToCalled(sim), waitFor: 'analysis' });
			const placed = () =>
				[...sim.org.calls.values()].filter((c) => c.to === CALLED).map((c) => c.id);
			const [callId] = placed();
			const failure = failureOf(items);
			if (failure) {
				// the call goes on: the user gets its ID to read the outcome later, and no second call
				expect(items[0].json.call_id).toBe(callId);
				expect(failure).toContain(callId);
				expect(failure).toMatch(/do not place it again/);
			} else {
				expect(items[0].json).toMatchObject({
					id: callId,
					call_status: 'completed',
					call_analysis: { summary: expect.any(String) },
				});
				expect((items[0].json.chat_history as unknown[]).length).toBeGreaterThan(0);
			}
			return { failure, stored: placed };
		},
	};
}

const idsOf = (output: INodeExecutionData[][] | null) =>
	(output?.[0] ?? []).map((item) => String(item.json.id));

const RUNNERS: Record<string, ClassRunner> = {
	read: {
		path: (sim) => path('getAgent', { agentId: firstAgent(sim).id }),
		async run(sim, injectFault) {
			injectFault();
			const items = await runAction(sim, {
				resource: 'agent',
				operation: 'get',
				agentId: byId(firstAgent(sim).id),
			});
			const failure = failureOf(items);
			if (!failure) expect(items[0].json.id).toBe(firstAgent(sim).id);
			return { failure };
		},
	},
	update: {
		path: (sim) => path('updateContact', { contactId: maria(sim).id }),
		records: 1,
		async run(sim, injectFault) {
			injectFault();
			const items = await runAction(sim, {
				resource: 'contact',
				operation: 'update',
				contactId: byId(maria(sim).id),
				updateFields: { email: 'maria.matrix@example.com' },
			});
			const stored = () =>
				[...sim.org.contacts.values()]
					.filter((c) => c.email === 'maria.matrix@example.com')
					.map((c) => c.id);
			return { failure: failureOf(items), stored };
		},
	},
	create: {
		path: () => path('createContact'),
		records: 1,
		async run(sim, injectFault) {
			injectFault();
			const items = await runAction(sim, {
				resource: 'contact',
				operation: 'create',
				phoneNumber: NEW_PHONE,
				additionalFields: { fullName: 'Matrix Person' },
			});
			const stored = () =>
				[...sim.org.contacts.values()].filter((c) => c.phone_number === NEW_PHONE).map((c) => c.id);
			return { failure: failureOf(items), stored };
		},
	},
	placement: {
		path: () => path('placePhoneCall'),
		records: 1,
		async run(sim, injectFault) {
			injectFault();
			const items = await runAction(sim, callToCalled(sim));
			const stored = () =>
				[...sim.org.calls.values()].filter((c) => c.to === CALLED).map((c) => c.id);
			return { failure: failureOf(items), stored };
		},
	},
	whatsapp: {
		path: () => path('sendMessage'),
		records: 1,
		async run(sim, injectFault) {
			injectFault();
			const waba = [...sim.org.channels.values()].find((c) => c.type === 'WABA')!;
			const items = await runAction(sim, {
				resource: 'whatsapp',
				operation: 'sendMessage',
				channelId: byId(waba.id),
				contactId: byId(maria(sim).id),
				content: MESSAGE,
			});
			const stored = () =>
				[...sim.org.messages.values()].filter((m) => m.content === MESSAGE).map((m) => m.id);
			return { failure: failureOf(items), stored };
		},
	},
	stop: {
		path: () => /^\/v1\/calls\/single-phone-call\/[0-9a-f-]{36}\/stop$/,
		records: 1,
		async run(sim, injectFault) {
			const live = insertCall(sim, { phase: 'in_progress' });
			injectFault();
			const items = await runAction(sim, { resource: 'call', operation: 'stop', callId: live.id });
			const failure = failureOf(items);
			// the store shows the call hung up through the stop endpoint, by this run: the output says so
			if (!failure) expect(items[0].json).toMatchObject({ call_id: live.id, stopped: true });
			const stopped = () =>
				[...sim.org.calls.values()]
					.filter((c) => c.id === live.id && c.disconnection_reason === 'user_hangup')
					.map((c) => c.id);
			return { failure, stored: stopped };
		},
	},
	eventsWithIds: eventsRunner(true),
	eventsWithoutIds: eventsRunner(false),
	poll: pollRunner,
	waitStatus: waitRunner('getCallStatus'),
	waitRecord: waitRunner('getCall'),
};

/** Wait (bounded) until the simulator has answered every request, delayed ones too. */
async function settled(sim: Simulator): Promise<void> {
	for (let waited = 0; waited < 600_000 && sim.requests.some((r) => r.status === 0); waited += 1000)
		await new Promise((resolve) => setTimeout(resolve, 1000));
}

/** A failure says what happened (the status or the missing answer) and what the user can do. */
const ADVICE = /check|try again|run .* again|before running/i;
/** A write that may have taken effect says so, instead of inviting a repeat. */
const MAY_HAVE_HAPPENED = /may have|may already/i;

const CELLS = OPERATION_CLASSES.flatMap((row) =>
	FAULTS.map((fault) => ({ row, fault, name: `${row.label} × ${fault.label}` })),
);

/**
 * One cell against its own simulator: the operation meets the fault once, as the policy says. The
 * cell runs on the fake clock, as every wait in it is a timer: the policy's backoff and 429 waits,
 * the call wait's 5 s interval, the simulator's delayed answer and the request timeout it exceeds
 * (the HTTP client's timer until the answer's headers arrive; `matrix.cts`, "slower than the
 * timeout").
 */
async function runCell(row: OperationClass, fault: FaultColumn): Promise<void> {
	const time = installFakeTime();
	const sim = await startSimulator();
	try {
		const runner = RUNNERS[row.key];
		const { method } = ENDPOINTS[row.endpoint];
		const faultPath = runner.path(sim);
		let sentBefore = 0;
		const run = async () => {
			const cell = await runner.run(sim, () => {
				sentBefore = sim.requestsTo(method, faultPath).length;
				sim.faults.inject({ method, path: faultPath, fault: fault.fault });
			});
			await settled(sim);
			return cell;
		};
		const result = await time.runUntilSettled(run());
		const outcome = expectedOutcome(row, fault);
		// the faulted request, its repeat if the policy allows one, and the trigger's next poll
		const sent = sim.requestsTo(method, faultPath).length - sentBefore;
		expect(sent).toBe((outcome === 'repeats' ? 2 : 1) + (row.trigger ? 1 : 0));

		if (outcome !== 'fails') {
			expect(result.failure).toBeUndefined();
		} else {
			expect(result.failure).toMatch(fault.says);
			expect(result.failure).toMatch(ADVICE);
			if (ENDPOINTS[row.endpoint].repeat !== 'idempotent' && fault.handled)
				expect(result.failure).toMatch(MAY_HAVE_HAPPENED);
		}
		if (runner.records !== undefined) {
			// exactly once: stored by the request that took effect, never by a repeat on top of it
			const stored = result.stored?.() ?? [];
			expect(new Set(stored).size).toBe(stored.length);
			const tookEffect = row.trigger || row.waitsForCall || fault.handled || outcome === 'repeats';
			expect(stored).toHaveLength(tookEffect ? runner.records : 0);
		}
	} finally {
		await sim.stop();
		time.uninstall();
	}
}

describe('Fault matrix: every operation class meets every fault as the request policy says', () => {
	it.each(CELLS)('$name', ({ row, fault }) => runCell(row, fault));
});
