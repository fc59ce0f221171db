import { assertNoSecret, registerSecret } from '../../harness/secrets';

describe('the secret scan that guards every run', () => {
	it('catches a key in an output item, an error description or a nested cause', () => {
		registerSecret('vak_secret_for_the_scanner_test');
		expect(() =>
			assertNoSecret('item', { json: { note: 'x vak_secret_for_the_scanner_test' } }),
		).toThrow(/ending in …test/);
		const error = Object.assign(new Error('fine'), {
			description: 'header x-api-key: vak_secret_for_the_scanner_test',
		});
		expect(() => assertNoSecret('error', { error })).toThrow();
		expect(() =>
			assertNoSecret('error', {
				error: new Error('ok', { cause: 'vak_secret_for_the_scanner_test' }),
			}),
		).toThrow();
		expect(() => assertNoSecret('clean', { json: { note: 'nothing here' } })).not.toThrow();
	});
});
