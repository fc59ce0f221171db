import type { IWebhookFunctions } from 'n8n-workflow';

/**
 * Which emissions happened: a claim per call and event (`callFinished:<call ID>` → when).
 *
 * n8n loads a webhook workflow's static data from the database for each delivery and saves it
 * whole once the node has answered, if it changed (live-webhooks.ts in n8n 2.38.7), in one process
 * and in each webhook process of queue mode alike. A delivery that starts a run must answer it
 * itself for that save to happen (VoiceAgentCrmInstantTrigger.node.ts says why). Claims kept there
 * are seen by every process, but two deliveries handled at the same moment each save their own
 * copy and the last save wins: a claim can be overwritten. So each process remembers every claim
 * it made or saw in the static data (`known`), and writes back any the static data lost at its
 * next delivery: a claim is lost only if no process that knew it handles another delivery. A
 * delivery that changes the static data (a claim, a sweep) writes back, once its requests are
 * done, every claim its process learned meanwhile (from its other deliveries' loads): its save,
 * later than theirs, carries them all.
 * Within one process, the check and the set have no `await` between them: of two deliveries at
 * once, exactly one claims.
 */
export type CallEvent = 'callStarted' | 'callFinished';

/** Claims kept per workflow node: the newest 2,000 (about 60 bytes each in the static data). */
export const MAX_CLAIMS = 2_000;

const knownClaims = new Map<string, Map<string, number>>();

export function emissionKey(callId: string, event: CallEvent): string {
	return `${event}:${callId}`;
}

export interface Claims {
	has(callId: string, event: CallEvent): boolean;
	/** Claim an emission by its key (emissionKey); false when it is claimed already. */
	claim(key: string, now: number): boolean;
	/** For a delivery that changed the static data: its save carries every claim this process knows now. */
	writeBack(): void;
}

/** The claims of this node: those of the static data and those this process knows, merged. */
export function claimsOf(context: IWebhookFunctions): Claims {
	const scope = `${context.getWorkflow().id ?? ''}:${context.getNode().id}:${context.getMode()}`;
	let known = knownClaims.get(scope);
	if (!known) knownClaims.set(scope, (known = new Map()));
	const staticData = context.getWorkflowStaticData('node');
	const saved = (staticData.emitted ??= {}) as Record<string, number>;
	merge(known, saved);
	const mine = known;
	return {
		has: (callId, event) => mine.has(emissionKey(callId, event)),
		claim(key, now) {
			if (mine.has(key)) return false;
			mine.set(key, now);
			merge(mine, saved);
			return true;
		},
		writeBack: () => merge(mine, saved),
	};
}

/**
 * Both sides get every claim either has. Only a missing claim is written into the static data: a
 * delivery that changes nothing leaves the static data unchanged, and n8n does not save it (so it
 * cannot overwrite another process's save).
 */
function merge(known: Map<string, number>, saved: Record<string, number>): void {
	for (const [key, at] of Object.entries(saved)) if (!known.has(key)) known.set(key, at);
	for (const [key, at] of known) if (!(key in saved)) saved[key] = at;
	bound(known, saved);
}

/** Forget the oldest claims past MAX_CLAIMS: the recovery looks back over fewer calls than that. */
function bound(known: Map<string, number>, saved: Record<string, number>): void {
	if (known.size <= MAX_CLAIMS && Object.keys(saved).length <= MAX_CLAIMS) return;
	const newest = [...known].sort((a, b) => b[1] - a[1]).slice(0, MAX_CLAIMS);
	const kept = new Set(newest.map(([key]) => key));
	for (const key of [...known.keys()]) if (!kept.has(key)) known.delete(key);
	for (const key of Object.keys(saved)) if (!kept.has(key)) delete saved[key];
}
