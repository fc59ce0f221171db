import path from 'node:path';

import type { IDataObject } from 'n8n-workflow';

import { installFakeTime, nextDueAfterQuiet } from '../harness/fakeTime.cts';
import {
	activateTrigger,
	EXAMPLES_DIR,
	exampleFiles,
	loadExample,
	N8N_FILES,
	outputOf,
	runExample,
	runExampleAfterPoll,
	runExampleFromErrorTrigger,
	runFailure,
	triggerOf,
} from '../harness/examples.cts';
import { runNode, type CredentialData, type WorkflowJson } from '../harness/engine.cts';
import { ACTION_NODE, PACKAGE, TRIGGER_NODE } from '../harness/nodeTypes.cts';
import { startSimulator, type Simulator } from '../simulator/index.cts';
import { driveCallToEnd, MAIN_ORG_IDS, planCalls, VOICES } from '../simulator/index.cts';

/**
 * Every workflow of `examples/` runs unchanged through n8n's engine against the simulator, and does
 * what its name says. `npm run test:n8n` imports the same files into a real n8n.
 */

/** The credential every example names; `npm run test:n8n` imports one with this id and name. */
const CREDENTIAL_REFERENCE = { id: 'VoiceAgentCrmSim', name: 'Voice Agent CRM (simulator)' };

const credentialsOf = (sim: Simulator): CredentialData => ({
	apiKey: sim.apiKey,
	baseUrl: sim.baseUrl,
});

