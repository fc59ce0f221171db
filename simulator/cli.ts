import { parseArgs } from 'node:util';

import { DEFAULT_TIMINGS, planCalls, startSimulator, type CallPlan } from './index';

/** CLI flag → call timing it sets, in seconds on the command line (fractions allowed). */
const TIMING_FLAGS: Record<string, keyof typeof DEFAULT_TIMINGS> = {
	queue: 'queueMs',
	ring: 'ringMs',
	talk: 'talkMs',
	'finished-delay': 'finishedDelayMs',
	'reason-delay': 'reasonDelayMs',
	'analysis-delay': 'analysisDelayMs',
};

const USAGE = `npm run simulator -- [--port N] [--queue S] [--ring S] [--talk S] [--finished-delay S] [--reason-delay S] [--analysis-delay S]

Call timings in seconds (fractions allowed), for every call placed. Defaults: ${Object.entries(
	TIMING_FLAGS,
)
	.map(([flag, key]) => `${flag} ${DEFAULT_TIMINGS[key] / 1000}`)
	.join(', ')}.
Example, a whole call with its analysis in about 6 s: npm run simulator -- --queue 0.5 --ring 1 --talk 3 --finished-delay 0.5 --reason-delay 0.5 --analysis-delay 1`;

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
				Object.keys(TIMING_FLAGS).map((flag) => [flag, { type: 'string' as const }]),
			),
		},
	});
	if (values.help) {
		console.log(USAGE);
		return;
	}
	const timings = timingsFrom(values);
	const port = Number(values.port ?? process.env.PORT ?? 0);
	const sim = await startSimulator({ port, apiKey: process.env.SIMULATOR_API_KEY });
	planCalls(sim).byDefault(timings);
	sim.clock.runOnItsOwn();
	console.log(`base_url=${sim.baseUrl}`);
	console.log(`api_key=${sim.apiKey}`);
	const shown = Object.entries(TIMING_FLAGS).map(
		([flag, key]) => `${flag} ${(timings[key] ?? DEFAULT_TIMINGS[key]) / 1000}s`,
	);
	console.log(`call timings: ${shown.join(', ')}`);
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
