import { limitsFrom } from '../cli.cts';

describe('npm run simulator: request budgets for benchmarks', () => {
	it('takes the budgets in requests per minute and refuses what is not a whole positive number', () => {
		expect(limitsFrom({ 'events-limit': '100000', 'ip-limit': '6000' })).toEqual({
			events: 100_000,
			ip: 6000,
		});
		expect(limitsFrom({})).toEqual({});
		for (const bad of ['0', '-5', '1.5', 'many', ''])
			expect(() => limitsFrom({ 'anonymous-events-limit': bad })).toThrow(
				'--anonymous-events-limit takes a whole number of requests per minute',
			);
	});
});