/** What each example must do, beyond running without error. */
const SCENARIOS: Record<string, (workflow: WorkflowJson) => Promise<void>> = {
	'list-voices.json': async (workflow) => {
		await withSimulator(async (sim) => {
			const run = await runExample(workflow, credentialsOf(sim));
			expect(runFailure(run)).toBeUndefined();
			expect(outputOf(run, 'List Voices').map((voice) => voice.id)).toEqual(
				VOICES.map((voice) => voice.id),
			);
		});
	},

	'sync-crm-rows-to-events.json': async (workflow) => {
		await withSimulator(async (sim) => {
			const first = await runExample(workflow, credentialsOf(sim));
			expect(runFailure(first)).toBeUndefined();
			const results = outputOf(first, 'Send Events');
			expect(results).toHaveLength(251);
			expect(results[250].summary).toMatchObject({
				received: 250,
				created: 245,
				rejected: 5,
				failed: 0,
				contacts_created: 245,
				requests: 3,
			});
			expect(results.filter((r) => r.reason === 'no_identity')).toHaveLength(5);
			expect(sim.requestsTo('POST', '/v1/events')).toHaveLength(3);
			expect(sim.org.events).toHaveLength(245);

			// the rows carry their time, so their derived event IDs make a re-run store nothing twice
			const again = await runExample(workflow, credentialsOf(sim));
			expect(outputOf(again, 'Send Events')[250].summary).toMatchObject({
				created: 0,
				duplicate: 245,
				rejected: 5,
				requests: 3,
			});
			expect(sim.org.events).toHaveLength(245);
		});
	},

	'sync-crm-contacts-then-events.json': async (workflow) => {
		await withSimulator(async (sim) => {
			const contactWrites = () =>
				sim.requests.filter((r) => r.path.startsWith('/v1/contacts') && r.method !== 'GET').length;
			const first = await runExample(workflow, credentialsOf(sim));
			expect(runFailure(first)).toBeUndefined();
			const contacts = outputOf(first, 'Create or Update Contacts');
			expect(contacts.map((row) => row.status).filter((s) => s === 'created')).toHaveLength(38);
			expect(contacts.filter((row) => row.status === 'refused')).toHaveLength(2);
			expect(contactWrites()).toBe(38);
			const events = outputOf(first, 'Send Events');
			expect(events[40].summary).toMatchObject({
				received: 40,
				created: 38,
				rejected: 2,
				requests: 1,
			});
			// each event went to the contact the first node created or updated for its row
			expect(events[0].contact).toMatchObject({
				id: contacts[0].contact_id,
				matched_by: 'contact_id',
			});

			// the same export again: every contact unchanged (no write), every event a duplicate
			const again = await runExample(workflow, credentialsOf(sim));
			expect(
				outputOf(again, 'Create or Update Contacts').filter((row) => row.status === 'unchanged'),
			).toHaveLength(38);
			expect(contactWrites()).toBe(38);
			expect(outputOf(again, 'Send Events')[40].summary).toMatchObject({
				created: 0,
				duplicate: 38,
			});
		});
	},

	'send-crm-export-file-as-events.json': async (workflow) => {
		// as shipped: the path n8n reads by default, where the README tells a user to put the export
		expect(fileSelectorOf(workflow)).toBe(`${N8N_FILES}/crm-export.csv`);
		await withSimulator(async (sim) => {
			const first = await runExample(workflow, credentialsOf(sim));
			expect(runFailure(first)).toBeUndefined();
			const [result] = outputOf(first, 'Send Events from the File');
			expect(result).toMatchObject({
				file_name: 'crm-export.csv',
				summary: { rows_read: 7, created: 5, rejected: 1, invalid: 1, requests: 1 },
				not_accepted: [
					{ row: 5, status: 'rejected', reason: 'no_identity' },
					{ row: 7, status: 'invalid', reason: expect.stringContaining('occurred_at') },
				],
			});
			expect(sim.org.events).toHaveLength(5);
			const again = await runExample(workflow, credentialsOf(sim));
			expect(outputOf(again, 'Send Events from the File')[0].summary).toMatchObject({
				created: 0,
				duplicate: 5,
			});
			expect(sim.org.events).toHaveLength(5);
		});
	},

	'place-call-and-wait.json': async (workflow) => {
		// the node reads the call's status every 5 s or more until its analysis is in: in fake time
		const time = installFakeTime();
		try {
			await withSimulator(async (sim) => {
				const run = await time.runUntilSettled(runExample(workflow, credentialsOf(sim)), {
					onStep: () => sim.clock.runDue(),
				});
				expect(runFailure(run)).toBeUndefined();
				const [call] = outputOf(run, 'Call John and Wait');
				expect(call).toMatchObject({
					call_status: 'completed',
					call_result: 'answered',
					contact: { id: MAIN_ORG_IDS.contacts.johnSmith },
				});
				expect((call.call_analysis as IDataObject).summary).toEqual(
					expect.stringContaining('John Smith'),
				);
				expect(sim.requestsTo('POST', '/v1/calls/single-contact-call')).toHaveLength(1);
			});
		} finally {
			time.uninstall();
		}
	},

	'opt-out-said-on-a-call.json': async (workflow) => {
		const time = installFakeTime();
		try {
			await withSimulator(async (sim) => {
				const run = await time.runUntilSettled(runExample(workflow, credentialsOf(sim)), {
					onStep: () => sim.clock.runDue(),
				});
				expect(runFailure(run)).toBeUndefined();
				const [call] = outputOf(run, 'Call Lucas and Wait for the Analysis');
				expect((call.call_analysis as IDataObject).wants_no_more_calls).toBe(true);
				// marked within the same execution: the contact carries the mark
				const [marked] = outputOf(run, 'Mark Do Not Call');
				expect(marked).toMatchObject({ id: MAIN_ORG_IDS.contacts.lucasPereira });
				const lucas = sim.org.contacts.get(MAIN_ORG_IDS.contacts.lucasPereira)!;
				expect(lucas.additional_data).toContainEqual(
					expect.objectContaining({ field: 'do_not_call' }),
				);
				// and the next run of the same workflow does not call him again
				const again = await time.runUntilSettled(runExample(workflow, credentialsOf(sim)), {
					onStep: () => sim.clock.runDue(),
				});
				expect(outputOf(again, 'Call Lucas and Wait for the Analysis')).toEqual([
					expect.objectContaining({ status: 'skipped', reason: 'do_not_call' }),
				]);
				expect(sim.requestsTo('POST', '/v1/calls/single-contact-call')).toHaveLength(1);
			});
		} finally {
			time.uninstall();
		}
	},

	'call-campaign-then-follow-up.json': async (workflow) => {
		// a campaign waits minutes between calls: on fake time, jumping to the simulator's next step,
		// from a Monday on which every person's place is within its lawful hours
		const time = installFakeTime();
		time.clock.setSystemTime(Date.parse('2026-11-30T17:00:00Z'));
		try {
			await withSimulator(async (sim) => {
				planCalls(sim).next({ result: 'no_answer' }).next({ result: 'busy' });
				const drive = {
					onStep: () => sim.clock.runDue(),
					nextDueAt: nextDueAfterQuiet(sim),
					stepMs: 60_000,
				};
				const run = await time.runUntilSettled(runExample(workflow, credentialsOf(sim)), drive);
				expect(runFailure(run)).toBeUndefined();
				const people = outputOf(run, 'Call Campaign');
				expect(people.map((person) => person.campaign_status)).toEqual([
					'called',
					'called',
					'called',
					'called',
					'called',
					'invalid',
				]);
				// Calling Hours is left at Lawful: each item names the rule of the person's place
				expect(people.map((person) => String(person.calling_rule).split(',')[0])).toEqual([
					'GB no hours in law',
					'US-CA 08:00-21:00',
					"no rule known (the user's window applies)",
					'GB no hours in law',
					'US-CA 08:00-21:00',
					'undefined',
				]);
				// the first two did not answer and were called again, once (Max Tries 2)
				expect(people.map((person) => person.tries)).toEqual([2, 2, 1, 1, 1, 0]);
				const calls = [...sim.org.calls.values()].filter((call) => call.phase !== 'canceled');
				expect(calls).toHaveLength(7);
				// the follow-up tasks: the person with the bad number (the other redial answered)
				const tasks = outputOf(run, 'Task to Follow Up');
				expect(tasks).toHaveLength(1);
				expect(String(tasks[0].brief)).toMatch(/^Follow up with Finn Kerr .*To Number: must be/);
				// Get Campaign, once for the campaign: what the items say, read from the call list
				expect(outputOf(run, 'Campaign Progress')).toEqual([
					expect.objectContaining({
						campaign: people[0].campaign,
						people: 5,
						invalid: 1,
						called: { answered: 5, voicemail: 0, no_answer: 0, busy: 0, failed: 0, ended: 0 },
						waiting_for_redial: 0,
						not_yet_called: 0,
						live_calls: 0,
						calls_made: 7,
					}),
				]);
				const rang = () => [...sim.org.calls.values()].filter((call) => call.phase !== 'canceled');
				// run again: the same list is the same campaign, nobody is called twice, and every item
				// says it was answered by the earlier run, so no follow-up task is made twice
				const again = await time.runUntilSettled(
					runExample(workflow, credentialsOf(sim), { executionId: 'exec-2' }),
					drive,
				);
				const rerun = outputOf(again, 'Call Campaign');
				expect(rerun.map((person) => person.call_id)).toEqual(
					people.map((person) => person.call_id),
				);
				expect(rerun.map((person) => person.from_earlier_run)).toEqual(people.map(() => true));
				expect(outputOf(again, 'Task to Follow Up')).toEqual([]);
				expect(rang()).toHaveLength(7);
				// a copy of the workflow (another workflow ID) over the same people: nobody called again
				const copy = await time.runUntilSettled(
					runExample({ ...workflow, id: 'wf-copy' }, credentialsOf(sim), {
						executionId: 'exec-3',
					}),
					drive,
				);
				expect(outputOf(copy, 'Call Campaign').map((person) => person.skipped_for)).toEqual([
					'called_by_another_campaign',
					'called_by_another_campaign',
					'called_by_another_campaign',
					'called_by_another_campaign',
					'called_by_another_campaign',
					null,
				]);
				expect(String(outputOf(copy, 'Call Campaign')[0].reason)).toMatch(
					/^Already called by a campaign of another workflow \(wf-test\) at .* \(execution exec-1\)/,
				);
				expect(outputOf(copy, 'Task to Follow Up')).toHaveLength(1);
				expect(rang()).toHaveLength(7);
			});
		} finally {
			time.uninstall();
		}
	},

	'find-calls-of-failed-execution.json': async (workflow) => {
		await withSimulator(async (sim) => {
			const credentials = credentialsOf(sim);
			// two executions place calls; the first then fails
			const placeFor = (executionId: string, people: string[]) =>
				runNode({
					credentials,
					executionId,
					items: people.map((to) => ({ to })),
					parameters: {
						resource: 'call',
						operation: 'placePhoneCall',
						agentId: MAIN_ORG_IDS.agents.appointmentReminder,
						fromNumber: '+14155550100',
						toNumber: '={{ $json.to }}',
						fullName: 'Jane Doe',
						additionalFields: {},
					},
				});
			const failed = await placeFor('1042', ['+14155550111', '+14155550112', '+14155550113']);
			await placeFor('1043', ['+14155550114']);
			// what n8n hands an Error Workflow (its execution ID is a number in the JSON)
			const run = await runExampleFromErrorTrigger(workflow, credentials, {
				execution: {
					id: 1042,
					url: 'http://localhost:5678/workflow/wf-test/executions/1042',
					error: { message: 'This execution failed to be processed too many times' },
					mode: 'trigger',
				},
				workflow: { id: 'wf-test', name: 'Call the list' },
			});
			expect(runFailure(run)).toBeUndefined();
			const calls = outputOf(run, 'Calls of the Failed Execution');
			expect(calls.map((call) => call.call_id).sort()).toEqual(
				failed.items.map((item) => item.json.call_id).sort(),
			);
			expect(calls.map((call) => (call.metadata as IDataObject).n8n_item).sort()).toEqual([
				'0',
				'1',
				'2',
			]);
		});
	},

	'follow-up-finished-calls.json': async (workflow) => {
		await withSimulator(async (sim) => {
			const credentials = credentialsOf(sim);
			const trigger = activateTrigger(workflow, credentials, () => sim.clock.now());
			expect(await trigger.poll()).toBeNull(); // the activation's baseline

			const toContact = await placeCall(sim, '/v1/calls/single-contact-call', {
				agent_id: MAIN_ORG_IDS.agents.salesFollowUp,
				contact_id: MAIN_ORG_IDS.contacts.mariaGarcia,
				from_number_id: MAIN_ORG_IDS.phoneNumbers.madridOffice,
			});
			const toNumber = await placeCall(sim, '/v1/calls/single-phone-call', {
				agent_id: MAIN_ORG_IDS.agents.appointmentReminder,
				from_number: '+14155550100',
				to_number: '+14155559876',
				full_name: 'Walk-in Caller',
			});
			for (const id of [toContact, toNumber]) await driveCallToEnd(sim, id);

			const emitted = await trigger.poll();
			expect(emitted?.[0].map((item) => item.json.id).sort()).toEqual([toContact, toNumber].sort());
			const run = await runExampleAfterPoll(workflow, credentials, emitted!);
			expect(runFailure(run)).toBeUndefined();

			const [comment] = outputOf(run, 'Comment on Contact');
			const stored = sim.org.comments.get(String(comment.id));
			expect(stored).toMatchObject({ contact_id: MAIN_ORG_IDS.contacts.mariaGarcia });
			expect(stored?.content).toMatch(
				/^AI call completed \(answered, \d+ s\)\. Summary: .*María García.* Sentiment: positive\.$/,
			);

			const [task] = outputOf(run, 'Task to Add the Contact');
			expect(sim.org.tasks.get(String(task.id))).toMatchObject({
				brief: 'Add Walk-in Caller (+14155559876) as a contact: an AI call to them ended completed',
				type: 'automatization',
				additional_data: { call_id: toNumber, phone_number: '+14155559876' },
			});
			expect(sim.org.comments.size + sim.org.tasks.size).toBe(2);

			expect(await trigger.poll()).toBeNull(); // each call once
		});
	},
};

