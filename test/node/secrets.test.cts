import { randomBytes } from 'node:crypto';

import {
	assertNoSecret,
	LONG_SCANNED_FRAGMENT,
	LONG_TEXT,
	registerSecret,
} from '../../harness/secrets.cts';

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

	it('reads a long text (a file as base64) for the key and its encodings, not for chance 8-character matches', () => {
		const key = `vak_${randomBytes(27).toString('base64url')}`;
		registerSecret(key);
		const file = (inside: string) =>
			randomBytes(LONG_TEXT)
				.toString('base64')
				.slice(0, LONG_TEXT - inside.length) + inside;
		const found = (text: string) => () => assertNoSecret('item', { json: { data: text } });
		// what made 10 MB of random base64 fail one run in ten: 15 characters of the key's own alphabet
		expect(found(file(key.slice(4, 19)))).not.toThrow();
		expect(found(key.slice(4, 19))).toThrow(/part or an encoding/);
		expect(found(file(key.slice(2, 2 + LONG_SCANNED_FRAGMENT)))).toThrow();
		expect(found(file(Buffer.from(key).toString('base64')))).toThrow();
		// each string apart: a short one beside a long one is still read closely
		expect(() =>
			assertNoSecret('item', { json: { data: file(''), note: key.slice(4, 19) } }),
		).toThrow();
	});
});
