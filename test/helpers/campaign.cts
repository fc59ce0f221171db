import type { INodeParameters } from 'n8n-workflow';

import type { Simulator } from '../../simulator/index.cts';
import { firstAgent, listed } from './placement.cts';

/** Every day of the week, as Call On takes it (1 is Monday). */
export const EVERY_DAY = [1, 2, 3, 4, 5, 6, 7];

/**
 * Run Campaign by the organization's first agent from its US main line, each person from the item's
 * `to`, `name` and `zone` (empty: read from the number): Monday to Friday 09:00 to 17:00, 5 calls
 * live, no answer and busy redialled an hour later up to 3 tries; `extra` sets the rest.
 */
export const campaignParameters = (
	sim: Simulator,
	extra: INodeParameters = {},
): INodeParameters => ({
	resource: 'call',
	operation: 'runCampaign',
	agentId: listed(firstAgent(sim).id),
	fromNumber: listed('+14155550100'),
	toNumber: '={{ $json.to }}',
	fullName: '={{ $json.name }}',
	personTimeZone: '={{ $json.zone ?? "" }}',
	maxLiveCalls: 5,
	callDays: [1, 2, 3, 4, 5],
	callFrom: '09:00',
	callUntil: '17:00',
	redialOn: ['no_answer', 'busy'],
	redialAfterMinutes: 60,
	maxTries: 3,
	...extra,
});
