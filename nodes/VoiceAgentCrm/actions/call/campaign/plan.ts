import { byClaimOrder, type CallResult, type CampaignCall } from './calls';
import { openingFor, type CallingHours } from './opening';

/**
 * The campaign's next step, decided from the calls the service lists and nothing else, so that
 * any run, a Retry, a re-run of the same list, or another execution of the same campaign takes the
 * same decision (docs/decisions.md, "Campaigns"). Pure: the tests drive it on any clock.
 */

/** One person of the campaign, read and checked (campaign/people.ts), and when the person may be called. */
export interface Person extends CallingHours {
	itemIndex: number;
	/** The number called, E.164: who the person is for the campaign's memory. */
	key: string;
	fullName: string;
}

export interface CampaignRules {
	maxLive: number;
	redialOn: CallResult[];
	redialAfterMs: number;
	/** Calls to one person at most, the first one included. */
	maxTries: number;
	/** Max Calls per Person: at most `calls` to a person in any `periodMs`, every workflow's counted. */
	cap?: { calls: number; periodMs: number };
}

/** A call of the organization to a person, by any workflow: its ID and when it was created. */
export interface CallMadeAt {
	id: string;
	at: number;
}

/**
 * Which campaign a run is: the key of its list, and the node whose runs share one campaign of
 * people (docs/campaigns.md, "The campaign is the people").
 */
export interface CampaignIdentity {
	campaign: string;
	workflowId: string;
	node: string;
	/** When the run started: the node's calls to its people made before it are the run's to go on with. */
	startedAt: number;
}

export interface CampaignView extends CampaignIdentity {
	people: Person[];
	/** Every campaign call of the workflow to these people in the remembered period, any campaign. */
	calls: CampaignCall[];
	rules: CampaignRules;
	now: number;
	/** The least time from placing a call to its start, in which a lost claim is canceled. */
	leadMs: number;
	/** People whose placement the service refused in this step: not placed again in it. */
	refused: ReadonlySet<string>;
	/** With Max Calls per Person: each person's calls of the period read when the run started. */
	callsInPeriod?: Record<string, CallMadeAt[]>;
	/** People marked do not call since the run started: their scheduled calls are canceled. */
	suppressed?: ReadonlySet<string>;
}

export interface Placement {
	person: Person;
	attempt: number;
	lane: number;
	callAt: number;
}

export interface Plan {
	place: Placement[];
	/** This campaign's scheduled calls that lost a claim: canceled before they ring. */
	cancel: CampaignCall[];
	/** People another campaign (Remember Calls Of: any workflow, or this one) called first, with its first call. */
	heldElsewhere: Map<string, CampaignCall>;
	/** The calls the run goes on with, canceled ones included (`callsOfRun`). */
	followed: CampaignCall[];
	/** People whose calls are all of an earlier list of the node, none of this run's list, once placed. */
	fromEarlierLists: number;
	/** People due a call with no hour to start it in the next two weeks (window and rules never meet). */
	noHours: Set<string>;
	/** Nothing live and nothing left to place (refused people aside). */
	finished: boolean;
}

/** Group by a key, each group in claim order. */
function groupBy(calls: CampaignCall[], key: (call: CampaignCall) => string) {
	const groups = new Map<string, CampaignCall[]>();
	for (const call of [...calls].sort(byClaimOrder))
		groups.set(key(call), [...(groups.get(key(call)) ?? []), call]);
	return groups;
}

/**
 * Whether the run's settings forbid a scheduled call an earlier run placed: its lane is past Max
 * Live Calls, its person was marked do not call since, or its start is outside the person's
 * calling hours as this run reads them. Canceled
 * before it rings, the person is placed anew within the settings (the settings of the latest run
 * win over its leftovers).
 */
function forbiddenNow(view: CampaignView, people: Map<string, Person>, call: CampaignCall) {
	if (!call.scheduled) return false;
	const pastLanes = call.campaign === view.campaign && call.lane >= view.rules.maxLive;
	if (pastLanes || view.suppressed?.has(call.person)) return true;
	const person = people.get(call.person);
	return !!person && openingFor(person, call.callAt) !== call.callAt;
}

const ofSameNode = (run: CampaignIdentity, call: CampaignCall) =>
	call.workflowId === run.workflowId && call.node === run.node;

/**
 * Whose each person is, from their first call (claim order): the run's when that call is of its
 * own list, or of another list of the same node made before the run started (the same people run
 * again with rows added or gone go on with their calls); another campaign's otherwise (a
 * campaign of another node, or another list of this node running at the same time). The run
 * follows every call of the node to its people, and its own list's calls to anyone (those to
 * people held elsewhere are lost claims).
 */
export function callsOfRun(run: CampaignIdentity, calls: CampaignCall[]) {
	const heldElsewhere = new Map<string, CampaignCall>();
	const people = new Set<string>();
	for (const [person, [first]] of groupBy(
		calls.filter((call) => call.stage !== 'canceled'),
		(call) => call.person,
	))
		if (
			first.campaign === run.campaign ||
			(ofSameNode(run, first) && first.createdAt < run.startedAt)
		)
			people.add(person);
		else heldElsewhere.set(person, first);
	const followed = calls.filter(
		(call) => call.campaign === run.campaign || (people.has(call.person) && ofSameNode(run, call)),
	);
	return { heldElsewhere, followed };
}

