import { Container } from '@n8n/di';
import { BinaryDataService } from 'n8n-core';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';

import { openChange } from './openChanges.cts';

/** The part of n8n-core's BinaryDataService that selects where binary data goes. */
interface ConfigurableBinaryData {
	config: { mode: string; localStoragePath: string };
	mode: string;
	managers: Record<string, unknown>;
	init(): Promise<void>;
}

/**
 * Switch this process's n8n binary data to the `filesystem` mode (n8n's
 * N8N_DEFAULT_BINARY_DATA_MODE=filesystem) in a fresh temporary folder, as a production n8n
 * stores files. Without it the harness runs in n8n's in-memory mode, where each binary property
 * is a base64 string in the item. Returns the folder and a function that puts the previous mode
 * back (test files share one n8n-core) and deletes the folder.
 */
export async function useFilesystemBinaryData(): Promise<{
	folder: string;
	restore: () => void;
}> {
	const folder = mkdtempSync(path.join(tmpdir(), 'n8n-binary-data-'));
	const service = Container.get(BinaryDataService) as unknown as ConfigurableBinaryData;
	const previous = {
		config: { ...service.config },
		mode: service.mode,
		managers: { ...service.managers },
	};
	service.config.mode = 'filesystem';
	service.config.localStoragePath = folder;
	await service.init();
	return {
		folder,
		// the state before: in n8n-core 2.38.7 no manager at all is the in-memory mode
		restore: openChange('n8n binary data in filesystem mode (useFilesystemBinaryData)', () => {
			Object.assign(service.config, previous.config);
			service.mode = previous.mode;
			service.managers = previous.managers;
			rmSync(folder, { recursive: true, force: true });
		}),
	};
}

/** The bytes of a binary property as stored, in whichever mode. */
export async function storedBytes(binary: { id?: string; data: string }): Promise<Buffer> {
	return await Container.get(BinaryDataService).getAsBuffer(
		binary as Parameters<BinaryDataService['getAsBuffer']>[0],
	);
}
