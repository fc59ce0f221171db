/**
 * The holiday dates the calling rules close on, recipient-local, from 2026-11-01 to the last day
 * below (HOLIDAYS_KNOWN_THROUGH). Where a state moves a holiday that falls on a weekend to a
 * weekday, both days are listed: calling on either is refused (the stricter reading). Computed
 * from each holiday's statutory definition (a fixed date, an nth weekday, or Easter's offset);
 * Easter Sunday: 2027-03-28, 2028-04-16.
 */

/** The last date the lists below cover; a rule with holidays refuses days after it (rules.ts). */
export const HOLIDAYS_KNOWN_THROUGH = '2028-12-31';

/** Alabama's state holidays, Ala. Code § 1-3-8 (Juneteenth added, as proclaimed since 2021). */
export const ALABAMA_HOLIDAYS = [
	'2026-11-11', // Veterans Day
	'2026-11-26', // Thanksgiving
	'2026-12-25', // Christmas
	'2027-01-01', // New Year's Day
	'2027-01-18', // MLK / Robert E. Lee
	'2027-02-09', // Mardi Gras (Baldwin, Mobile)
	'2027-02-15', // Washington / Jefferson
	'2027-04-26', // Confederate Memorial Day
	'2027-05-31', // Memorial Day
	'2027-06-07', // Jefferson Davis
	'2027-06-18', // Juneteenth (observed)
	'2027-06-19', // Juneteenth
	'2027-07-04', // Independence Day
	'2027-07-05', // Independence Day (observed)
	'2027-09-06', // Labor Day
	'2027-10-11', // Columbus / American Indian Heritage
	'2027-11-11', // Veterans Day
	'2027-11-25', // Thanksgiving
	'2027-12-24', // Christmas (observed)
	'2027-12-25', // Christmas
	'2027-12-31', // New Year's Day (observed)
	'2028-01-01', // New Year's Day
	'2028-01-17', // MLK / Robert E. Lee
	'2028-02-21', // Washington / Jefferson
	'2028-02-29', // Mardi Gras (Baldwin, Mobile)
	'2028-04-24', // Confederate Memorial Day
	'2028-05-29', // Memorial Day
	'2028-06-05', // Jefferson Davis
	'2028-06-19', // Juneteenth
	'2028-07-04', // Independence Day
	'2028-09-04', // Labor Day
	'2028-10-09', // Columbus / American Indian Heritage
	'2028-11-10', // Veterans Day (observed)
	'2028-11-11', // Veterans Day
	'2028-11-23', // Thanksgiving
	'2028-12-25', // Christmas
] as const;

/** Louisiana's legal holidays, La. R.S. 1:55, the wider reading (parish-only days such as Mardi Gras included). */
export const LOUISIANA_HOLIDAYS = [
	'2026-11-01', // All Saints
	'2026-11-02', // All Saints (observed)
	'2026-11-11', // Veterans Day
	'2026-11-26', // Thanksgiving
	'2026-12-25', // Christmas
	'2027-01-01', // New Year's Day
	'2027-01-08', // Battle of New Orleans
	'2027-01-18', // MLK
	'2027-02-09', // Mardi Gras
	'2027-02-15', // Washington
	'2027-03-26', // Good Friday
	'2027-05-31', // Memorial Day
	'2027-06-18', // Juneteenth (observed)
	'2027-06-19', // Juneteenth
	'2027-07-04', // Independence Day
	'2027-07-05', // Independence Day (observed)
	'2027-08-30', // Huey P. Long Day
	'2027-09-06', // Labor Day
	'2027-10-11', // Columbus Day
	'2027-11-01', // All Saints
	'2027-11-11', // Veterans Day
	'2027-11-25', // Thanksgiving
	'2027-12-24', // Christmas (observed)
	'2027-12-25', // Christmas
	'2027-12-31', // New Year's Day (observed)
	'2028-01-01', // New Year's Day
	'2028-01-07', // Battle of New Orleans (observed)
	'2028-01-08', // Battle of New Orleans
	'2028-01-17', // MLK
	'2028-02-21', // Washington
	'2028-02-29', // Mardi Gras
	'2028-04-14', // Good Friday
	'2028-05-29', // Memorial Day
	'2028-06-19', // Juneteenth
	'2028-07-04', // Independence Day
	'2028-08-30', // Huey P. Long Day
	'2028-09-04', // Labor Day
	'2028-10-09', // Columbus Day
	'2028-11-01', // All Saints
	'2028-11-10', // Veterans Day (observed)
	'2028-11-11', // Veterans Day
	'2028-11-23', // Thanksgiving
	'2028-12-25', // Christmas
] as const;

