/**
 * `npm run demo`: the example workflows of `examples/`, unchanged, through n8n's engine (n8n-core's
 * WorkflowExecute) against the API simulator over loopback HTTP, with a short report of what they
 * did. Every step checks what it claims; the first that fails ends the demo with exit code 1.
 *
 * Runs with `ts-node --transpile-only --prefer-ts-exts` (without it ts-node resolves `X.node` to
 * the codex `X.node.json`).
 */
import type { IDataObject, IRun } from 'n8n-workflow';

import type { CredentialData } from '../harness/engine.cts';
import {
	activateTrigger,
	loadExample,
	N8N_FILES,
	outputOf,
	runExample,
	runExampleAfterPoll,
	runFailure,
} from '../harness/examples.cts';
import { installFakeTime, nextDueAfterQuiet } from '../harness/fakeTime.cts';
import type { PollingTrigger } from '../harness/poll.cts';
import { startSimulator, type Simulator } from '../simulator/index.cts';
import { planCalls } from '../simulator/index.cts';

class StepFailure extends Error {}

/** The API key never reaches the terminal, whatever a message carries. */
let secret = '';
function print(line = ''): void {
	console.log(secret ? line.split(secret).join('[API key]') : line);
}

function check(condition: unknown, what: string): asserts condition {
	if (!condition) throw new StepFailure(what);
}

function succeeded(run: IRun, example: string): void {
	const failure = runFailure(run);
	check(!failure, `${example} failed: ${failure}`);
}

const seconds = (ms: number) => `${(ms / 1000).toFixed(1)} s`;

/**
 * A call that the simulator ends within seconds of real time: the node reads the call's status every
 * 5 s or more, so it returns its record 15 to 20 s after placing it.
 */
const SHORT_CALL = {
	queueMs: 1_000,
	ringMs: 2_000,
	talkMs: 8_000,
	finishedDelayMs: 1_000,
	reasonDelayMs: 1_000,
	analysisDelayMs: 3_000,
};

async function placeCallAndWait(sim: Simulator, credentials: CredentialData): Promise<IDataObject> {
	const example = 'place-call-and-wait.json';
	print(`1. An AI call placed and awaited (examples/${example})`);
	planCalls(sim).next(SHORT_CALL);
	const started = Date.now();
	const run = await runExample(loadExample(example), credentials);
	succeeded(run, example);
	const [call] = outputOf(run, 'Call John and Wait');
	const analysis = call?.call_analysis as IDataObject | undefined;
	check(
		call?.call_status === 'completed' && analysis?.summary,
		`${example}: expected a completed call with its analysis, got ${JSON.stringify(call)}`,
	);
	const agent = sim.org.agents.get(String(call.agent_id));
	const contact = call.contact as IDataObject;
	const statusReads = sim.requestsTo('GET', /^\/v1\/calls\/[^/]+\/status$/).length;
	print(
		`   Called ${contact.full_name} (${contact.phone_number}) with the agent "${agent?.name}"; the node waited ${seconds(Date.now() - started)}`,
	);
	print(
		`   Outcome: ${call.call_status}, ${call.call_result}, ${call.duration} s, ended by ${call.disconnection_reason}`,
	);
	print(`   Analysis: "${analysis.summary}" Sentiment: ${analysis.sentiment}`);
	print(
		`   Requests: 1 placement (never repeated), ${statusReads} status reads, 5 s or more apart`,
	);
	return call;
}

