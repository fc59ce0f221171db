import type {
	IDataObject,
	IExecuteFunctions,
	INodeExecutionData,
	IWebhookDescription,
	IWebhookFunctions,
	IWebhookResponseData,
} from 'n8n-workflow';
import { NodeOperationError } from 'n8n-workflow';

import { originOf } from './earlierCalls';
import type { WaitUntil } from './waitFields';
import { minutesText, readRecord, readStatus, recordIsReady, type AwaitedCall } from './wait';

/**
 * "Free the Worker While Waiting": the execution waits as n8n's Wait node and send-and-wait nodes
 * do (`putExecutionToWait`), with every call's own webhook URL set to the execution's resume URL.
 * n8n then runs the node's `webhook()` for each call event; it resumes the execution only when the
 * status endpoint shows every awaited call finished (and its record ready), never on the event's
 * word alone, since nothing signs the event.
 *
 * What the webhook knows: n8n keeps the waiting node's input (its execution stack entry) with the
 * execution and hands it to `webhook()` as its input, while the node's own output is dropped
 * before the resume. So before waiting the node replaces that input with one item per input item:
 * an awaited call's item carries its ID and wait settings; an item that failed under Continue On
 * Fail keeps its error. These items are also what the execution resumes with when the maximum
 * wait runs out (n8n then passes the waiting node's input through), so each is worded as that
 * timeout answer.
 */

/**
 * The node's one webhook: a restart webhook at the execution's resume URL (no path suffix), as
 * n8n's Wait node declares. n8n never registers restart webhooks when a workflow is activated, so
 * the node has no `webhookMethods` lifecycle (`checkExists`, `create`, `delete`): there is nothing
 * to register with the service, since each placement names the URL itself. The community lint's
 * `webhook-lifecycle-complete` rule, written for webhook triggers, looks for a literal `webhooks`
 * array in a node's description; this list is declared here, with the reason, instead.
 */
export const RESUME_WEBHOOKS: IWebhookDescription[] = [
	{
		name: 'default',
		httpMethod: 'POST',
		responseMode: 'onReceived',
		path: '',
		restartWebhook: true,
	},
];

/** The key of an awaited call's item: its wait settings, which `webhook()` reads back. */
const WAIT_KEY = 'wait';

interface WaitNote {
	until: WaitUntil;
	record_query: Record<string, string | boolean>;
	include_transcript: boolean;
	deadline: string;
}

export function resumeUrlOf(context: IExecuteFunctions, itemIndex: number): string {
	const url = context.evaluateExpression('{{ $execution.resumeUrl }}', itemIndex);
	if (typeof url !== 'string' || !/^https?:\/\//.test(url)) {
		throw new NodeOperationError(
			context.getNode(),
			"n8n gave no resume URL for this execution, so the calls' webhooks could not resume it",
			{
				itemIndex,
				description:
					'Turn off Wait Options → Free the Worker While Waiting to wait by polling instead.',
			},
		);
	}
	return url;
}

function noteOf(call: AwaitedCall, deadline: number): WaitNote {
	return {
		until: call.settings.until,
		record_query: call.settings.recordQuery,
		include_transcript: call.settings.includeTranscript,
		deadline: new Date(deadline).toISOString(),
	};
}

/**
 * Put the execution to wait until the calls are finished or the longest maximum wait has run
 * out. Answers what the node shows while the execution waits.
 */
