import type { IDataObject } from 'n8n-workflow';

import { runNode, type RunNodeOptions } from '../../harness/engine.cts';
import { installFakeTime, nextDueAfterQuiet } from '../../harness/fakeTime.cts';
import { startSimulator, type Simulator } from '../../simulator/index.cts';
import { generateBadInputs, type BadInputCase } from './badInputs.cts';
import { samplesOf, withNewPhone } from '../helpers/samples.cts';
import { RESOURCES } from '../../nodes/VoiceAgentCrm/actions/resources';

/** What a run ends as: refused by the node before sending, answered by the API with an error, or done. */
type Verdict = 'refusedByN8n' | 'refusedBeforeSending' | 'apiError' | 'accepted';

/**
 * Fields whose values only the API knows: the voice catalog and the templates are listed by the
 * API at run time, the reference gives agent languages as examples ("such as"), and channel IDs are
 * opaque strings the send endpoints answer 400 when unknown. A 400 for them is the API's judgement,
 * not a rule the node could have checked.
 */
const API_OWNS_VALUES = new Set(['voice_id', 'language', 'templateName', 'channelId']);

/**
 * A 100,000-character ID or filter makes a request address no HTTP server reads (431): the request
 * left the node, but the simulator never saw it.
 */
const REFUSED_BY_THE_HTTP_SERVER = /HTTP 431/;

/**
 * Reads a WhatsApp send makes to check its input before sending (the channel's type and status, the
 * language of a template given by name): a value they refuse is refused before sending.
 */
const READS_BEFORE_SENDING = /^GET \/v1\/(channels|waba\/templates)$/;

/**
 * Operations that wait minutes when their input is valid (a campaign starts each call 20 s after
 * placing it): their cases run on fake time against a simulator of their own.
 */
const WAITING_OPERATIONS = new Set(['call.runCampaign']);

const NO_LIMITS = { org: 1e9, listing: 1e9, ip: 1e9, events: 1e9, eventsAnonymous: 1e9 };

/** One run on fake time, against a simulator started on it; answers the run and that simulator's requests. */
async function runOnFakeTime(options: Omit<RunNodeOptions, 'credentials'>) {
	const time = installFakeTime();
	const own = await startSimulator({ seed: true, limits: NO_LIMITS });
	try {
		const run = await time.runUntilSettled(
			runNode({ credentials: { apiKey: own.apiKey, baseUrl: own.baseUrl }, ...options }),
			{ onStep: () => own.clock.runDue(), nextDueAt: nextDueAfterQuiet(own), stepMs: 60_000 },
		);
		return { run, requests: own.requests };
	} finally {
		await own.stop();
		time.uninstall();
	}
}

/** A crash is an error of the code, not a message for a user. */
const CRASH =
	/TypeError|ReferenceError|Cannot read prop|is not a function|is not iterable|undefined is not|Maximum call stack/;

