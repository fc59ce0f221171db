import { parseArgs } from 'node:util';

import {
	DEFAULT_TIMINGS,
	planCalls,
	startSimulator,
	type CallMix,
	type CallPlan,
} from './index.cts';
import { DEFAULT_LIMITS, type BudgetLimits } from './rateLimit.cts';

/** CLI flag → call timing it sets, in seconds on the command line (fractions allowed). */
const TIMING_FLAGS: Record<string, keyof typeof DEFAULT_TIMINGS> = {
	queue: 'queueMs',
	ring: 'ringMs',
	talk: 'talkMs',
	'finished-delay': 'finishedDelayMs',
	'reason-delay': 'reasonDelayMs',
	'analysis-delay': 'analysisDelayMs',
};

/** CLI flag → call result it gives a share of the calls (campaigns: redials, follow-ups by result). */
const SHARE_FLAGS: Record<string, keyof CallMix['shares']> = {
	'no-answer': 'no_answer',
	busy: 'busy',
	voicemail: 'voicemail',
	failed: 'failed',
};

/** CLI flag → request budget it sets, in requests per one-minute window. */
const BUDGET_FLAGS: Record<string, keyof BudgetLimits> = {
	'events-limit': 'events',
	'anonymous-events-limit': 'eventsAnonymous',
	'ip-limit': 'ip',
};

const USAGE = `npm run simulator -- [--port N] [--queue S] [--ring S] [--talk S] [--talk-max S] [--finished-delay S] [--reason-delay S] [--analysis-delay S] [--no-answer F] [--busy F] [--voicemail F] [--failed F] [--events-limit N] [--anonymous-events-limit N] [--ip-limit N]

Call timings in seconds (fractions allowed), for every call placed. Defaults: ${Object.entries(
	TIMING_FLAGS,
)
	.map(([flag, key]) => `${flag} ${DEFAULT_TIMINGS[key] / 1000}`)
	.join(', ')}.
Example, a whole call with its analysis in about 6 s: npm run simulator -- --queue 0.5 --ring 1 --talk 3 --finished-delay 0.5 --reason-delay 0.5 --analysis-delay 1

Results by share (0 to 1 each; the rest are answered), and a talk time drawn between --talk and --talk-max.
Example, a campaign's mix: npm run simulator -- --no-answer 0.3 --busy 0.1 --voicemail 0.1 --talk 20 --talk-max 90

Request budgets per minute (the reference does not give the events budgets; for benchmarks, raise them). Defaults: ${Object.entries(
	BUDGET_FLAGS,
)
	.map(([flag, key]) => `${flag} ${DEFAULT_LIMITS[key]}`)
	.join(', ')}.
Example, 10,000 event batches without waiting: npm run simulator -- --events-limit 100000 --ip-limit 100000`;

/** The call timings given on the command line; throws on a value that is not a number of seconds. */
export function timingsFrom(values: Record<string, string | boolean | undefined>): CallPlan {
	const plan: CallPlan = {};
	for (const [flag, key] of Object.entries(TIMING_FLAGS)) {
		const raw = values[flag];
		if (raw === undefined) continue;
		const seconds = Number(raw);
		if (typeof raw !== 'string' || raw.trim() === '' || !Number.isFinite(seconds) || seconds < 0) {
			throw new Error(`--${flag} takes a number of seconds (e.g. 2 or 0.5), not "${String(raw)}"`);
		}
		plan[key] = Math.round(seconds * 1000);
	}
	return plan;
}

