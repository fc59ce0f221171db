import { agentRoutes } from './routes/agents';
import { callRoutes } from './routes/calls';
import { catalogRoutes } from './routes/catalog';
import { contactRoutes } from './routes/contacts';
import { crmRoutes } from './routes/crm';
import { messagingRoutes } from './routes/messaging';
import { eventsRoutes } from './routes/events';
import { seedBasics, seedOrganization } from './seed';
import { Simulator, type SimulatorOptions } from './server';

/**
 * The simulator's public module: start it, seed it, script it. Tests, `scripts/` and `bench/`
 * import only from here; what is not exported is the simulator's own business.
 */
export { Simulator } from './server';
export type { SimulatorOptions, RecordedRequest, WebhookDelivery } from './server';
export type { FaultRule, Fault } from './faults';
export type { Call, Channel, Contact, Message, Organization, Thread } from './types';
export { api as simulatorRequest, type ApiAnswer as SimulatorAnswer } from './client';
export {
	DEFAULT_TIMINGS,
	driveCallToEnd,
	insertCall,
	isFinishedPhase,
	planCalls,
	startCallLifecycle,
	type CallPlan,
	type CallResult,
} from './callLifecycle';
export { addContact, contactByEmail, MAIN_ORG_IDS, VOICES } from './seed';
export { insertContacts } from './routes/contacts';
export { tagContact } from './routes/crm';
export { storedEvents } from './events/store';
export { normalizeEventName } from './events/eventName';

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
