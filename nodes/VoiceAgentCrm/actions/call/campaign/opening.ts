import { nextLawfulOpening, type KnownPlace } from '../../../shared/callingRules/lawful';
import { nextOpening, type CallingWindow } from './window';

/**
 * When a person's call may start: inside the user's window on the wall clock of every zone the
 * person can be in (campaign/window.ts) and, with Calling Hours Lawful, inside the rules of the
 * person's place (shared/callingRules/lawful.ts).
 */

export interface CallingHours {
	place: KnownPlace;
	window: CallingWindow;
	/** Calling Hours: the place's rules narrow the window (true), or the window alone applies. */
	lawful: boolean;
}

/** Two weeks and a day: as far as the rules' own look ahead. */
const HORIZON_MS = 15 * 86_400_000;

/**
 * The first instant ≥ `at` (epoch ms) at which every constraint is open, or undefined when none
 * is within two weeks (a window and a rule that never meet). Each constraint's next opening only
 * moves the instant later, so the search ends at the first instant all of them accept.
 */
export function openingFor(hours: CallingHours, at: number): number | undefined {
	let instant = at;
	while (instant <= at + HORIZON_MS) {
		const openings: (number | undefined)[] = hours.place.zones.map((zone) =>
			nextOpening(instant, zone, hours.window),
		);
		openings.push(hours.lawful ? nextLawfulOpening(hours.place, instant) : instant);
		if (openings.some((opening) => opening === undefined)) return undefined;
		const latest = Math.max(...(openings as number[]));
		if (latest === instant) return instant;
		instant = latest;
	}
	return undefined;
}
