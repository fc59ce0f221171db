import { readFileSync } from 'node:fs';
import path from 'node:path';

/**
 * The benchmark figures the docs quote are those of `bench/results.json`. Each quote is a piece of
 * a doc with `{key}` where results.json's figure goes (`{key:1}`: with 1 decimal), so that a new
 * bench run or an edited doc that no longer agree fail here.
 */

const ROOT = path.resolve(__dirname, '..');
const RESULTS = JSON.parse(
	readFileSync(path.join(ROOT, 'bench', 'results.json'), 'utf8'),
) as Record<string, number>;

/**
 * The file-fed comparison the docs quote: the one `npm run bench:n8n` measured last (its rows give
 * its keys' size, `_50k` for 50,000). A new one fails every quote below until the docs give its figures.
 */
const SIZE = `${RESULTS.events_real_comparison_rows / 1000}k`;

/**
 * A row of a performance table: CPU (runner) | the ratios | wall | peak memory | memory ratio;
 * `measured` names the workflow's keys with `*` for the figure (`file_*_50k`).
 */
function row(label: string, measured: string, ratios: string, memoryRatio: string): string {
	const figure = (name: string, format = '') =>
		`{events_real_${measured.replace('*', name)}${format}}`;
	return `| ${label} | ${figure('cpu_s')} s (${figure('runner_cpu_s')} s) | ${ratios} | ${figure('wall_s', ':0')} s | ${figure('peak_rss_mib')} MiB | ${memoryRatio} |`;
}

/** A ratio of the file-fed comparison: `<workflow>_vs_<baseline>_<ratio>_<size>`. */
const vs = (workflow: string, baseline: string, ratio: string) =>
	`{events_real_${workflow}_vs_${baseline}_${ratio}_${SIZE}}`;
const AUTH = 'extractCodeHttpAuth';
const PLAIN = 'extractCodeHttp';
const compared = (workflow: string) =>
	`**${vs(workflow, AUTH, 'cpu_ratio')}** | **${vs(workflow, PLAIN, 'cpu_ratio')}** | **${vs(workflow, AUTH, 'cpu_above_idle_ratio')}**`;

/**
 * A row of the Create or Update table: requests, writes and minutes at the reference budgets, the
 * ratio to the node, re-run writes, and the race (`<workflow>` as in `contacts_<workflow>_5k_…`).
 */
function upsertRow(label: string, workflow: string, ratio: string): string {
	const at = (figure: string) => `{contacts_${workflow}_5k_${figure}}`;
	const race = (figure: string) => `{contacts_${workflow}_500_two_at_once_${figure}}`;
	const paced = workflow === 'per_row' ? '–' : at('paced_minutes');
	return `| ${label} | ${at('listing_requests')} | ${at('org_requests')} | ${at('writes')} | ${at('minutes_at_reference_budgets')} | ${paced} | ${ratio} | ${at('rerun_writes')} | ${race('failed_runs')} of 2 | ${race('duplicates')} |`;
}