/** Rhode Island's legal holidays, R.I. Gen. Laws § 25-1-1 (Victory Day: second Monday of August). */
export const RHODE_ISLAND_HOLIDAYS = [
	'2026-11-11', // Veterans Day
	'2026-11-26', // Thanksgiving
	'2026-12-25', // Christmas
	'2027-01-01', // New Year's Day
	'2027-01-18', // MLK
	'2027-02-15', // Washington
	'2027-05-31', // Memorial Day
	'2027-07-04', // Independence Day
	'2027-07-05', // Independence Day (observed)
	'2027-08-09', // Victory Day
	'2027-09-06', // Labor Day
	'2027-10-11', // Columbus / Indigenous Peoples
	'2027-11-11', // Veterans Day
	'2027-11-25', // Thanksgiving
	'2027-12-24', // Christmas (observed)
	'2027-12-25', // Christmas
	'2027-12-31', // New Year's Day (observed)
	'2028-01-01', // New Year's Day
	'2028-01-17', // MLK
	'2028-02-21', // Washington
	'2028-05-29', // Memorial Day
	'2028-07-04', // Independence Day
	'2028-08-14', // Victory Day
	'2028-09-04', // Labor Day
	'2028-10-09', // Columbus / Indigenous Peoples
	'2028-11-10', // Veterans Day (observed)
	'2028-11-11', // Veterans Day
	'2028-11-23', // Thanksgiving
	'2028-12-25', // Christmas
] as const;

/** France's jours fériés, Code du travail art. L3133-1. */
export const FRANCE_HOLIDAYS = [
	'2026-11-01', // Toussaint
	'2026-11-11', // Armistice
	'2026-12-25', // Noël
	'2027-01-01', // Jour de l'an
	'2027-03-29', // Lundi de Pâques
	'2027-05-01', // Fête du Travail
	'2027-05-06', // Ascension
	'2027-05-08', // Victoire 1945
	'2027-05-17', // Lundi de Pentecôte
	'2027-07-14', // Fête nationale
	'2027-08-15', // Assomption
	'2027-11-01', // Toussaint
	'2027-11-11', // Armistice
	'2027-12-25', // Noël
	'2028-01-01', // Jour de l'an
	'2028-04-17', // Lundi de Pâques
	'2028-05-01', // Fête du Travail
	'2028-05-08', // Victoire 1945
	'2028-05-25', // Ascension
	'2028-06-05', // Lundi de Pentecôte
	'2028-07-14', // Fête nationale
	'2028-08-15', // Assomption
	'2028-11-01', // Toussaint
	'2028-11-11', // Armistice
	'2028-12-25', // Noël
] as const;

/** Australia's national public holidays and their substitute days (the Industry Standard's "national public holiday"). */
export const AUSTRALIA_HOLIDAYS = [
	'2026-12-25', // Christmas
	'2026-12-26', // Boxing Day
	'2026-12-28', // Boxing Day (observed)
	'2027-01-01', // New Year's Day
	'2027-01-26', // Australia Day
	'2027-03-26', // Good Friday
	'2027-03-29', // Easter Monday
	'2027-04-25', // Anzac Day
	'2027-04-26', // Anzac Day (observed)
	'2027-12-25', // Christmas
	'2027-12-26', // Boxing Day
	'2027-12-27', // Christmas (observed)
	'2027-12-28', // Boxing Day (observed)
	'2028-01-01', // New Year's Day
	'2028-01-03', // New Year's Day (observed)
	'2028-01-26', // Australia Day
	'2028-04-14', // Good Friday
	'2028-04-17', // Easter Monday
	'2028-04-25', // Anzac Day
	'2028-12-25', // Christmas
	'2028-12-26', // Boxing Day
] as const;
