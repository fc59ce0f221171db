import { DERIVED_ID_PREFIX } from '../eventId';

/**
 * How many times each derived event ID has come so far in one file, so that the n-th of several
 * identical rows gets its own ID whatever the rows' order. Held as 64 bits of each ID (the first
 * 16 hex digits of its SHA-256) in an open-addressing table of typed arrays: 24 bytes a distinct
 * row at most, about 24 MB for a million rows without a time (rows with one need no count). Two
 * different rows sharing 64 bits (about 1 in 10^7 for a file of a million of them) would only
 * change the occurrence number of one, never make two rows share an ID: the ID keeps its whole hash.
 */
export class Occurrences {
	private high = new Uint32Array(1024);
	private low = new Uint32Array(1024);
	/** 0: empty slot; otherwise the occurrences seen. */
	private counts = new Uint32Array(1024);
	private size = 0;

	/** Counts one more row with this derived ID and says which occurrence it is (1 for the first). */
	next(derivedId: string): number {
		const hex = derivedId.slice(DERIVED_ID_PREFIX.length);
		const high = parseInt(hex.slice(0, 8), 16) >>> 0;
		const low = parseInt(hex.slice(8, 16), 16) >>> 0;
		const slot = this.slotOf(high, low);
		if (this.counts[slot] === 0) {
			this.high[slot] = high;
			this.low[slot] = low;
			this.size++;
		}
		const count = ++this.counts[slot];
		if (this.size * 2 > this.counts.length) this.grow();
		return count;
	}

	private slotOf(high: number, low: number): number {
		const mask = this.counts.length - 1;
		let slot = low & mask;
		while (this.counts[slot] !== 0 && (this.high[slot] !== high || this.low[slot] !== low))
			slot = (slot + 1) & mask;
		return slot;
	}

	private grow(): void {
		const { high, low, counts } = this;
		this.high = new Uint32Array(counts.length * 2);
		this.low = new Uint32Array(counts.length * 2);
		this.counts = new Uint32Array(counts.length * 2);
		for (let old = 0; old < counts.length; old++) {
			if (counts[old] === 0) continue;
			const slot = this.slotOf(high[old], low[old]);
			this.high[slot] = high[old];
			this.low[slot] = low[old];
			this.counts[slot] = counts[old];
		}
	}
}
