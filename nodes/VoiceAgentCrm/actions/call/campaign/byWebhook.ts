import type {
	IDataObject,
	IExecuteFunctions,
	INodeExecutionData,
	IWebhookFunctions,
	IWebhookResponseData,
} from 'n8n-workflow';

import type { CampaignRun, Step } from './engine';
import { stepUnlessHalted } from './halt';
import { campaignItems } from './outcome';

/**
 * A campaign that frees its worker: between steps the execution waits as n8n's Wait node does,
 * and every campaign call's own webhook URL is the execution's resume URL. Each call's end event
 * runs one step (campaign/engine.ts) in n8n's webhook handler; the step that finds the campaign
 * finished resumes the execution with the people's items. A step reads the whole campaign from
 * the service, so an event lost (n8n restarting) is made up by the next one. Only this
 * execution's calls send it events: it starts waiting once none of the calls it follows is
 * another's left from before it (`mayWaitForEvents`), and ends early once only others' are live.
 *
 * The run is kept where n8n keeps a waiting node's input, as Place AI Call's wait does
 * (placement/waitByWebhook.ts): on the first item, under `campaign_run`. These items are also
 * what the execution goes on with if the wait ever runs out (Remember Calls For): each says the
 * campaign did not finish and how to go on.
 */

const RUN_KEY = 'campaign_run';

/** The events after which a step may have something to do: a call is over. */
const STEP_EVENTS = new Set(['call_ended', 'call_stopped']);

/**
 * The step of each campaign under way in this process. Two calls that end together send their
 * events together; steps taken at once would both see the same free lanes and place the same
 * people, and the later placements would only be canceled before they ring. One at a time, the
 * second step sees the first one's calls. (Across webhook processes the claims still settle it.)
 */
const stepUnderWay = new Map<string, Promise<unknown>>();

function stepInTurn(campaign: string, takeStep: () => Promise<Step>): Promise<Step> {
	const before = stepUnderWay.get(campaign) ?? Promise.resolve();
	const step = before.then(takeStep);
	const done = step.catch(() => undefined);
	stepUnderWay.set(campaign, done);
	void done.then(() => stepUnderWay.get(campaign) === done && stepUnderWay.delete(campaign));
	return step;
}

/** Longer than n8n takes to save the execution as waiting once the node asks to wait. */
const WAIT_SAVED_WITHIN_MS = 5_000;

/**
 * Whether the run may wait for its calls' events instead of looking itself: none of the calls it
 * follows sends them elsewhere (a call made before the run started, by an earlier execution of
 * the campaign, crashed or superseded, sends them to that execution's resume URL), and one of
 * its own calls will end after the wait has begun (a call still scheduled that far ahead), so
 * that an event comes. Until then the run holds its worker and looks, within its calls' time.
 */
export function mayWaitForEvents(run: CampaignRun, step: Step): boolean {
	const live = step.plan.followed.filter((call) => call.stage === 'live');
	if (live.some((call) => call.createdAt < run.startedAt)) return false;
	const waitSavedBy = Date.now() + WAIT_SAVED_WITHIN_MS;
	return live.some((call) => call.scheduled && call.callAt >= waitSavedBy);
}

export async function waitForCampaign(
	context: IExecuteFunctions,
	run: CampaignRun,
	step: Step,
	days: number,
): Promise<INodeExecutionData[]> {
	const unfinished = campaignItems(run, step).map((item) => ({
		...item,
		json: <IDataObject>{
			...item.json,
			reason:
				item.json.campaign_status === 'unfinished'
					? `The campaign did not finish within Remember Calls For (${days} days). Run the same list again to go on with it: no one is called twice.`
					: item.json.reason,
		},
	}));
	unfinished[0].json[RUN_KEY] = run as unknown as IDataObject;
	context.getExecuteData().data = { main: [unfinished] };
	await context.putExecutionToWait(new Date(Date.now() + days * 86_400_000));
	return campaignItems(run, step);
}

/**
 * The executions whose calls are the campaign's live ones, when none is this execution's: no event
 * will reach it any more (a later run of the campaign took over), so it ends with its items.
 */
function othersFollowing(run: CampaignRun, step: Step): string[] | undefined {
	const live = step.plan.followed.filter((call) => call.stage === 'live');
	if (live.some((call) => call.executionId === run.executionId)) return undefined;
	return [...new Set(live.map((call) => call.executionId))];
}

/**
 * A call event of a waiting campaign: one step, and the execution resumed once the campaign is
 * finished, or once only other executions' calls are live (superseded: `othersFollowing`).
 */
export async function campaignWebhook(this: IWebhookFunctions): Promise<IWebhookResponseData> {
	const items = this.evaluateExpression('{{ $input.all() }}', 0) as INodeExecutionData[];
	const run = items?.[0]?.json?.[RUN_KEY] as CampaignRun | undefined;
	const { event } = this.getBodyData() as IDataObject;
	if (!run || !STEP_EVENTS.has(String(event)))
		return { webhookResponse: { received: true, resumed: false } };
	let step: Step;
	try {
		step = await stepInTurn(run.campaign, () => stepUnlessHalted(this, run));
	} catch {
		// a failed look leaves the campaign waiting: the next call event takes the step again
		return { webhookResponse: { received: true, resumed: false } };
	}
	if (!step.plan.finished) {
		const followers = othersFollowing(run, step);
		if (!followers) return { webhookResponse: { received: true, resumed: false } };
		step.followedBy = followers;
	}
	return {
		webhookResponse: { received: true, resumed: true },
		workflowData: [campaignItems(run, step)],
	};
}