async function optOut(sim: Simulator, credentials: CredentialData): Promise<void> {
	const example = 'opt-out-said-on-a-call.json';
	print(`7. An opt-out said on a call, honoured at once (examples/${example})`);
	planCalls(sim).next(SHORT_CALL);
	const run = await runExample(loadExample(example), credentials);
	succeeded(run, example);
	const [marked] = outputOf(run, 'Mark Do Not Call');
	check(
		marked?.do_not_call,
		`${example}: expected the contact marked, got ${JSON.stringify(marked)}`,
	);
	print(
		`   ${String(marked.full_name)} asked not to be called again: on the do-not-call list since ${String(marked.do_not_call)}`,
	);
	const again = await runExample(loadExample(example), credentials);
	succeeded(again, example);
	const [skipped] = outputOf(again, 'Call Lucas and Wait for the Analysis');
	check(
		skipped?.status === 'skipped',
		`${example}: running it again must skip the person, got ${JSON.stringify(skipped)}`,
	);
	print(`   Run again: ${String(skipped.status)} (${String(skipped.reason)}), no call placed`);
}

async function syncCrmRows(sim: Simulator, credentials: CredentialData): Promise<void> {
	const example = 'sync-crm-rows-to-events.json';
	print(`2. 250 CRM rows synced as events (examples/${example})`);
	const workflow = loadExample(example);
	const first = await runExample(workflow, credentials);
	succeeded(first, example);
	const results = outputOf(first, 'Send Events');
	const summary = results[results.length - 1]?.summary as IDataObject | undefined;
	const batches = sim
		.requestsTo('POST', '/v1/events')
		.map((request) => ((request.body as IDataObject).events as unknown[]).length);
	check(
		summary?.received === 250 && batches.length === 3 && summary.requests === 3,
		`${example}: expected 250 rows in 3 requests, got ${JSON.stringify(summary)}`,
	);
	print(
		`   250 rows → ${batches.length} requests to POST /v1/events (${batches.join(' + ')} events)`,
	);
	print(`   Status: ${statusCounts(summary)}; ${summary.contacts_created} contacts created`);
	print(
		'   (rejected: rows with neither email nor phone, answered by the node without sending them)',
	);

	const again = await runExample(workflow, credentials);
	succeeded(again, example);
	const rerun = outputOf(again, 'Send Events').at(-1)?.summary as IDataObject | undefined;
	check(
		rerun?.created === 0 && rerun.duplicate === summary.created,
		`${example}: a re-run must store nothing twice, got ${JSON.stringify(rerun)}`,
	);
	print(
		`   Run again: ${statusCounts(rerun)}: nothing stored twice (event IDs derived from each row)`,
	);
}

async function syncCrmContacts(sim: Simulator, credentials: CredentialData): Promise<void> {
	const example = 'sync-crm-contacts-then-events.json';
	print(`4. 40 CRM rows synced as contacts, then as events on them (examples/${example})`);
	const workflow = loadExample(example);
	const contactWrites = () =>
		sim.requests.filter((r) => r.path.startsWith('/v1/contacts') && r.method !== 'GET').length;
	const writesBefore = contactWrites();
	const first = await runExample(workflow, credentials);
	succeeded(first, example);
	const rows = outputOf(first, 'Create or Update Contacts');
	const count = (status: string, of = rows) => of.filter((row) => row.status === status).length;
	const events = outputOf(first, 'Send Events').at(-1)?.summary as IDataObject | undefined;
	check(
		rows.length === 40 &&
			count('created') === 38 &&
			count('refused') === 2 &&
			events?.created === 38,
		`${example}: expected 38 contacts created, 2 refused, 38 events, got ${count('created')}, ${count('refused')}, ${JSON.stringify(events)}`,
	);
	print(
		`   Contacts: created ${count('created')}, refused ${count('refused')} (${String(rows.find((row) => row.status === 'refused')?.reason).slice(0, 60)}…)`,
	);
	print(`   Events on those contacts: ${statusCounts(events)}`);
	const writes = contactWrites() - writesBefore;
	const again = await runExample(workflow, credentials);
	succeeded(again, example);
	const rerun = outputOf(again, 'Create or Update Contacts');
	check(
		count('unchanged', rerun) === 38 && contactWrites() - writesBefore === writes,
		`${example}: a re-run must change no contact, got ${count('unchanged', rerun)} unchanged`,
	);
	print(
		`   Run again: ${count('unchanged', rerun)} contacts unchanged (0 writes), events duplicate`,
	);
}