/** The results by share and the talk range given on the command line; undefined when none is given. */
export function mixFrom(
	values: Record<string, string | boolean | undefined>,
	timings: CallPlan,
): CallMix | undefined {
	const shares: CallMix['shares'] = {};
	for (const [flag, result] of Object.entries(SHARE_FLAGS)) {
		const raw = values[flag];
		if (raw === undefined) continue;
		const share = Number(raw);
		if (typeof raw !== 'string' || raw.trim() === '' || !(share >= 0 && share <= 1))
			throw new Error(`--${flag} takes a share from 0 to 1 (e.g. 0.3), not "${String(raw)}"`);
		shares[result] = share;
	}
	if (Object.values(shares).reduce((sum, share) => sum + share, 0) > 1)
		throw new Error(
			'the shares of --no-answer, --busy, --voicemail and --failed add up to more than 1',
		);
	const talkMax =
		values['talk-max'] === undefined ? undefined : timingsFrom({ talk: values['talk-max'] }).talkMs;
	if (!Object.keys(shares).length && talkMax === undefined) return undefined;
	const talkMin = timings.talkMs ?? DEFAULT_TIMINGS.talkMs;
	if (talkMax !== undefined && talkMax < talkMin)
		throw new Error('--talk-max must be at least --talk');
	return {
		shares,
		...(talkMax !== undefined ? { talkMs: [talkMin, talkMax] as [number, number] } : {}),
	};
}

/** The request budgets given on the command line; throws on a value that is not a whole positive number. */
export function limitsFrom(
	values: Record<string, string | boolean | undefined>,
): Partial<BudgetLimits> {
	const limits: Partial<BudgetLimits> = {};
	for (const [flag, key] of Object.entries(BUDGET_FLAGS)) {
		const raw = values[flag];
		if (raw === undefined) continue;
		const count = Number(raw);
		if (typeof raw !== 'string' || !Number.isInteger(count) || count < 1) {
			throw new Error(
				`--${flag} takes a whole number of requests per minute (e.g. 6000), not "${String(raw)}"`,
			);
		}
		limits[key] = count;
	}
	return limits;
}

/**
 * `npm run simulator`: the simulator standalone, on --port or PORT (default a free port). Its clock
 * runs on its own: calls move through their life cycle and webhooks are sent on time.
 */
async function main(): Promise<void> {
	const { values } = parseArgs({
		options: {
			port: { type: 'string' },
			help: { type: 'boolean' },
			...Object.fromEntries(
				[
					...Object.keys(TIMING_FLAGS),
					'talk-max',
					...Object.keys(SHARE_FLAGS),
					...Object.keys(BUDGET_FLAGS),
				].map((flag) => [flag, { type: 'string' as const }]),
			),
		},
	});
	if (values.help) {
		console.log(USAGE);
		return;
	}
	const timings = timingsFrom(values);
	const port = Number(values.port ?? process.env.PORT ?? 0);
	const limits = limitsFrom(values);
	const sim = await startSimulator({ port, apiKey: process.env.SIMULATOR_API_KEY, limits });
	planCalls(sim).byDefault(timings);
	const mix = mixFrom(values, timings);
	if (mix) planCalls(sim).byShare(mix);
	sim.clock.runOnItsOwn();
	console.log(`base_url=${sim.baseUrl}`);
	console.log(`api_key=${sim.apiKey}`);
	const shown = Object.entries(TIMING_FLAGS).map(
		([flag, key]) => `${flag} ${(timings[key] ?? DEFAULT_TIMINGS[key]) / 1000}s`,
	);
	console.log(`call timings: ${shown.join(', ')}`);
	if (mix)
		console.log(
			`call results by share: ${JSON.stringify(mix.shares)}, talk ${JSON.stringify(mix.talkMs ?? 'fixed')} ms`,
		);
	const budgets = { ...DEFAULT_LIMITS, ...limits };
	console.log(
		`requests per minute: ${Object.entries(BUDGET_FLAGS)
			.map(([flag, key]) => `${flag.replace(/-limit$/, '')} ${budgets[key]}`)
			.join(', ')}`,
	);
	console.log('Paste these into the "Voice Agent CRM API" credential. Ctrl+C stops the simulator.');
	const stop = () => void sim.stop().then(() => process.exit(0));
	process.on('SIGINT', stop);
	process.on('SIGTERM', stop);
}

if (require.main === module) {
	main().catch((error: unknown) => {
		console.error(error instanceof Error ? error.message : String(error));
		console.error(USAGE);
		process.exit(1);
	});
}
