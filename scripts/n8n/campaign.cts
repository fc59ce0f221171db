/**
 * Call → Run Campaign in a real n8n: the workflow every campaign part imports (a Webhook node whose
 * body lists the people, one item per person, Run Campaign), and what the simulator's call log says
 * of a campaign. Shared by the restart part of `npm run test:n8n` (campaignRestart.cts), the
 * concurrency part of `npm run test:n8n:queue` (queueCampaign.cts) and `npm run bench:n8n:campaign`.
 */
import type { Simulator } from '../../simulator/index.cts';
import { ACTION_NODE_TYPE } from './shared.cts';

export const CAMPAIGN_NODE = 'Run Campaign';

/** Short calls: queued, ringing and hung up in a few seconds; the talk time comes from the share plan. */
export const SHORT_CALL = {
	queueMs: 500,
	ringMs: 1_000,
	finishedDelayMs: 500,
	reasonDelayMs: 500,
	analysisDelayMs: 1_500,
};

export interface CampaignSettings {
	id: string;
	name: string;
	/** The Webhook node's path: POST `{people: [{to, name}]}` starts a campaign. */
	path: string;
	/** A UUID prefix without its last two digits: the node IDs and the webhook ID. */
	idPrefix: string;
	credential: { id: string; name: string };
	agentId: string;
	fromNumber: string;
	freeWorker: boolean;
	maxLive: number;
	redialOn: string[];
	redialAfterMinutes: number;
	maxTries: number;
}

/** Webhook → one item per person (Split Out) → Run Campaign, every day at any hour, people in UTC. */
export function campaignWorkflow(settings: CampaignSettings): Record<string, unknown> {
	const { idPrefix } = settings;
	const nodes = [
		{
			parameters: {
				httpMethod: 'POST',
				path: settings.path,
				responseMode: 'onReceived',
				options: {},
			},
			id: `${idPrefix}01`,
			name: 'Webhook',
			type: 'n8n-nodes-base.webhook',
			typeVersion: 2,
			position: [0, 0],
			webhookId: `${idPrefix}ff`,
		},
		{
			parameters: { fieldToSplitOut: 'body.people', options: {} },
			id: `${idPrefix}02`,
			name: 'One Item per Person',
			type: 'n8n-nodes-base.splitOut',
			typeVersion: 1,
			position: [220, 0],
		},
		{
			parameters: {
				resource: 'call',
				operation: 'runCampaign',
				agentId: { __rl: true, mode: 'id', value: settings.agentId },
				fromNumber: { __rl: true, mode: 'id', value: settings.fromNumber },
				toNumber: '={{ $json.to }}',
				fullName: '={{ $json.name }}',
				maxLiveCalls: settings.maxLive,
				callDays: [1, 2, 3, 4, 5, 6, 7],
				callFrom: '00:00',
				callUntil: '24:00',
				personTimeZone: 'UTC',
				redialOn: settings.redialOn,
				redialAfterMinutes: settings.redialAfterMinutes,
				maxTries: settings.maxTries,
				campaignOptions: settings.freeWorker ? { resumeByWebhook: true } : {},
			},
			id: `${idPrefix}03`,
			name: CAMPAIGN_NODE,
			type: ACTION_NODE_TYPE,
			typeVersion: 1,
			position: [440, 0],
			credentials: { voiceAgentCrmApi: settings.credential },
		},
	];
	const connections: Record<string, unknown> = {};
	for (let i = 1; i < nodes.length; i++)
		connections[nodes[i - 1].name] = { main: [[{ node: nodes[i].name, type: 'main', index: 0 }]] };
	return {
		id: settings.id,
		name: settings.name,
		nodes,
		connections,
		settings: { executionOrder: 'v1' },
	};
}

/** `count` people of a campaign: numbers in the UK's drama range, from `first` on. */
export function campaignPeople(first: number, count: number): Array<{ to: string; name: string }> {
	return Array.from({ length: count }, (_, i) => ({
		to: `+4420794${String(first + i).padStart(5, '0')}`,
		name: `Campaign Person ${first + i}`,
	}));
}

/** The simulator's calls to a number, canceled ones (which never rang) left out. */
export function dialledCalls(sim: Simulator, number: string) {
	return [...sim.org.calls.values()].filter(
		(call) => call.contact.phone_number === number && call.phase !== 'canceled',
	);
}

/** The simulator's canceled calls to the numbers: claims lost to a concurrent run, canceled before they rang. */
export function canceledCalls(sim: Simulator, numbers: string[]) {
	return [...sim.org.calls.values()].filter(
		(call) => numbers.includes(call.contact.phone_number) && call.phase === 'canceled',
	);
}
