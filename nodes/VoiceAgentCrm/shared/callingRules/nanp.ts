/**
 * NANP (+1) area codes: the place (US state or territory, Canadian province, Caribbean country)
 * and EVERY IANA zone a number of the code can ring in, so that a call waits until all of them
 * are within hours. The codes are NANPA's assigned geographic area codes as its public list
 * (nationalnanpa.com) and the Canadian Numbering Administrator's (cnac.ca) stood on 2025-12-01,
 * overlays announced through 2025 included, written out by hand; the zones are the time-zone borders
 * as the IANA tz database draws them, cross-read with libphonenumber's time-zone map
 * (resources/timezones/map_data.txt), the wider of the two taken. Numbers are portable within a
 * rate centre, not across the border of a code's area, so the code stays a fair witness; a
 * mobile's owner may travel, which no table can know.
 *
 * Non-geographic codes (toll-free 800/833/844/855/866/877/888, 500s personal, 600/622 Canada,
 * 700, 900) are not here: they name no place.
 */
export const NANP_AREA_CODES_AS_OF = '2025-12-01';
export const NANP_AREA_CODES_SOURCE =
	'NANPA area code list (nationalnanpa.com) and the Canadian Numbering Administrator (cnac.ca), as of 2025-12-01; zones per the IANA tz database, cross-read with libphonenumber resources/timezones/map_data.txt';

export interface AreaCode {
	/** ISO 3166-2 state/province (`US-FL`, `CA-ON`) or ISO 3166-1 country (`JM`); 867 has three. */
	places: string[];
	/** Every zone the code's area spans. */
	zones: string[];
	/** For a code on several zones: where the border runs. */
	border?: string;
}

const NY = 'America/New_York';
const CHI = 'America/Chicago';
const DEN = 'America/Denver';
const LA = 'America/Los_Angeles';
const PHX = 'America/Phoenix';
const DET = 'America/Detroit';
const IND = 'America/Indiana/Indianapolis';
const LOU = 'America/Kentucky/Louisville';
const TOR = 'America/Toronto';
const EDM = 'America/Edmonton';
const VAN = 'America/Vancouver';

/** Codes whose whole area is in one zone: [place, zone, codes]. */
const ONE_ZONE: [string, string, string][] = [
	['US-AL', CHI, '205 251 256 659 938'],
	['US-AR', CHI, '327 479 501 870'],
	['US-AZ', PHX, '480 520 602 623'],
	[
		'US-CA',
		LA,
		'209 213 279 310 323 341 350 357 369 408 415 424 442 510 530 559 562 619 626 628 650 657 661 669 707 714 738 747 760 805 818 820 831 840 858 909 916 925 949 951',
	],
	['US-CO', DEN, '303 719 720 748 970 983'],
	['US-CT', NY, '203 475 860 959'],
	['US-DC', NY, '202 771'],
	['US-DE', NY, '302'],
	[
		'US-FL',
		NY,
		'239 305 321 324 352 386 407 561 645 656 689 727 728 754 772 786 813 863 904 941 954',
	],
	['US-GA', NY, '229 404 470 478 678 706 762 770 912 943'],
	['US-HI', 'Pacific/Honolulu', '808'],
	['US-IA', CHI, '319 515 563 641 712'],
	['US-IL', CHI, '217 224 309 312 331 447 464 618 630 708 730 773 779 815 847 861 872'],
	['US-IN', IND, '260 317 463 765'],
	['US-KS', CHI, '316 913'],
	['US-KY', LOU, '502 859'],
	['US-LA', CHI, '225 318 337 504 985'],
	['US-MA', NY, '339 351 413 508 617 774 781 857 978'],
	['US-MD', NY, '227 240 301 410 443 667'],
	['US-ME', NY, '207'],
	['US-MI', DET, '231 248 269 313 517 586 616 679 734 810 947 989'],
	['US-MN', CHI, '218 320 507 612 651 763 952'],
	['US-MO', CHI, '235 314 417 557 573 636 660 816 975'],
	['US-MS', CHI, '228 601 662 769'],
	['US-MT', DEN, '406'],
	['US-NC', NY, '252 336 472 704 743 828 910 919 980 984'],
	['US-NE', CHI, '402 531'],
	['US-NH', NY, '603'],
	['US-NJ', NY, '201 551 609 640 732 848 856 862 908 973'],
	['US-NM', DEN, '505 575'],
	['US-NV', LA, '702 725'],
	[
		'US-NY',
		NY,
		'212 315 329 332 347 363 516 518 585 607 624 631 646 680 716 718 838 845 914 917 929 934',
	],
	['US-OH', NY, '216 220 234 283 326 330 380 419 436 440 513 567 614 740 937'],
	['US-OK', CHI, '405 539 572 580 918'],
	['US-OR', LA, '503 971'],
	['US-PA', NY, '215 223 267 272 412 445 484 570 582 610 717 724 814 835 878'],
	['US-RI', NY, '401'],
	['US-SC', NY, '803 839 843 854 864'],
	['US-TN', CHI, '615 629 731 901 931'],
	['US-TN', NY, '865'],
	[
		'US-TX',
		CHI,
		'210 214 254 281 325 346 361 409 430 432 469 512 682 713 726 737 806 817 830 832 903 936 940 945 956 972 979',
	],
	['US-TX', DEN, '915'],
	['US-UT', DEN, '385 435 801'],
	['US-VA', NY, '276 434 540 571 686 703 757 804 826 948'],
	['US-VT', NY, '802'],
	['US-WA', LA, '206 253 360 425 509 564'],
	['US-WI', CHI, '262 274 353 414 534 608 715 920'],
	['US-WV', NY, '304 681'],
	['US-WY', DEN, '307'],
	['US-AS', 'Pacific/Pago_Pago', '684'],
	['US-GU', 'Pacific/Guam', '671'],
	['US-MP', 'Pacific/Saipan', '670'],
	['US-PR', 'America/Puerto_Rico', '787 939'],
	['US-VI', 'America/St_Thomas', '340'],
	['CA-AB', EDM, '368 403 587 780 825'],
	['CA-BC', VAN, '604'],
	['CA-MB', 'America/Winnipeg', '204 431 584'],
	['CA-NB', 'America/Moncton', '428 506'],
	['CA-ON', TOR, '226 249 289 343 365 382 416 437 519 548 613 647 683 705 742 753 905 942'],
	['CA-QC', TOR, '263 354 438 450 468 514 579 819 873'],
	['AG', 'America/Antigua', '268'],
	['AI', 'America/Anguilla', '264'],
	['BB', 'America/Barbados', '246'],
	['BM', 'Atlantic/Bermuda', '441'],
	['BS', 'America/Nassau', '242'],
	['DM', 'America/Dominica', '767'],
	['DO', 'America/Santo_Domingo', '809 829 849'],
	['GD', 'America/Grenada', '473'],
	['JM', 'America/Jamaica', '658 876'],
	['KN', 'America/St_Kitts', '869'],
	['KY', 'America/Cayman', '345'],
	['LC', 'America/St_Lucia', '758'],
	['MS', 'America/Montserrat', '664'],
	['SX', 'America/Lower_Princes', '721'],
	['TC', 'America/Grand_Turk', '649'],
	['TT', 'America/Port_of_Spain', '868'],
	['VC', 'America/St_Vincent', '784'],
	['VG', 'America/Tortola', '284'],
];

