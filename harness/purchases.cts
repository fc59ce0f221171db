/**
 * `count` CSV rows of purchases by seven customers, a minute apart: each row its own event (with
 * its `occurred_at`, so its event ID is derived from its content). `tag` keeps runs apart. For the
 * file tests through the engine and in the real n8n.
 */
export function purchases(tag: string, count: number, from = 0): string {
	const lines = ['event_name,email,occurred_at,value'];
	for (let i = from; i < from + count; i++)
		lines.push(
			`Purchase Completed,${tag}-${i % 7}@example.com,${new Date(Date.UTC(2024, 0, 1) + i * 60_000).toISOString()},${(i % 90) + 9.9}`,
		);
	return `${lines.join('\n')}\n`;
}