function statusCounts(summary: IDataObject): string {
	return ['created', 'pending', 'unresolved', 'duplicate', 'rejected', 'invalid', 'failed']
		.filter((status) => Number(summary[status]) > 0)
		.map((status) => `${status} ${summary[status]}`)
		.join(', ');
}

async function followUpFinishedCall(
	sim: Simulator,
	credentials: CredentialData,
	trigger: PollingTrigger,
	call: IDataObject,
): Promise<void> {
	const example = 'follow-up-finished-calls.json';
	print(`3. The trigger and the follow-up it drives (examples/${example})`);
	print('   Activated before step 1: its first poll took a baseline and emitted nothing');
	const emitted = await trigger.poll();
	const items = emitted?.[0] ?? [];
	check(
		items.length === 1 && items[0].json.id === call.id,
		`${example}: the poll must emit the finished call once, got ${items.length} items`,
	);
	print(
		`   Poll: 1 call emitted, the call of step 1 (${(items[0].json.contact as IDataObject).full_name}, ${items[0].json.call_status}, analysis ready: ${items[0].json.analysis_ready})`,
	);

	const run = await runExampleAfterPoll(loadExample(example), credentials, emitted!);
	succeeded(run, example);
	const [comment] = outputOf(run, 'Comment on Contact');
	const stored = sim.org.comments.get(String(comment?.id));
	check(
		stored && stored.contact_id === (call.contact as IDataObject).id,
		`${example}: expected a comment on the call's contact, got ${JSON.stringify(comment)}`,
	);
	print(
		`   Follow-up: a comment created on ${(call.contact as IDataObject).full_name}: "${stored.content}"`,
	);

	check((await trigger.poll()) === null, `${example}: the next poll must emit nothing`);
	print('   Next poll: nothing new (each finished call is emitted once)');
}

async function listVoices(sim: Simulator, credentials: CredentialData): Promise<void> {
	const example = 'list-voices.json';
	print(`4. The voices an agent can speak with (examples/${example})`);
	const run = await runExample(loadExample(example), credentials);
	succeeded(run, example);
	const voices = outputOf(run, 'List Voices');
	const catalog = sim.requestsTo('GET', '/v1/agents/voices').length;
	check(
		voices.length > 0 && voices.every((voice) => voice.id && voice.name) && catalog === 1,
		`${example}: expected the voices in one request, got ${voices.length} items in ${catalog} requests`,
	);
	print(
		`   ${voices.length} voices in 1 request, e.g. ${voices
			.slice(0, 3)
			.map((voice) => `${voice.name} (${voice.id})`)
			.join(', ')}`,
	);
}

async function sendFile(sim: Simulator, credentials: CredentialData): Promise<void> {
	const example = 'send-crm-export-file-as-events.json';
	print(`5. A CRM export file sent as events (examples/${example})`);
	print(
		`   Read/Write Files from Disk reads ${N8N_FILES}/crm-export.csv, where the README says to put it (here the sample beside the example)`,
	);
	const before = sim.requestsTo('POST', '/v1/events').length;
	const run = await runExample(loadExample(example), credentials);
	succeeded(run, example);
	const [result] = outputOf(run, 'Send Events from the File');
	const summary = result?.summary as IDataObject | undefined;
	const requests = sim.requestsTo('POST', '/v1/events').length - before;
	check(
		summary?.rows_read === 7 && summary.created === 5 && summary.requests === 1 && requests === 1,
		`${example}: expected 7 rows read and 5 created in 1 request, got ${JSON.stringify(summary)}`,
	);
	print(`   ${summary.rows_read} rows in ${requests} request: ${statusCounts(summary)}`);
	for (const row of (result.not_accepted as IDataObject[]) ?? [])
		print(`   Row ${row.row}: ${row.status}, ${row.reason}`);
	const resultFile =
		run.data.resultData.runData['Send Events from the File']?.[0]?.data?.main?.[0]?.[0]?.binary
			?.data;
	check(resultFile?.fileName, `${example}: expected the rows not accepted as a file`);
	print(`   One summary item for the file; the rows not accepted also as ${resultFile.fileName}`);
}