export async function putExecutionToWaitForCalls(
	context: IExecuteFunctions,
	calls: AwaitedCall[],
	failed: Array<INodeExecutionData | undefined>,
): Promise<INodeExecutionData[]> {
	const deadline = Math.max(...calls.map((call) => call.deadline));
	const waitedFor = minutesText(deadline - Math.min(...calls.map((call) => call.placedAt)));
	const callItem = (
		call: AwaitedCall,
		status: 'waiting' | 'timed_out',
		message: string,
	): INodeExecutionData => ({
		json: {
			...call.placement,
			wait_status: status,
			message,
			[WAIT_KEY]: noteOf(call, deadline),
		} as IDataObject,
		pairedItem: { item: call.itemIndex },
	});
	const inOrder = (make: (call: AwaitedCall) => INodeExecutionData) => {
		const slots = [...failed];
		for (const call of calls) slots[call.itemIndex] = make(call);
		return slots.filter((slot): slot is INodeExecutionData => slot !== undefined);
	};
	const atTimeout = inOrder((call) =>
		callItem(
			call,
			'timed_out',
			`Stopped waiting for call ${call.callId} after ${waitedFor}: the service did not report it finished. It may still be live. Get its outcome with Call → Get Status or Call → Get and this call ID.`,
		),
	);
	// the waiting node's input is what n8n hands to webhook() and passes on at the timeout
	context.getExecuteData().data = { main: [atTimeout] };
	await context.putExecutionToWait(new Date(deadline));
	return inOrder((call) =>
		callItem(
			call,
			'waiting',
			`Waiting for call ${call.callId}; the execution resumes when it has finished, or at ${new Date(deadline).toISOString()}.`,
		),
	);
}

function waitNoteOf(item: INodeExecutionData): WaitNote | undefined {
	const note = item.json[WAIT_KEY] as WaitNote | undefined;
	return note && typeof note === 'object' && typeof item.json.call_id === 'string'
		? note
		: undefined;
}

/** The items the node left as its input before waiting (see above). */
function awaitedItems(context: IWebhookFunctions): INodeExecutionData[] {
	const items = context.evaluateExpression('{{ $input.all() }}', 0);
	return Array.isArray(items) ? (items as INodeExecutionData[]) : [];
}

/**
 * Whether the service surely sends another event for the call after `event`: a started call always
 * ends, with its own event. A `call_started` handled late (a busy webhook process) finds the call
 * already finished; resuming on it would leave the end event to reach an execution no longer
 * waiting, which n8n answers with 409 and an error line in its log. After `call_ended` an answered
 * call's `transcript_ready` may or may not still come (the reference does not order the finished
 * flag and the analysis), so the end event resumes when everything is ready; see the README,
 * "Late call events".
 */
function laterEventComes(event: unknown): boolean {
	return event === 'call_started';
}

/** The call's record when it is finished and ready, read from the service; undefined otherwise. */
async function readyRecord(
	context: IWebhookFunctions,
	item: INodeExecutionData,
): Promise<IDataObject | undefined> {
	const note = waitNoteOf(item)!;
	const callId = item.json.call_id as string;
	const { status } = await readStatus(context, callId);
	if (status.finished !== true) return undefined;
	const { record } = await readRecord(context, callId, { recordQuery: note.record_query });
	return recordIsReady(record, { until: note.until, includeTranscript: note.include_transcript })
		? record
		: undefined;
}

/**
 * A call event reached the resume URL. Resume with the full records once every awaited call is
 * finished and ready, never on an event another one surely follows; otherwise answer the service
 * and leave the execution waiting. The call the event names is checked first, so that an early
 * event costs one status read.
 */
export async function resumeWhenCallsFinished(
	this: IWebhookFunctions,
): Promise<IWebhookResponseData> {
	const items = awaitedItems(this);
	const { call_id: named, event } = this.getBodyData() as IDataObject;
	const awaited = items.filter((item) => waitNoteOf(item) !== undefined);
	const order = [
		...awaited.filter((item) => item.json.call_id === named),
		...awaited.filter((item) => item.json.call_id !== named),
	];
	if (!order.length || laterEventComes(event))
		return { webhookResponse: { received: true, resumed: false } };
	const records = new Map<INodeExecutionData, IDataObject>();
	try {
		for (const item of order) {
			const record = await readyRecord(this, item);
			if (!record) return { webhookResponse: { received: true, resumed: false } };
			records.set(item, record);
		}
	} catch {
		// a failed check leaves the execution waiting: a later event, or the maximum wait, resumes it
		return { webhookResponse: { received: true, resumed: false } };
	}
	return {
		webhookResponse: { received: true, resumed: true },
		workflowData: [
			items.map((item) =>
				records.has(item)
					? { json: { ...records.get(item)!, ...originOf(item.json) }, pairedItem: item.pairedItem }
					: item,
			),
		],
	};
}