/** The path the example's Read/Write Files from Disk node reads. */
function fileSelectorOf(workflow: WorkflowJson): unknown {
	return workflow.nodes.find((node) => node.type === 'n8n-nodes-base.readWriteFile')?.parameters
		.fileSelector;
}

async function withSimulator(work: (sim: Simulator) => Promise<void>): Promise<void> {
	const sim = await startSimulator();
	try {
		await work(sim);
	} finally {
		await sim.stop();
	}
}

/** A call placed through the API itself, as a user's other tools would. */
async function placeCall(sim: Simulator, path: string, body: IDataObject): Promise<string> {
	const response = await fetch(`${sim.baseUrl}${path}`, {
		method: 'POST',
		headers: { 'content-type': 'application/json', 'x-api-key': sim.apiKey },
		body: JSON.stringify(body),
	});
	const answer = (await response.json()) as { data: { call_id: string } };
	expect(response.status).toBe(201);
	return answer.data.call_id;
}

describe('examples/', () => {
	const files = exampleFiles();

	it('holds the example workflows, each with its scenario here', () => {
		expect(files.length).toBeGreaterThanOrEqual(4);
		expect(files.filter((file) => !SCENARIOS[file])).toEqual([]);
	});

	it("reads files as n8n 2.x does by default: inside .n8n-files of n8n's folder, nowhere else", async () => {
		const workflow = loadExample('send-crm-export-file-as-events.json');
		const reading = (fileSelector: string): WorkflowJson => ({
			...workflow,
			nodes: workflow.nodes.map((node) =>
				node.type === 'n8n-nodes-base.readWriteFile'
					? { ...node, parameters: { ...node.parameters, fileSelector } }
					: node,
			),
		});
		await withSimulator(async (sim) => {
			// the Docker path the example used to name, and the sample in the repository
			for (const [fileSelector, error] of [
				['/home/node/.n8n-files/crm-export.csv', 'No file(s) found'],
				[path.join(EXAMPLES_DIR, 'crm-export.csv'), 'Access to the file is not allowed.'],
			]) {
				const run = await runExample(reading(fileSelector), credentialsOf(sim));
				expect(runFailure(run)).toContain(error);
			}
			expect(sim.requests).toHaveLength(0);
		});
	});

	describe.each(files)('%s', (file) => {
		const workflow = loadExample(file);

		it('imports as users get the nodes: real node types, the credential referenced by name', () => {
			for (const node of workflow.nodes) {
				if (node.type.startsWith(`${PACKAGE}.`)) {
					expect([ACTION_NODE, TRIGGER_NODE]).toContain(node.type);
					expect(node.credentials).toEqual({ voiceAgentCrmApi: CREDENTIAL_REFERENCE });
				} else {
					expect(node.type).toMatch(/^n8n-nodes-base\.\w+$/);
				}
			}
			// started by our trigger, by hand, or as an Error Workflow
			expect(
				triggerOf(workflow) ??
					workflow.nodes.find((node) =>
						['n8n-nodes-base.manualTrigger', 'n8n-nodes-base.errorTrigger'].includes(node.type),
					),
			).toBeDefined();
		});

		it('runs through the engine against the simulator and does what it says', async () => {
			await SCENARIOS[file]!(workflow);
		});
	});
});
