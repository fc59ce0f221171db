import { parseArgs } from 'node:util';

import { DEFAULT_TIMINGS, planCalls, startSimulator, type CallPlan } from './index.cts';
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

/** CLI flag → request budget it sets, in requests per one-minute window. */
const BUDGET_FLAGS: Record<string, keyof BudgetLimits> = {
	'events-limit': 'events',
	'anonymous-events-limit': 'eventsAnonymous',
	'ip-limit': 'ip',
};

const USAGE = `npm run simulator -- [--port N] [--queue S] [--ring S] [--talk S] [--finished-delay S] [--reason-delay S] [--analysis-delay S] [--events-limit N] [--anonymous-events-limit N] [--ip-limit N]

Call timings in seconds (fractions allowed), for every call placed. Defaults: ${Object.entries(
	TIMING_FLAGS,
)
	.map(([flag, key]) => `${flag} ${DEFAULT_TIMINGS[key] / 1000}`)
	.join(', ')}.
Example, a whole call with its analysis in about 6 s: npm run simulator -- --queue 0.5 --ring 1 --talk 3 --finished-delay 0.5 --reason-delay 0.5 --analysis-delay 1

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
				[...Object.keys(TIMING_FLAGS), ...Object.keys(BUDGET_FLAGS)].map((flag) => [
					flag,
					{ type: 'string' as const },
				]),
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
	sim.clock.runOnItsOwn();
	console.log(`base_url=${sim.baseUrl}`);
	console.log(`api_key=${sim.apiKey}`);
	const shown = Object.entries(TIMING_FLAGS).map(
		([flag, key]) => `${flag} ${(timings[key] ?? DEFAULT_TIMINGS[key]) / 1000}s`,
	);
	console.log(`call timings: ${shown.join(', ')}`);
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
