import { VOICES } from '../seed.cts';
import { envelope, type RouteDef } from '../server.cts';

/** Voices (documented) and the organization's phone numbers (inferred, docs/decisions.md). */
export const catalogRoutes: RouteDef[] = [
	{ method: 'GET', pattern: '/v1/agents/voices', handler: () => envelope(VOICES) },
	{
		method: 'GET',
		pattern: '/v1/phone-numbers',
		handler: (req) => envelope([...req.org.phoneNumbers.values()]),
	},
];
