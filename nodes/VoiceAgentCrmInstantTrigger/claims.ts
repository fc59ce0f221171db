import type { IWebhookFunctions } from 'n8n-workflow';

/**
 * Which emissions happened: a claim per call and event (`callFinished:<call ID>` → when).
 *
 * n8n loads a webhook workflow's static data from the database for each delivery and saves it
 * whole after the node answered (live-webhooks.ts in n8n 2.38.7), in one process and in each
 * webhook process of queue mode alike. Claims kept there are seen by every process, but two
 * deliveries handled at the same moment each save their own copy and the last save wins: a claim
 * can be overwritten. So each process also keeps the claims it made (`inProcess`), and writes
 * back any the static data lost at its next delivery. Within one process, the check and the set
 * have no `await` between them: of two deliveries at once, exactly one claims.
 */
export type CallEvent = 'callStarted' | 'callFinished';

/** Claims kept per workflow node: the newest 2,000 (about 60 bytes each in the static data). */
export const MAX_CLAIMS = 2_000;

const inProcessClaims = new Map<string, Map<string, number>>();

export function emissionKey(callId: string, event: CallEvent): string {
	return `${event}:${callId}`;
}

export interface Claims {
	has(callId: string, event: CallEvent): boolean;
	/** Claim an emission; false when it is claimed already. */
	claim(callId: string, event: CallEvent, now: number): boolean;
}

/** The claims of this node: those of the static data and those this process made, merged. */
export function claimsOf(context: IWebhookFunctions): Claims {
	const scope = `${context.getWorkflow().id ?? ''}:${context.getNode().id}:${context.getMode()}`;
	let mine = inProcessClaims.get(scope);
	if (!mine) inProcessClaims.set(scope, (mine = new Map()));
	const staticData = context.getWorkflowStaticData('node');
	const saved = (staticData.emitted ??= {}) as Record<string, number>;
	for (const [key, at] of mine) if (!(key in saved)) saved[key] = at;
	const inProcess = mine;
	return {
		has: (callId, event) => {
			const key = emissionKey(callId, event);
			return inProcess.has(key) || key in saved;
		},
		claim(callId, event, now) {
			const key = emissionKey(callId, event);
			if (inProcess.has(key) || key in saved) return false;
			inProcess.set(key, now);
			saved[key] = now;
			bound(inProcess, saved);
			return true;
		},
	};
}

/** Forget the oldest claims past MAX_CLAIMS: the recovery looks back over fewer calls than that. */
function bound(inProcess: Map<string, number>, saved: Record<string, number>): void {
	const keys = Object.keys(saved);
	for (const key of keys.slice(0, Math.max(0, keys.length - MAX_CLAIMS))) delete saved[key];
	while (inProcess.size > MAX_CLAIMS) inProcess.delete(inProcess.keys().next().value as string);
}