/**
 * The campaign example on fake time: a campaign waits 20 s before each call, 15 s between looks, a
 * minute before a redial and, at night, for each person's lawful hours, so its own simulator and
 * n8n's timers move forward together instead.
 */
async function callCampaign(): Promise<void> {
	const example = 'call-campaign-then-follow-up.json';
	print(`6. A call campaign, then follow-ups by result (examples/${example})`);
	const time = installFakeTime();
	const sim = await startSimulator({ apiKey: secret });
	try {
		planCalls(sim).next({ result: 'no_answer' }).next({ result: 'busy' });
		// a person outside the lawful hours of their place waits for them: up to a weekend and a holiday
		const drive = {
			onStep: () => sim.clock.runDue(),
			nextDueAt: nextDueAfterQuiet(sim),
			stepMs: 60_000,
			maxMs: 4 * 86_400_000,
		};
		const credentials = { apiKey: sim.apiKey, baseUrl: sim.baseUrl };
		const run = await time.runUntilSettled(runExample(loadExample(example), credentials), drive);
		succeeded(run, example);
		const people = outputOf(run, 'Call Campaign');
		const rang = () => [...sim.org.calls.values()].filter((call) => call.phase !== 'canceled');
		check(
			people.length === 6 && rang().length === 7,
			`${example}: expected 6 people and 7 calls, got ${people.length} and ${rang().length}`,
		);
		print(`   ${minutes(time.elapsed())} of the simulator's clock, moved forward`);
		for (const person of people)
			print(
				`   ${String(person.full_name)}: ${String(person.campaign_status)}, ${String(person.reason)}`,
			);
		print(`   Follow-up tasks: ${outputOf(run, 'Task to Follow Up').length}`);
		const again = await time.runUntilSettled(runExample(loadExample(example), credentials), drive);
		succeeded(again, example);
		check(
			rang().length === 7,
			`${example}: running it again must call nobody, got ${rang().length - 7} calls`,
		);
		print('   Run again: the same list is the same campaign, 0 new calls');
	} finally {
		await sim.stop();
		time.uninstall();
	}
}

const minutes = (ms: number) => `${Math.round(ms / 60_000)} minutes`;

async function main(): Promise<void> {
	const started = Date.now();
	const sim = await startSimulator();
	secret = sim.apiKey;
	const credentials: CredentialData = { apiKey: sim.apiKey, baseUrl: sim.baseUrl };
	print(
		`Voice Agent CRM demo: the example workflows through n8n's engine, against the API simulator at ${sim.baseUrl}`,
	);
	print();
	try {
		// the trigger is active before the call is placed, as in n8n: its first poll takes a baseline
		const trigger = activateTrigger(loadExample('follow-up-finished-calls.json'), credentials, () =>
			sim.clock.now(),
		);
		check(
			(await trigger.poll()) === null,
			"the trigger's activation must take a baseline and emit nothing",
		);
		const call = await placeCallAndWait(sim, credentials);
		print();
		await syncCrmRows(sim, credentials);
		print();
		await followUpFinishedCall(sim, credentials, trigger, call);
		print();
		await listVoices(sim, credentials);
		print();
		await sendFile(sim, credentials);
		print();
		await syncCrmContacts(sim, credentials);
		print();
		await callCampaign();
		print();
		await optOut(sim, credentials);
		print();
		print(`Demo OK (${seconds(Date.now() - started)})`);
	} finally {
		await sim.stop();
	}
}

main().then(
	() => process.exit(0),
	(error: unknown) => {
		print();
		print(
			`Demo FAILED: ${error instanceof StepFailure ? error.message : error instanceof Error ? (error.stack ?? error.message) : String(error)}`,
		);
		process.exit(1);
	},
);
