import { agentRoutes } from './routes/agents.cts';
import { callRoutes } from './routes/calls.cts';
import { catalogRoutes } from './routes/catalog.cts';
import { contactRoutes } from './routes/contacts.cts';
import { crmRoutes } from './routes/crm.cts';
import { messagingRoutes } from './routes/messaging.cts';
import { eventsRoutes } from './routes/events.cts';
import { seedBasics, seedOrganization } from './seed.cts';
import { Simulator, type SimulatorOptions } from './server.cts';

/**
 * The simulator's public module: start it, seed it, script it. Tests, `scripts/` and `bench/`
 * import only from here; what is not exported is the simulator's own business.
 */
export { Simulator } from './server.cts';
export type { SimulatorOptions, RecordedRequest, WebhookDelivery } from './server.cts';
export type { FaultRule, Fault } from './faults.cts';
export type { Call, Channel, Contact, Message, Organization, Thread } from './types.cts';
export { api as simulatorRequest, type ApiAnswer as SimulatorAnswer } from './client.cts';
export {
	ageCall,
	DEFAULT_TIMINGS,
	driveCallToEnd,
	insertCall,
	isFinishedPhase,
	planCalls,
	seededRandom,
	startCallLifecycle,
	type CallMix,
	type CallPlan,
	type CallResult,
} from './callLifecycle.cts';
export { addContact, contactByEmail, MAIN_ORG_IDS, VOICES } from './seed.cts';
export { insertContacts } from './routes/contacts.cts';
export { tagContact } from './routes/crm.cts';
export { storedEvents } from './events/store.cts';
export { normalizeEventName } from './events/eventName.cts';

/**
 * Start a simulator of the API on a free loopback port. The main organization has the events
 * add-on; `otherOrg` has not, and serves scoping tests (its records answer 404 to the main key).
 */
export async function startSimulator(options: SimulatorOptions = {}): Promise<Simulator> {
	const sim = new Simulator(options);
	sim.register([
		...catalogRoutes,
		...agentRoutes,
		...callRoutes,
		...eventsRoutes,
		...contactRoutes,
		...crmRoutes,
		...messagingRoutes,
	]);
	sim.org = sim.addOrganization({ eventsAddon: true }, options.apiKey);
	sim.otherOrg = sim.addOrganization({ eventsAddon: false });
	for (const org of [sim.org, sim.otherOrg]) {
		const fixedIds = org === sim.org;
		seedBasics(org, fixedIds);
		if (options.seed !== false) seedOrganization(org, sim.clock, fixedIds);
	}
	await sim.listen();
	return sim;
}
