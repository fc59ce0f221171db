#!/usr/bin/env bash
# `npm run test:n8n:all`: the three real-n8n suites CI runs, two at a time on the 2-core machine.
#
#   1. the pinned n8n with the editor in Chromium (npm run test:n8n);
#   2. once that run's editor checks are over (the file TEST_N8N_EDITOR_DONE_FILE names, written by
#      run.cts; a state, not a time), queue mode (npm run test:n8n:queue) beside it;
#   3. once the pinned run has ended, the newest 2.x the registry here installs, on n8n's durable
#      scheduler, without the browser part and the campaign's restarts (the pinned run's subjects);
#   4. a command given as arguments (CI gives `npm test`), once that run has ended: the queue
#      suite, the longest, is still running then, and the command would otherwise wait for it.
#
# One after another they took 2,053 s; three at once lost races in the editor's checks. The editor
# runs alone; then never more than two n8n suites share the machine. Each suite's lines carry its
# name; every suite runs to its end whatever the others do, and the time and outcome of each are
# printed last. Exits 1 when any failed.
set -euo pipefail
cd "$(dirname "$0")/../.."

NEWEST_N8N=2.41.1
mkdir -p test/.tmp
editor_done="$PWD/test/.tmp/n8n-editor-done"
rm -f "$editor_done" test/.tmp/n8n-all-*.result

# <label> <command…>: runs the command, its lines prefixed with the label; notes its time and status
suite() {
	local label="$1" start=$SECONDS status=0
	shift
	"$@" 2>&1 | sed -u "s/^/[$label] /" || status=$?
	echo "$((SECONDS - start)) s  $label: $([[ $status == 0 ]] && echo passed || echo "failed ($status)")" \
		>"test/.tmp/n8n-all-$label.result"
	return "$status"
}

suite "n8n-pinned" env TEST_N8N_EDITOR_DONE_FILE="$editor_done" npm run test:n8n &
pinned=$!

# the editor's checks end (or the pinned run ends before it gets there)
while [[ ! -f "$editor_done" ]] && kill -0 "$pinned" 2>/dev/null; do sleep 1; done
suite "n8n-queue" env TEST_N8N_SKIP_BUILD=1 npm run test:n8n:queue &
queue=$!

status=0
wait "$pinned" || status=1
suite "n8n-$NEWEST_N8N" env N8N_VERSION="$NEWEST_N8N" TEST_N8N_SKIP_BROWSER=1 TEST_N8N_SKIP_CAMPAIGN=1 \
	TEST_N8N_DURABLE_POLLING=1 TEST_N8N_SKIP_BUILD=1 npm run test:n8n || status=1
labels=(n8n-pinned n8n-queue "n8n-$NEWEST_N8N")
if (($#)); then
	given="${*// /-}"
	suite "$given" "$@" || status=1
	labels+=("$given")
fi
wait "$queue" || status=1

printf '\nSuites:\n'
for label in "${labels[@]}"; do
	printf '  %s\n' "$(cat "test/.tmp/n8n-all-$label.result" 2>/dev/null || echo "$label: did not run")"
done
exit "$status"