const QUOTES: Array<[doc: string, quote: string]> = [
	[
		'docs/campaigns.md',
		'`running` {campaign_real_free_worker_running_s} s of its {campaign_real_free_worker_wall_s} s and `waiting` the rest; the same campaign holding its worker was\n`running` all its {campaign_real_held_worker_running_s} s',
	],
	[
		'docs/campaigns.md',
		'The freeing run canceled {campaign_real_free_worker_canceled_calls} of its {campaign_real_free_worker_calls}\ncalls before they rang; the holding run canceled {campaign_real_held_worker_canceled_calls} of its {campaign_real_held_worker_calls}\n',
	],
	[
		'docs/campaigns.md',
		"placed {campaign_calls_placed} calls, the {campaign_calls_expected} the people's results call for; {campaign_calls_outside_window} started outside a window, {campaign_calls_twice} twice for\none try, at most {campaign_peak_live} live at once; {campaign_requests_per_person} requests per person (one placement per call, and {campaign_listing_requests} listing\nrequests in all), over {campaign_simulated_hours} hours",
	],
	[
		'README.md',
		`{events_real_comparison_rows} rows from a file cost ${vs('file', AUTH, 'cpu_ratio')}× the CPU`,
	],
	[
		'README.md',
		`Header Auth credential and ${vs('file', AUTH, 'peak_rss_ratio')}× its memory ({events_real_pairs_${SIZE}} pair`,
	],
	[
		'README.md',
		'1,000,000 rows went in\n{events_file_requests_1m} requests at {events_file_peak_rss_mib_1m} MiB',
	],
	[
		'docs/contacts.md',
		'Validate Only said {contacts_validate_only_created} would_create, {contacts_validate_only_updated} would_update, {contacts_validate_only_unchanged} unchanged, {contacts_validate_only_merged}\nmerged, {contacts_validate_only_refused} refused with {contacts_validate_only_dry_writes} writes; the real run then made exactly those counts ({contacts_validate_only_real_writes} writes,\nthe budgets out of reach), and a re-run wrote {contacts_validate_only_rerun_writes}.',
	],
	['docs/events.md', 'a million rows peaked at {events_file_peak_rss_mib_1m} MiB'],
	['docs/performance.md', `{events_real_comparison_rows} rows, {events_real_pairs_${SIZE}} pair`],
	['docs/performance.md', `| workflow ({events_real_comparison_rows} rows, `],
	['docs/performance.md', row("idle (n8n's start and exit)", `idle_*_${SIZE}`, '– | – | –', '–')],
	[
		'docs/performance.md',
		row(
			'Event → Send from the file',
			`file_*_${SIZE}`,
			compared('file'),
			vs('file', AUTH, 'peak_rss_ratio'),
		),
	],
	[
		'docs/performance.md',
		row(
			'Extract from File → Event → Send, Map Automatically',
			`extractAutomatic_*_${SIZE}`,
			compared('extractAutomatic'),
			vs('extractAutomatic', AUTH, 'peak_rss_ratio'),
		),
	],
	[
		'docs/performance.md',
		row(
			'Extract from File → Code → HTTP Request, plain header',
			`${PLAIN}_*_${SIZE}`,
			`${vs(PLAIN, AUTH, 'cpu_ratio')} | 1 | ${vs(PLAIN, AUTH, 'cpu_above_idle_ratio')}`,
			vs(PLAIN, AUTH, 'peak_rss_ratio'),
		),
	],
	[
		'docs/performance.md',
		row(
			'Extract from File → Code → HTTP Request, Header Auth',
			`${AUTH}_*_${SIZE}`,
			`1 | ${vs(AUTH, PLAIN, 'cpu_ratio')} | 1`,
			'1',
		),
	],
	// runs before 2026-11-26 did not record the load average
	...(RESULTS[`events_real_load_average_max_${SIZE}`] === undefined
		? []
		: ([
				[
					'docs/performance.md',
					`load average {events_real_load_average_min_${SIZE}:1} to {events_real_load_average_max_${SIZE}:1}`,
				],
			] as Array<[string, string]>)),
	[
		'docs/performance.md',
		'{events_real_file_cpu_s_1m} s of CPU ({events_real_file_runner_cpu_s_1m:1} s the task runner),\n{events_real_file_wall_s_1m:0} s wall, a {events_file_peak_rss_mib_1m} MiB peak, {events_file_requests_1m} requests',
	],
	[
		'docs/performance.md',
		row(
			'Event → Send, Map Automatically',
			'automatic_*_10k',
			'**{events_real_cpu_ratio_vs_code_http_10k}**',
			'{events_real_peak_rss_ratio_vs_code_http_10k}',
		),
	],
	[
		'docs/performance.md',
		row(
			'Event → Send, Map Each Field Below, dragged fields (`{{ $json.email }}`)',
			'fields_*_10k',
			'**{events_real_fields_cpu_ratio_vs_code_http_10k}**',
			'{events_real_fields_peak_rss_ratio_vs_code_http_10k}',
		),
	],
	[
		'docs/performance.md',
		row(
			'Event → Send, JSON, one computed expression per item',
			'json_*_10k',
			'**{events_real_json_cpu_ratio_vs_code_http_10k}**',
			'{events_real_json_peak_rss_ratio_vs_code_http_10k}',
		),
	],
	[
		'docs/performance.md',
		row(
			'Code node grouping rows by 100 + HTTP Request (the baseline)',
			'codeHttp_*_10k',
			'**1.00**',
			'1.00',
		),
	],
	...(
		[
			['Contact → Create or Update', 'upsert', '1'],
			[
				'read once: Get Many (Return All) → Compare Datasets → Create / Update',
				'read_once',
				'**{contacts_upsert_5k_speedup_vs_read_once_at_reference_budgets:2}**',
			],
			[
				'per row: Get Many per row → Create / Update',
				'per_row',
				'**{contacts_upsert_5k_speedup_at_reference_budgets:2}**',
			],
		] as const
	).map(([label, workflow, ratio]): [string, string] => [
		'docs/performance.md',
		upsertRow(label, workflow, ratio),
	]),
	[
		'docs/performance.md',
		'| the bound: one write a row at 120 a minute | – | – | {contacts_upsert_5k_writes} | {contacts_5k_write_bound_minutes:1} | – |',
	],
	[
		'docs/performance.md',
		'here the other one sent the same rows, so\n  {contacts_read_once_500_two_at_once_rows_not_held} rows ended without their values',
	],
	[
		'docs/contacts.md',
		'take\n{contacts_upsert_5k_listing_requests} listing and {contacts_upsert_5k_org_requests} organization requests: {contacts_upsert_5k_minutes_at_reference_budgets:1} minutes of the organization budget',
	],
	['docs/contacts.md', 'they took {contacts_upsert_5k_paced_minutes:1} minutes'],
	[
		'nodes/VoiceAgentCrm/actions/contact/upsert/fields.ts',
		'{contacts_upsert_5k_writes} new or changed rows take about {contacts_upsert_5k_minutes_at_reference_budgets:0} minutes',
	],
	[
		'docs/contacts.md',
		'the {contacts_upsert_5k_writes} writes alone are {contacts_5k_write_bound_minutes:1} minutes of that budget',
	],
	[
		'docs/contacts.md',
		'costs the same: the node is {contacts_upsert_5k_speedup_vs_read_once_at_reference_budgets:2}× as fast',
	],
	[
		'docs/contacts.md',
		'Update: {contacts_per_row_5k_listing_requests} listings at 20 a minute)\ntakes {contacts_per_row_5k_minutes_at_reference_budgets} minutes: the node is {contacts_upsert_5k_speedup_at_reference_budgets:2}× as fast',
	],
	[
		'docs/contacts.md',
		'a re-run of the same rows writes {contacts_upsert_5k_rerun_writes} contacts (read once: {contacts_read_once_5k_rerun_writes}, per row: {contacts_per_row_5k_rerun_writes})',
	],
	[
		'docs/contacts.md',
		"at once over the same 500 rows {contacts_upsert_500_two_at_once_failed_runs} of the node's 2 fail, {contacts_read_once_500_two_at_once_failed_runs} of the read-once workflow's 2",
	],
	...(['free_worker', 'held_worker'] as const).map((mode): [string, string] => [
		'docs/performance.md',
		`| {campaign_real_${mode}_running_s} s | {campaign_real_${mode}_waiting_s} s | {campaign_real_${mode}_wall_s} s | {campaign_real_${mode}_calls} | {campaign_real_${mode}_canceled_calls} |`,
	]),
];

/** The quote with results.json's figures in place of its keys. */
function filled(quote: string): string {
	return quote.replace(/{(\w+)(?::(\d))?}/g, (_, key: string, decimals?: string) => {
		const value = RESULTS[key];
		if (value === undefined) throw new Error(`bench/results.json has no ${key}`);
		const digits = decimals === undefined ? undefined : Number(decimals);
		return value.toLocaleString('en', {
			minimumFractionDigits: digits,
			maximumFractionDigits: digits ?? 20,
		});
	});
}

describe("the docs' benchmark figures", () => {
	it.each(QUOTES)('%s quotes bench/results.json: %s', (doc, quote) => {
		expect(readFileSync(path.join(ROOT, doc), 'utf8')).toContain(filled(quote));
	});
});
