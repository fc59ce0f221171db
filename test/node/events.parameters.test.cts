import { itemFieldPath } from '../../nodes/VoiceAgentCrm/actions/event/parameters';

/** Which expressions Event → Send reads from the item itself instead of asking n8n to evaluate. */
describe('Event → Send: expressions that only name a field of the item', () => {
	it.each([
		['={{ $json }}', []],
		['={{ $json.email }}', ['email']],
		['={{$json.contact.email}}', ['contact', 'email']],
		['={{ $json["First Name"] }}', ['First Name']],
		["={{ $json['order id'].value }}", ['order id', 'value']],
	])('%s reads %j', (expression, path) => {
		expect(itemFieldPath(expression)).toEqual(path);
	});

	it.each([
		'={{ $json.email.toLowerCase() }}',
		'={{ $json.email }} ',
		'=x {{ $json.email }}',
		'={{ $json.a || $json.b }}',
		'={{ $("Other Node").item.json.email }}',
		'={{ $json[key] }}',
		'={{ $json.items[0] }}',
		'{{ $json.email }}',
	])('%s is left to n8n', (expression) => {
		expect(itemFieldPath(expression)).toBeUndefined();
	});
});
