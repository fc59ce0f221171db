import { readdirSync, readFileSync } from 'node:fs';
import path from 'node:path';

/**
 * One placement path: every call the nodes place goes through `placeCall`
 * (`actions/call/placement/placement.ts`), which notes it for the retry memory, sends it once and
 * logs it. Place AI Call, Place Call to Contact and Run Campaign alike: no other file of `nodes/`
 * names a placement endpoint.
 */

const ROOT = path.join(__dirname, '..', '..');
const PLACEMENT = 'nodes/VoiceAgentCrm/actions/call/placement/placement.ts';

/** Files of `nodes/` that send a placement themselves: an API request naming a placement endpoint. */
function placementsElsewhere(): string[] {
	return readdirSync(path.join(ROOT, 'nodes'), { recursive: true })
		.map((file) => `nodes/${String(file).split(path.sep).join('/')}`)
		.filter((file) => file.endsWith('.ts') && file !== PLACEMENT)
		.filter((file) => {
			const text = readFileSync(path.join(ROOT, file), 'utf8');
			return /apiRequest[\s\S]{0,80}'(placePhoneCall|placeContactCall)'/.test(text);
		});
}

describe('One placement path', () => {
	it('no file of nodes/ but placement.ts sends a placement: Run Campaign places through placeCall', () => {
		expect(placementsElsewhere()).toEqual([]);
	});
});
