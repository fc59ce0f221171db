/**
 * A runaway loop in a real n8n: Manual Trigger → Place AI Call → No Operation → back into Place AI
 * Call (a Switch falling through to its default branch does the same), with Max Calls per Person
 * at 3 in 24 hours. n8n runs the loop until the node refuses: the execution must end with the
 * node's error naming the number, and the simulator's call log must hold no call beyond the cap.
 */
import { writeFileSync } from 'node:fs';
import path from 'node:path';

import { driveCallToEnd, type Simulator } from '../../simulator/index.cts';
import { check, type N8nInstance, parseExecuteOutput, redact, tail } from './lib.cts';
import { ACTION_NODE_TYPE, CREDENTIAL_ID, CREDENTIAL_NAME } from './shared.cts';

const NUMBER = '+14155550177';
const CAP = 3;
const WORKFLOW_ID = 'RunawayLoopToCap';

function loopWorkflow(sim: Simulator): Record<string, unknown> {
	const agent = [...sim.org.agents.values()][0];
	return {
		id: WORKFLOW_ID,
		name: 'test:n8n runaway loop into Place AI Call',
		nodes: [
			{
				parameters: {},
				id: 'a1000000-0000-4000-8000-000000000001',
				name: 'Start',
				type: 'n8n-nodes-base.manualTrigger',
				typeVersion: 1,
				position: [0, 0],
			},
			{
				parameters: {
					resource: 'call',
					operation: 'placePhoneCall',
					agentId: { __rl: true, mode: 'id', value: agent.id },
					fromNumber: { __rl: true, mode: 'number', value: '+14155550100' },
					toNumber: NUMBER,
					fullName: 'Loop Person',
					additionalFields: {
						maxCallsPerPerson: { cap: { calls: CAP, hours: 24 } },
						doNotCall: { lists: { organizationList: false } },
					},
				},
				id: 'a1000000-0000-4000-8000-000000000002',
				name: 'Place AI Call',
				type: ACTION_NODE_TYPE,
				typeVersion: 1,
				position: [220, 0],
				credentials: { voiceAgentCrmApi: { id: CREDENTIAL_ID, name: CREDENTIAL_NAME } },
			},
			{
				parameters: {},
				id: 'a1000000-0000-4000-8000-000000000003',
				name: 'Default Branch',
				type: 'n8n-nodes-base.noOp',
				typeVersion: 1,
				position: [440, 0],
			},
		],
		connections: {
			Start: { main: [[{ node: 'Place AI Call', type: 'main', index: 0 }]] },
			'Place AI Call': { main: [[{ node: 'Default Branch', type: 'main', index: 0 }]] },
			'Default Branch': { main: [[{ node: 'Place AI Call', type: 'main', index: 0 }]] },
		},
		settings: { executionOrder: 'v1' },
	};
}

export async function runLoopAtTheCap(
	n8n: N8nInstance,
	sim: Simulator,
	workDir: string,
): Promise<void> {
	const file = path.join(workDir, 'runaway-loop.json');
	writeFileSync(file, JSON.stringify(loopWorkflow(sim), null, 2));
	await n8n.cliOk(['import:workflow', `--input=${file}`]);
	const result = await n8n.cli(['execute', `--id=${WORKFLOW_ID}`, '--rawOutput'], {
		timeoutMs: 300_000,
	});
	const output = `${result.stdout}\n${result.stderr}`;
	check(!output.includes(sim.apiKey), 'runaway loop: the API key appears nowhere in the output');
	const calls = [...sim.org.calls.values()].filter((call) => call.to === NUMBER);
	check(
		calls.length === CAP,
		`runaway loop: the simulator's call log holds ${calls.length} calls to ${NUMBER}, the cap (${CAP}), none beyond`,
		() => redact(tail(output, 40)),
	);
	// ended before the trigger's baseline, which counts every call that finishes after it
	for (const call of calls) await driveCallToEnd(sim, call);
	const run = parseExecuteOutput(result.stdout) as
		| { data?: { resultData?: { error?: { message?: string } } } }
		| undefined;
	const message = run?.data?.resultData?.error?.message ?? output;
	check(
		new RegExp(
			`${NUMBER.replace('+', '\\+')} was already called ${CAP} times in the last 24 hours \\(Max Calls per Person: ${CAP}\\)`,
		).test(message),
		'runaway loop: the execution ended with the error naming the number and the cap',
		() => redact(tail(output, 40)),
	);
}
