/**
 * The recipient's time zone read from the number, only where the country calling code has one
 * time zone for all its numbers. Countries with several zones (+1, +7, +52, +55, +61, and those
 * with islands on another clock: Spain, Portugal, Chile, New Zealand…) are not here: their zone
 * comes from a field, or the form's fallback; never a guess.
 */
const SINGLE_ZONE_CODES: Record<string, string> = {
	'20': 'Africa/Cairo',
	'27': 'Africa/Johannesburg',
	'30': 'Europe/Athens',
	'31': 'Europe/Amsterdam',
	'32': 'Europe/Brussels',
	'33': 'Europe/Paris',
	'36': 'Europe/Budapest',
	'39': 'Europe/Rome',
	'40': 'Europe/Bucharest',
	'41': 'Europe/Zurich',
	'43': 'Europe/Vienna',
	'44': 'Europe/London',
	'45': 'Europe/Copenhagen',
	'46': 'Europe/Stockholm',
	'47': 'Europe/Oslo',
	'48': 'Europe/Warsaw',
	'49': 'Europe/Berlin',
	'51': 'America/Lima',
	'54': 'America/Argentina/Buenos_Aires',
	'57': 'America/Bogota',
	'58': 'America/Caracas',
	'63': 'Asia/Manila',
	'65': 'Asia/Singapore',
	'66': 'Asia/Bangkok',
	'81': 'Asia/Tokyo',
	'82': 'Asia/Seoul',
	'84': 'Asia/Ho_Chi_Minh',
	'86': 'Asia/Shanghai',
	'90': 'Europe/Istanbul',
	'91': 'Asia/Kolkata',
	'92': 'Asia/Karachi',
	'234': 'Africa/Lagos',
	'254': 'Africa/Nairobi',
	'353': 'Europe/Dublin',
	'358': 'Europe/Helsinki',
	'420': 'Europe/Prague',
	'852': 'Asia/Hong_Kong',
	'880': 'Asia/Dhaka',
	'971': 'Asia/Dubai',
	'972': 'Asia/Jerusalem',
};

/** The zone of an E.164 number whose country has one zone; undefined otherwise. */
export function zoneOfNumber(e164: string): string | undefined {
	for (const length of [3, 2, 1]) {
		const zone = SINGLE_ZONE_CODES[e164.slice(1, 1 + length)];
		if (zone) return zone;
	}
	return undefined;
}
