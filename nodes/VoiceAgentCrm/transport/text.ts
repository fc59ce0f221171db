/**
 * Quoted text cut to `max` characters, so that an echoed 100,000-character value makes a readable
 * message. It lives in the transport, the lowest layer, because failure messages are worded here.
 */
export function shortened(text: string, max = 60): string {
	return text.length > max ? `${text.slice(0, max)}…` : text;
}
