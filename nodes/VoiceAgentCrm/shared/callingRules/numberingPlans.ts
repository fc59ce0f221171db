/**
 * Countries other than the NANP whose numbers span several zones: where the public numbering
 * plan ties a number's first digits to a place, the place and every zone it can be in; where it
 * does not, the reason, which the item reports (its zone must then come from the item).
 */

export interface NumberPlace {
	places: string[];
	zones: string[];
}

/** A plan: the place of a national number (the digits after the country code), or why not. */
export interface NumberingPlan {
	country: string;
	source: string;
	asOf: string;
	placeOf(national: string): NumberPlace | { unknown: string };
}

const AUSTRALIA_EVERY_ZONE = [
	'Australia/Perth',
	'Australia/Eucla',
	'Australia/Darwin',
	'Australia/Adelaide',
	'Australia/Broken_Hill',
	'Australia/Brisbane',
	'Australia/Sydney',
	'Australia/Melbourne',
	'Australia/Hobart',
	'Australia/Lord_Howe',
];

/** Australia's area codes (the digit after +61); 4 and 5 are mobiles, anywhere in the country. */
const AUSTRALIA_AREAS: Record<string, string[]> = {
	// NSW and the ACT; Lord Howe Island keeps its own half-hour clock
	'2': ['Australia/Sydney', 'Australia/Lord_Howe'],
	// Victoria and Tasmania, and the NSW Riverina towns on Sydney time
	'3': ['Australia/Melbourne', 'Australia/Hobart', 'Australia/Sydney'],
	// Queensland (no daylight time), and the Tweed towns of NSW that dial 07
	'7': ['Australia/Brisbane', 'Australia/Sydney'],
	// SA, WA, the NT, Broken Hill (NSW on Central time) and the Eucla border strip
	'8': [
		'Australia/Adelaide',
		'Australia/Perth',
		'Australia/Darwin',
		'Australia/Broken_Hill',
		'Australia/Eucla',
	],
	'4': AUSTRALIA_EVERY_ZONE,
	'5': AUSTRALIA_EVERY_ZONE,
};

const AUSTRALIA: NumberingPlan = {
	country: '61',
	source: 'ACMA Telecommunications Numbering Plan 2015: area codes 02, 03, 07, 08; mobiles 04, 05',
	asOf: '2025-12-01',
	placeOf(national) {
		const zones = AUSTRALIA_AREAS[national[0]];
		if (!zones) return { unknown: `+61 ${national[0]} is not a geographic or mobile prefix` };
		return { places: ['AU'], zones };
	},
};

/** Brazil's DDD codes → state and zones (no daylight time since 2019). */
const BRAZIL_DDD: [string, string[], string][] = [
	['BR-SP', ['America/Sao_Paulo'], '11 12 13 14 15 16 17 18 19'],
	['BR-RJ', ['America/Sao_Paulo'], '21 22 24'],
	['BR-ES', ['America/Sao_Paulo'], '27 28'],
	['BR-MG', ['America/Sao_Paulo'], '31 32 33 34 35 37 38'],
	['BR-PR', ['America/Sao_Paulo'], '41 42 43 44 45 46'],
	['BR-SC', ['America/Sao_Paulo'], '47 48 49'],
	['BR-RS', ['America/Sao_Paulo'], '51 53 54 55'],
	['BR-DF', ['America/Sao_Paulo'], '61'],
	['BR-GO', ['America/Sao_Paulo'], '62 64'],
	['BR-TO', ['America/Araguaina'], '63'],
	['BR-MT', ['America/Cuiaba'], '65 66'],
	['BR-MS', ['America/Campo_Grande'], '67'],
	['BR-AC', ['America/Rio_Branco'], '68'],
	['BR-RO', ['America/Porto_Velho'], '69'],
	['BR-BA', ['America/Bahia'], '71 73 74 75 77'],
	['BR-SE', ['America/Maceio'], '79'],
	// Pernambuco's 81 includes the Fernando de Noronha archipelago (UTC−2)
	['BR-PE', ['America/Recife', 'America/Noronha'], '81'],
	['BR-PE', ['America/Recife'], '87'],
	['BR-AL', ['America/Maceio'], '82'],
	['BR-PB', ['America/Fortaleza'], '83'],
	['BR-RN', ['America/Fortaleza'], '84'],
	['BR-CE', ['America/Fortaleza'], '85 88'],
	['BR-PI', ['America/Fortaleza'], '86 89'],
	['BR-PA', ['America/Belem', 'America/Santarem'], '91 93 94'],
	['BR-AM', ['America/Manaus'], '92'],
	// the west of Amazonas (Eirunepé, the Juruá valley) is on Acre's clock
	['BR-AM', ['America/Manaus', 'America/Eirunepe'], '97'],
	['BR-RR', ['America/Boa_Vista'], '95'],
	['BR-AP', ['America/Belem'], '96'],
	['BR-MA', ['America/Fortaleza'], '98 99'],
];

const BRAZIL_BY_DDD = new Map<string, NumberPlace>(
	BRAZIL_DDD.flatMap(([place, zones, codes]) =>
		codes.split(' ').map((code): [string, NumberPlace] => [code, { places: [place], zones }]),
	),
);

const BRAZIL: NumberingPlan = {
	country: '55',
	source: 'Anatel, Plano Geral de Códigos Nacionais (DDD codes by state); mobiles keep their DDD',
	asOf: '2025-12-01',
	placeOf(national) {
		return (
			BRAZIL_BY_DDD.get(national.slice(0, 2)) ?? {
				unknown: `+55 ${national.slice(0, 2)} is not a Brazilian DDD code`,
			}
		);
	},
};

const RUSSIA_KAZAKHSTAN: NumberingPlan = {
	country: '7',
	source: 'Rossvyaz numbering plan (ABC/DEF codes); Kazakhstan shares +7',
	asOf: '2025-12-01',
	placeOf: () => ({
		unknown:
			'+7 numbers do not tell the zone: Russia spans 11 zones, mobile (DEF, 9xx) codes are not tied to a region, and Kazakhstan shares +7; give the person\u2019s zone',
	}),
};

const MEXICO: NumberingPlan = {
	country: '52',
	source: 'IFT Plan Técnico Fundamental de Numeración',
	asOf: '2025-12-01',
	placeOf: () => ({
		unknown:
			'+52 numbers do not tell the zone here: Mexico\u2019s area codes do not follow its zone borders (the northern border towns keep US daylight time, Sonora and Quintana Roo none), and no per-code table is kept from a source the package can cite; give the person\u2019s zone',
	}),
};

/** The plans by country calling code. */
export const NUMBERING_PLANS: Readonly<Record<string, NumberingPlan>> = {
	'7': RUSSIA_KAZAKHSTAN,
	'52': MEXICO,
	'55': BRAZIL,
	'61': AUSTRALIA,
};
