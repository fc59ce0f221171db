import type { IDataObject, IExecuteFunctions } from 'n8n-workflow';
import { z } from 'zod';

import { E164, numberWithin, UUID, validateItem } from '../../../shared/validation';
import { PLACEMENT_LABELS, PLACEMENT_OPTIONS, placementBody, placementInput } from '../fields';
import type { CallResult } from './calls';
import type { CampaignRun } from './engine';
import { DEFAULT_REMEMBER_DAYS } from './fields';
import { campaignKeyOf, readPeople } from './people';

const RUN_SETTINGS = PLACEMENT_OPTIONS.pick({ additionalData: true, metadata: true })
	.extend({
		agentId: UUID,
		fromNumber: E164,
		maxLive: numberWithin(1, 100, 'must be a whole number from 1 to 100').pipe(z.number().int()),
		redialAfterMinutes: numberWithin(1, undefined, 'must be a number of minutes, 1 or more'),
		maxTries: numberWithin(1, 10, 'must be a whole number from 1 to 10').pipe(z.number().int()),
		rememberDays: numberWithin(1, 30, 'must be a number of days from 1 to 30'),
	})
	.superRefine((settings, issues) => {
		// a redial later than the campaign's memory would be placed by a run that no longer sees the call before it
		const rememberedMinutes = settings.rememberDays * 1_440;
		if (settings.redialAfterMinutes > rememberedMinutes)
			issues.addIssue({
				code: z.ZodIssueCode.custom,
				path: ['redialAfterMinutes'],
				message: `must be within Options → Remember Calls For (Days): at most ${rememberedMinutes} minutes (${settings.rememberDays} days)`,
			});
	});

const LABELS = {
	...PLACEMENT_LABELS,
	agentId: 'Agent',
	fromNumber: 'From Number',
	maxLive: 'Max Live Calls',
	redialAfterMinutes: 'Redial After (Minutes)',
	maxTries: 'Max Tries',
	rememberDays: 'Options → Remember Calls For (Days)',
};

/** The node's settings of the run (one campaign per run: read from the first item). */
function settingsOf(context: IExecuteFunctions) {
	const options = context.getNodeParameter('campaignOptions', 0, {}) as IDataObject;
	return validateItem(
		context,
		RUN_SETTINGS,
		{
			agentId: context.getNodeParameter('agentId', 0, '', { extractValue: true }),
			fromNumber: context.getNodeParameter('fromNumber', 0, '', { extractValue: true }),
			maxLive: context.getNodeParameter('maxLiveCalls', 0, 5),
			redialAfterMinutes: context.getNodeParameter('redialAfterMinutes', 0, 60),
			maxTries: context.getNodeParameter('maxTries', 0, 3),
			rememberDays: options.rememberDays ?? DEFAULT_REMEMBER_DAYS,
			...placementInput(options, context.getTimezone()),
		},
		0,
		LABELS,
	);
}

/** A run checked and started: its settings and people read, before any request. */
export function startRun(
	context: IExecuteFunctions,
	itemCount: number,
	webhookUrl: string | undefined,
): CampaignRun {
	const settings = settingsOf(context);
	const { people, problems } = readPeople(context, itemCount);
	const workflowId = String(context.getWorkflow().id ?? '');
	const node = context.getNode().name;
	const run: CampaignRun = {
		campaign: campaignKeyOf(workflowId, node, people),
		workflowId,
		node,
		executionId: String(context.getExecutionId() ?? ''),
		runIndex: Number(context.evaluateExpression('{{ $runIndex }}', 0)) || 0,
		agentId: settings.agentId,
		fromNumber: settings.fromNumber,
		extras: placementBody(settings),
		webhookUrl,
		rememberCallsOf:
			context.getNodeParameter('campaignOptions.rememberCallsOf', 0, 'organization') === 'workflow'
				? 'workflow'
				: 'organization',
		people,
		problems,
		rules: {
			maxLive: settings.maxLive,
			redialOn: context.getNodeParameter('redialOn', 0, []) as CallResult[],
			redialAfterMs: settings.redialAfterMinutes * 60_000,
			maxTries: settings.maxTries,
		},
		startedAt: Date.now(),
		// the first look reads back over the whole remembered period
		recentSince: Date.now() - settings.rememberDays * 86_400_000,
		earlier: [],
	};
	return run;
}
