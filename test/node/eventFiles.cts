import type { IBinaryKeyData, INodeParameters } from 'n8n-workflow';

import { runNode } from '../../harness/engine.cts';
import { startSimulator, storedEvents, type Simulator } from '../../simulator/index.cts';

export { purchases } from '../../harness/purchases.cts';

/** What the tests of Event → Send from a file share. */

/** A file as an earlier node (Read/Write Files from Disk, HTTP Request) hands it on: its bytes in the item's binary field. */
export function fileItem(
	content: string | Buffer,
	fileName = 'rows.csv',
	field = 'data',
): IBinaryKeyData {
	const bytes = typeof content === 'string' ? Buffer.from(content, 'utf8') : content;
	return {
		[field]: {
			data: bytes.toString('base64'),
			mimeType: fileName.endsWith('.csv') ? 'text/csv' : 'application/x-ndjson',
			fileName,
		},
	};
}

export const FROM_FILE: INodeParameters = {
	resource: 'event',
	operation: 'send',
	eventInput: 'file',
};

/**
 * A simulator whose budgets do not limit, started for the describe block that calls this, and
 * the node run on files against it.
 */
export function eventFileBench() {
	const state: { sim?: Simulator } = {};
	beforeAll(async () => {
		state.sim = await startSimulator({
			limits: { events: 100_000, eventsAnonymous: 100_000, ip: 100_000 },
		});
	});
	afterAll(() => state.sim!.stop());
	const sim = () => state.sim!;
	return {
		sim,
		posts: () => sim().requestsTo('POST', '/v1/events').length,
		run: (
			file: IBinaryKeyData | IBinaryKeyData[],
			parameters: INodeParameters = {},
			extra: { continueOnFail?: boolean } = {},
		) => {
			const files = Array.isArray(file) ? file : [file];
			return runNode({
				credentials: { apiKey: sim().apiKey, baseUrl: sim().baseUrl },
				parameters: { ...FROM_FILE, ...parameters },
				items: files.map(() => ({})),
				binary: files,
				...extra,
			});
		},
		/** The events stored for contacts whose email starts with `prefix`. */
		storedWith: (prefix: string) =>
			storedEvents(sim().org).filter((event) => {
				const contact = event.contact_id ? sim().org.contacts.get(event.contact_id) : undefined;
				return contact?.email?.startsWith(prefix) ?? false;
			}),
	};
}
