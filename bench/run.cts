import { readdirSync, readFileSync, writeFileSync } from 'node:fs';
import path from 'node:path';

/**
 * `npm run bench`: runs every `bench/*.bench.cts` (or those named on the command line), each of
 * which exports `run(): Promise<Record<string, number>>`, and merges the figures into
 * bench/results.json. Figures are counts and ratios, measured against the simulator on loopback.
 */
async function main(): Promise<void> {
	const only = process.argv.slice(2);
	const files = readdirSync(__dirname)
		.filter((f) => f.endsWith('.bench.cts'))
		.filter((f) => !only.length || only.some((name) => f.startsWith(name)))
		.sort();
	const resultsPath = path.join(__dirname, 'results.json');
	let results: Record<string, number> = {};
	try {
		results = JSON.parse(readFileSync(resultsPath, 'utf8')) as Record<string, number>;
	} catch {
		// first run: no results yet
	}
	for (const file of files) {
		const bench = (await import(path.join(__dirname, file))) as {
			run: () => Promise<Record<string, number>>;
		};
		const figures = await bench.run();
		for (const [name, value] of Object.entries(figures))
			console.log(`${file.replace('.bench.cts', '')}: ${name} = ${value}`);
		results = { ...results, ...figures };
	}
	writeFileSync(resultsPath, `${JSON.stringify(results, null, 2)}\n`);
	console.log(`wrote ${resultsPath}`);
}

main().then(
	() => process.exit(0),
	(error: unknown) => {
		console.error(error);
		process.exit(1);
	},
);
