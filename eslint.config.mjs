/**
 * n8n's stock lint config (what `n8n-node lint` runs), with the dev folders' `.ts` files left to
 * eslint.dev.config.mjs until they carry the `.cts` extension (docs/decisions.md, "n8n's
 * toolchain"): from then on this file is exactly the stock config and strict mode is on.
 */
import { config } from '@n8n/node-cli/eslint';

export default [...config, { ignores: ['{test,simulator,harness,scripts,bench}/**/*.ts'] }];
