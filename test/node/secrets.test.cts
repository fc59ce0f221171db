import { assertNoSecret, registerSecret } from '../../harness/secrets.cts';

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

	it('catches a part of the key, another case and its encodings, in non-enumerable error properties too', () => {
		const key = 'vak_Scan+Me/If=You&Can_0123456789';
		registerSecret(key);
		const found = (text: string) => () => assertNoSecret('text', { json: { note: text } });
		expect(found(`…${key.slice(3, 18)}…`)).toThrow(/part or an encoding/);
		expect(found(key.toUpperCase())).toThrow();
		expect(found(Buffer.from(`x-api-key: ${key}`).toString('base64'))).toThrow();
		expect(found(Buffer.from(`x-api-key:${key}`).toString('base64url'))).toThrow();
		expect(found(encodeURIComponent(key))).toThrow();
		const hidden = new Error('fine');
		Object.defineProperty(hidden, 'detail', { value: key.slice(-16), enumerable: false });
		expect(() => assertNoSecret('error', { error: hidden })).toThrow();
		expect(found(key.slice(1, 8))).not.toThrow();
	});
});