/**
 * The claims (docs/decisions.md): a person belongs to the campaign whose first call to them came
 * first (`callsOfRun`); one call per person and attempt, and within the run's list one live call
 * per lane. The later of two claims loses; a loser still scheduled is canceled, one that rang
 * already stays a real call (the residual window stated in docs/campaigns.md).
 */
function settleClaims(view: CampaignView) {
	const { heldElsewhere, followed } = callsOfRun(view, view.calls);
	const calls = followed.filter((call) => call.stage !== 'canceled');
	const losers = new Set<CampaignCall>();
	for (const call of calls)
		if (heldElsewhere.has(call.person) && call.stage === 'live') losers.add(call);
	for (const group of groupBy(calls, (call) => `${call.person} ${call.attempt}`).values())
		group.slice(1).forEach((call) => losers.add(call));
	const live = calls.filter((call) => call.stage === 'live' && !losers.has(call));
	const inLanes = live.filter((call) => call.campaign === view.campaign);
	for (const group of groupBy(inLanes, (call) => String(call.lane)).values())
		group.slice(1).forEach((call) => losers.add(call));
	const people = new Map(view.people.map((person) => [person.key, person]));
	for (const call of live) if (forbiddenNow(view, people, call)) losers.add(call);
	const cancel = [...losers].filter((call) => call.scheduled);
	const kept = calls.filter((call) => !cancel.includes(call));
	return { heldElsewhere, followed, cancel, kept };
}

/** When the person's next call is due, or undefined when the person is done or has a live call. */
function nextAttempt(person: string, calls: CampaignCall[], view: CampaignView) {
	if (calls.some((call) => call.stage === 'live')) return undefined;
	const last = calls.at(-1);
	if (!last) return { attempt: 1, dueAt: withinCap(view, person, calls, view.now) };
	const { redialOn, redialAfterMs, maxTries } = view.rules;
	if (!redialOn.includes(last.result!) || calls.length >= maxTries) return undefined;
	return {
		attempt: calls.length + 1,
		dueAt: withinCap(view, person, calls, last.endedAt! + redialAfterMs),
	};
}

/**
 * The due time moved, if need be, until the person's calls of the period (the organization's, read
 * at the start, and the campaign's own) are fewer than Max Calls per Person: the cap-th newest
 * call's time plus the period.
 */
function withinCap(view: CampaignView, person: string, own: CampaignCall[], dueAt: number): number {
	const cap = view.rules.cap;
	if (!cap) return dueAt;
	const times = new Map<string, number>();
	for (const call of view.callsInPeriod?.[person] ?? []) times.set(call.id, call.at);
	// the campaign's own calls count from when they ring, which is what the cap is about
	for (const call of own) if (call.stage !== 'canceled') times.set(call.id, call.callAt);
	const newest = [...times.values()].sort((a, b) => b - a);
	return newest.length < cap.calls ? dueAt : Math.max(dueAt, newest[cap.calls - 1] + cap.periodMs);
}

/** For Get Campaign's counts: the people the run's list has called none of, though the node has. */
function countFromEarlierLists(view: CampaignView, kept: CampaignCall[], place: Placement[]) {
	const ofList = new Set(place.map((placement) => placement.person.key));
	for (const call of kept) if (call.campaign === view.campaign) ofList.add(call.person);
	return new Set(kept.map((call) => call.person).filter((person) => !ofList.has(person))).size;
}

export function planCampaign(view: CampaignView): Plan {
	const { heldElsewhere, followed, cancel, kept } = settleClaims(view);
	const byPerson = groupBy(kept, (call) => call.person);
	const live = kept.filter((call) => call.stage === 'live');
	const busyLanes = new Set(
		live.filter((call) => call.campaign === view.campaign).map((call) => call.lane),
	);
	const due: Placement[] = [];
	const noHours = new Set<string>();
	for (const person of view.people) {
		if (heldElsewhere.has(person.key) || view.refused.has(person.key)) continue;
		const next = nextAttempt(person.key, byPerson.get(person.key) ?? [], view);
		if (!next) continue;
		// the API schedules to the second: a start never rounded earlier than its due time
		const earliest = Math.ceil(Math.max(next.dueAt, view.now + view.leadMs) / 1000) * 1000;
		const callAt = openingFor(person, earliest);
		if (callAt === undefined) noHours.add(person.key);
		else due.push({ person, attempt: next.attempt, lane: -1, callAt });
	}
	due.sort((a, b) => a.callAt - b.callAt || a.person.itemIndex - b.person.itemIndex);
	// an earlier list's live calls to the run's people take slots too, though not its lanes
	const freeLanes = [...Array(view.rules.maxLive).keys()]
		.filter((lane) => !busyLanes.has(lane))
		.slice(0, Math.max(0, view.rules.maxLive - live.length));
	const place = due
		.slice(0, freeLanes.length)
		.map((placement, at) => ({ ...placement, lane: freeLanes[at] }));
	const finished = live.length === 0 && due.length === 0;
	const fromEarlierLists = countFromEarlierLists(view, kept, place);
	return { place, cancel, heldElsewhere, followed, fromEarlierLists, noHours, finished };
}
