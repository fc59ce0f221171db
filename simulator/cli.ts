import { startSimulator } from './index';

/** `npm run simulator`: the simulator standalone, on PORT (default a free port). */
async function main(): Promise<void> {
	const port = Number(process.env.PORT ?? 0);
	const sim = await startSimulator({ port, apiKey: process.env.SIMULATOR_API_KEY });
	console.log(`base_url=${sim.baseUrl}`);
	console.log(`api_key=${sim.apiKey}`);
	console.log('Paste these into the "Voice Agent CRM API" credential. Ctrl+C stops the simulator.');
	const stop = () => void sim.stop().then(() => process.exit(0));
	process.on('SIGINT', stop);
	process.on('SIGTERM', stop);
}

void main();