describe('Generated bad input for every parameter of every operation', () => {
	let sim: Simulator;
	let cases: BadInputCase[];
	const tally: Record<Verdict, number> = {
		refusedByN8n: 0,
		refusedBeforeSending: 0,
		apiError: 0,
		accepted: 0,
	};

	beforeAll(async () => {
		sim = await startSimulator({ seed: true, limits: NO_LIMITS });
		const samples = await samplesOf(sim);
		cases = generateBadInputs(RESOURCES, samples);
	});
	afterAll(async () => {
		console.info(`Generated bad inputs: ${JSON.stringify(tally)}`);
		await sim.stop();
	});

	it('covers every operation with hundreds of generated values', () => {
		// every operation that has fields of its own (List Voices has none), derived from the operations
		const withFields = RESOURCES.flatMap((resource) =>
			resource.operations
				.filter((op) => op.fields.length)
				.map((op) => `${resource.option.value}.${op.option.value}`),
		);
		expect([...new Set(cases.map((c) => c.operation))].sort()).toEqual(withFields.sort());
		expect(cases.length).toBeGreaterThan(500);
	});

	it('never crashes: each bad value is refused with the item and the field named, answered by the API with a clear error, or accepted as valid', async () => {
		const problems: string[] = [];
		for (const badCase of cases) {
			const problem = await checkCase(badCase);
			if (problem) problems.push(problem);
		}
		expect(problems).toEqual([]);
	}, 600_000);

	function accept(): undefined {
		tally.accepted++;
		return undefined;
	}

	/**
	 * Event → Send answers a row the service would refuse itself, as that row's result (`invalid`
	 * with the errors to fix), without a request; a row the node sent must not come back invalid.
	 */
	function eventAnswer(
		name: string,
		json: IDataObject | undefined,
		sent: number,
	): string | undefined {
		if (json?.status !== 'invalid' && json?.status !== 'rejected') return undefined;
		if (sent > 0) {
			// rules the reference leaves to the service (e.g. the email format), answered on the event's own row
			tally.apiError++;
			return undefined;
		}
		tally.refusedBeforeSending++;
		const errors = json.errors as unknown[] | undefined;
		return json.reason || errors?.length
			? undefined
			: `${name}: answered ${String(json.status)} without saying why`;
	}

	/** Runs one case; returns what is wrong with how the node took it, if anything. */
	async function checkCase(badCase: BadInputCase): Promise<string | undefined> {
		const name = `${badCase.operation} ${badCase.path} = ${badCase.kind}`;
		const options = {
			parameters: withNewPhone(badCase.parameters),
			items: badCase.items,
			continueOnFail: true,
		};
		let before = sim.requests.length;
		let requests = sim.requests;
		let run: Awaited<ReturnType<typeof runNode>>;
		try {
			if (WAITING_OPERATIONS.has(badCase.operation)) {
				({ run, requests } = await runOnFakeTime(options));
				before = 0;
			} else {
				run = await runNode({
					credentials: { apiKey: sim.apiKey, baseUrl: sim.baseUrl },
					...options,
				});
			}
		} catch (error) {
			// n8n's own check of the workflow, before any node runs (a required field the value hides or shows)
			const refused =
				(error as Error).name === 'WorkflowHasIssuesError' && requests.length === before;
			if (refused) tally.refusedByN8n++;
			return refused ? undefined : `${name}: the engine threw: ${(error as Error).message}`;
		}
		const { items, error } = run;
		if (error) return `${name}: the run stopped although Continue On Fail is on: ${error.message}`;
		const failure = items.find((item) => item.json.error !== undefined);
		// those reads are checks only for the sends; for a list operation (Get Templates) the read is its request
		const checksBeforeSending = badCase.operationKind === 'send';
		const sent = requests
			.slice(before)
			.filter((r) => !checksBeforeSending || !READS_BEFORE_SENDING.test(`${r.method} ${r.path}`));
		if (!failure) return eventAnswer(name, items[0]?.json, sent.length) ?? accept();
		const message = `${String(failure.json.error)} ${String(failure.json.description ?? '')}`.slice(
			0,
			600,
		);
		if (CRASH.test(message)) return `${name}: crashed: ${message}`;
		if (JSON.stringify(failure.pairedItem) !== '{"item":0}')
			return `${name}: error item not paired to its input`;
		if (sent.length === 0 && !REFUSED_BY_THE_HTTP_SERVER.test(message)) {
			tally.refusedBeforeSending++;
			return namesItemAndField(message, badCase.labels)
				? undefined
				: `${name}: refused without naming the item and ${badCase.labels.join(' / ')}: ${message}`;
		}
		tally.apiError++;
		if (!/HTTP \d{3}/.test(message)) return `${name}: the API's answer is not named: ${message}`;
		// a 400 is an invalid request the node could have seen, where the reference states the rule
		const field = badCase.path.split('.').at(-1)!;
		if (sent.some((r) => r.status === 400) && !API_OWNS_VALUES.has(field))
			return `${name}: sent although invalid (400): ${message}`;
		return undefined;
	}
});

/** The item and one of the names along the field's path ("X (JSON)" and "X Name or ID" may be named as X). */
function namesItemAndField(message: string, labels: string[]): boolean {
	const named = (label: string) =>
		message.toLowerCase().includes(label.replace(/ \(JSON\)$| Name or ID$/, '').toLowerCase());
	return /\bitem 0\b/i.test(message) && labels.some(named);
}