/** Codes whose area crosses a zone border: [places, zones, codes, where the border runs]. */
const SEVERAL_ZONES: [string[], string[], string, string][] = [
	[['US-AK'], ['America/Anchorage', 'America/Adak'], '907', 'the Aleutians west of 169°30′W'],
	[['US-AL'], [CHI, NY], '334', 'Phenix City and Lee County keep Eastern time by custom'],
	[['US-AZ'], [PHX, DEN], '928', 'the Navajo Nation keeps daylight time'],
	[['US-FL'], [NY, CHI], '448 850', 'the Panhandle west of the Apalachicola River'],
	[['US-ID'], ['America/Boise', LA], '208 986', 'the Panhandle north of the Salmon River'],
	[['US-IN'], [CHI, IND], '219 574 812 930', 'the northwest and southwest counties'],
	[['US-KS'], [CHI, DEN], '620 785', 'the four western border counties'],
	[['US-KY'], [LOU, CHI], '270 364 606', 'the western half and a few Cumberland counties'],
	[['US-MI'], [DET, 'America/Menominee'], '906', 'the four counties on the Wisconsin border'],
	[['US-ND'], [CHI, DEN], '701', 'the southwest'],
	[['US-NE'], [CHI, DEN], '308', 'the Panhandle'],
	[['US-NV'], [LA, DEN], '775', 'West Wendover and Jackpot'],
	[['US-OR'], [LA, 'America/Boise'], '458 541', 'most of Malheur County'],
	[['US-SD'], [CHI, DEN], '605', 'west of the Missouri River'],
	[['US-TN'], [NY, CHI], '423', 'Chattanooga (Eastern) and the Central counties to its west'],
	[
		['CA-BC'],
		[VAN, EDM, 'America/Creston', 'America/Dawson_Creek', 'America/Fort_Nelson'],
		'236 250 257 672 778',
		'the East Kootenay (Mountain), Creston and the Peace River (no daylight time)',
	],
	[
		['CA-NL'],
		['America/St_Johns', 'America/Goose_Bay'],
		'709 879',
		'Labrador (Atlantic time) and the island (Newfoundland time)',
	],
	[['CA-NS', 'CA-PE'], ['America/Halifax'], '782 902', 'one zone, two provinces'],
	[
		['CA-ON'],
		[TOR, 'America/Winnipeg', 'America/Atikokan'],
		'807',
		'Kenora and the west (Central), Atikokan (no daylight time)',
	],
	[
		['CA-QC'],
		[TOR, 'America/Halifax', 'America/Blanc-Sablon'],
		'367 418 581',
		'the Magdalen Islands (Atlantic) and the Lower North Shore (Atlantic, no daylight time)',
	],
	[['CA-SK'], ['America/Regina', EDM], '306 474 639', 'Lloydminster keeps Alberta time'],
	[
		['CA-YT', 'CA-NT', 'CA-NU'],
		[
			'America/Whitehorse',
			'America/Yellowknife',
			'America/Iqaluit',
			'America/Rankin_Inlet',
			'America/Cambridge_Bay',
		],
		'867',
		'the three territories share the code',
	],
];

/** The table: area code → places and zones. */
export const NANP_AREA_CODES: ReadonlyMap<string, AreaCode> = buildTable();

function buildTable(): Map<string, AreaCode> {
	const table = new Map<string, AreaCode>();
	const add = (codes: string, entry: AreaCode) => {
		for (const code of codes.split(' ')) {
			// a code written twice would leave one place silently wrong
			if (table.has(code)) throw new Error(`area code ${code} is listed twice`);
			table.set(code, entry);
		}
	};
	for (const [place, zone, codes] of ONE_ZONE) add(codes, { places: [place], zones: [zone] });
	for (const [places, zones, codes, border] of SEVERAL_ZONES) add(codes, { places, zones, border });
	return table;
}

/** The area code entry of a +1 number in E.164 (`+1NPANXXXXXX`); undefined when not assigned. */
export function areaCodeOf(e164: string): { code: string; entry?: AreaCode } {
	const code = e164.slice(2, 5);
	return { code, entry: NANP_AREA_CODES.get(code) };
}
