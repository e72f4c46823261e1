#!/usr/bin/env bash
# Measures `toolctl serve` under load: bench/mcpload makes -n tools/call
# requests of the calculator with C concurrent callers, over stdio and over
# Streamable HTTP (one keep-alive connection per caller), against
# `toolctl serve tools/` (`--http` for HTTP) and against reference servers
# written with the official TypeScript SDK (bench/ts-calculator-server.mjs
# and bench/ts-calculator-http-server.mjs: one equivalent calculator tool).
# Over HTTP it also measures two floors that answer fixed bytes
# (bench/httpfloor): net/http's server, and a connection loop on net/http's
# parser alone (-loop), which shows what net/http's connection handling
# costs per request.
# Each transport, server and concurrency runs -runs times, alternating
# (each round runs every transport and server once), and the median run
# (by calls/s) is reported. Prints a Markdown table with
# calls/s, p50/p99 latency, the server's CPU time per call (and mcpload's
# own, the load generator's share of the machine), and the ratio of the
# two servers.
#
#   bench/serve.sh [-n 20000] [-c 1,8] [-runs 3] [-t stdio,http] [-skip-ts]
#
# The TypeScript SDK is installed from npm once into
# ${XDG_CACHE_HOME:-~/.cache}/toolctl-bench/npm-mcp; without npm its rows
# say why they are missing. This is a benchmark, not a test: nothing fails
# on a slow machine.
set -euo pipefail

n=20000
conc=1,8
runs=3
transports=stdio,http
skip_ts=""
while (($#)); do
	case $1 in
	-n) n=${2:?-n needs a number}; shift 2 ;;
	-c) conc=${2:?-c needs a list of concurrencies, e.g. 1,8}; shift 2 ;;
	-runs) runs=${2:?-runs needs a number}; shift 2 ;;
	-t) transports=${2:?-t needs a list of transports, e.g. stdio,http}; shift 2 ;;
	-skip-ts) skip_ts=1; shift ;;
	-h | -help | --help) sed -n '2,24s/^# \{0,1\}//p' "$0"; exit 0 ;;
	*) echo "serve.sh: unknown argument $1" >&2; exit 2 ;;
	esac
done
[[ $n =~ ^[1-9][0-9]*$ ]] || { echo "serve.sh: -n takes a positive number" >&2; exit 2; }
[[ $runs =~ ^[1-9][0-9]*$ ]] || { echo "serve.sh: -runs takes a positive number" >&2; exit 2; }
[[ $conc =~ ^[1-9][0-9]*(,[1-9][0-9]*)*$ ]] || { echo "serve.sh: -c takes numbers separated by commas, e.g. 1,8" >&2; exit 2; }
[[ $transports =~ ^(stdio|http)(,(stdio|http))*$ ]] || { echo "serve.sh: -t takes stdio, http or stdio,http" >&2; exit 2; }

repo=$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
log() { echo "serve.sh: $*" >&2; }

(cd "$repo" && go build -o "$tmp/toolctl" . && go build -o "$tmp/mcpload" ./bench/mcpload && go build -o "$tmp/httpfloor" ./bench/httpfloor)

# The reference server: the official TypeScript SDK from npm, once.
sdk_version=1.32.2
npm_dir=${XDG_CACHE_HOME:-$HOME/.cache}/toolctl-bench/npm-mcp
ts_status=""
if [[ -n $skip_ts ]]; then
	ts_status="-skip-ts"
elif ! command -v node >/dev/null || ! command -v npm >/dev/null; then
	ts_status="node/npm not installed"
elif [[ ! -f $npm_dir/node_modules/@modelcontextprotocol/sdk/package.json ]] ||
	[[ $(node -p "require('$npm_dir/node_modules/@modelcontextprotocol/sdk/package.json').version") != "$sdk_version" ]]; then
	log "installing @modelcontextprotocol/sdk@$sdk_version into $npm_dir"
	mkdir -p "$npm_dir"
	[[ -f $npm_dir/package.json ]] || echo '{"private": true}' >"$npm_dir/package.json"
	if ! timeout 600 npm install --prefix "$npm_dir" --no-audit --no-fund --loglevel=error "@modelcontextprotocol/sdk@$sdk_version" zod@3 >"$tmp/npm.log" 2>&1; then
		tail -n 5 "$tmp/npm.log" >&2
		ts_status="npm unreachable"
	fi
fi
if [[ -z $ts_status ]]; then
	# ESM resolves packages from the script's own directory.
	cp "$repo/bench/ts-calculator.mjs" "$repo/bench/ts-calculator-server.mjs" "$repo/bench/ts-calculator-http-server.mjs" "$npm_dir/"
fi

# load TRANSPORT LABEL C: one mcpload run, its JSON report appended to
# results. {port} is a free port mcpload picks.
results=$tmp/results.jsonl
load() {
	local transport=$1 label=$2 c=$3
	local cmd http=()
	case $transport/$label in
	stdio/toolctl) cmd=("$tmp/toolctl" serve "$repo/tools") ;;
	stdio/ts) cmd=(node "$npm_dir/ts-calculator-server.mjs") ;;
	http/toolctl) cmd=("$tmp/toolctl" serve --http '127.0.0.1:{port}' "$repo/tools"); http=(-http 'http://127.0.0.1:{port}/mcp') ;;
	http/ts) cmd=(node "$npm_dir/ts-calculator-http-server.mjs" '{port}'); http=(-http 'http://127.0.0.1:{port}/mcp') ;;
	http/floor) cmd=("$tmp/httpfloor" '{port}'); http=(-http 'http://127.0.0.1:{port}/mcp') ;;
	http/loop) cmd=("$tmp/httpfloor" -loop '{port}'); http=(-http 'http://127.0.0.1:{port}/mcp') ;;
	esac
	"$tmp/mcpload" -json -label "$transport/$label" -n "$n" -c "$c" "${http[@]}" -- "${cmd[@]}" >>"$results"
}

IFS=, read -ra cs <<<"$conc"
IFS=, read -ra ts_list <<<"$transports"
# Round by round, every transport and server back to back: a load change
# on a shared machine then hits stdio and HTTP alike, and their ratio holds.
for c in "${cs[@]}"; do
	for ((r = 1; r <= runs; r++)); do
		for t in "${ts_list[@]}"; do
			log "$t, concurrency $c, run $r/$runs"
			load "$t" toolctl "$c"
			[[ -n $ts_status ]] || load "$t" ts "$c"
			if [[ $t == http ]]; then
				load "$t" floor "$c"
				load "$t" loop "$c"
			fi
		done
	done
done

versions="toolctl $(cd "$repo" && git describe --always --dirty 2>/dev/null || echo dev), $(go version | cut -d' ' -f3)"
[[ -n $ts_status ]] || versions+=", @modelcontextprotocol/sdk $sdk_version, node $(node --version)"
python3 - "$results" "$n" "$(nproc)" "$versions" "$ts_status" <<'PY'
import json, statistics, sys
path, n, cpus, versions, ts_status = sys.argv[1], sys.argv[2], sys.argv[3], sys.argv[4], sys.argv[5]
runs = [json.loads(l) for l in open(path)]
def median_run(label, c):
    rs = sorted((r for r in runs if r["label"] == label and r["concurrency"] == c), key=lambda r: r["calls_per_sec"])
    return rs[len(rs) // 2] if rs else None
names = {"toolctl": "toolctl serve (calculator builtin)", "ts": "TypeScript SDK reference", "floor": "Go net/http floor (fixed bytes, bench/httpfloor)", "loop": "Go connection loop, no net/http server (bench/httpfloor -loop)"}
print(f"| server ({n} tools/call, {cpus} CPUs) | transport | callers | calls/s | p50 (ms) | p99 (ms) | server CPU (µs/call) | mcpload CPU (µs/call) |")
print("|---|---|---:|---:|---:|---:|---:|---:|")
transports = [t for t in ("stdio", "http") if any(r["label"].startswith(t + "/") for r in runs)]
for tr in transports:
    for c in sorted({r["concurrency"] for r in runs if r["label"].startswith(tr + "/")}):
        t, s = median_run(tr + "/toolctl", c), median_run(tr + "/ts", c)
        for label, r in (("toolctl", t), ("ts", s)):
            if r:
                print(f"| {names[label]} | {tr} | {c} | {r['calls_per_sec']:,.0f} | {r['p50_ms']:.3f} | {r['p99_ms']:.3f} | {r['server_cpu_us_per_call']:.0f} | {r.get('client_cpu_us_per_call', 0):.0f} |")
            elif label == "ts":
                print(f"| {names[label]} | {tr} | {c} | skipped ({ts_status}) | | | | |")
        if t and s:
            print(f"| **toolctl / TypeScript** | {tr} | {c} | **{t['calls_per_sec'] / s['calls_per_sec']:.2f}x** | {t['p50_ms'] / s['p50_ms']:.2f}x | {t['p99_ms'] / s['p99_ms']:.2f}x | {t['server_cpu_us_per_call'] / s['server_cpu_us_per_call']:.2f}x | |")
        for label in ("floor", "loop"):
            f = median_run(tr + "/" + label, c)
            if f:
                print(f"| {names[label]} | {tr} | {c} | {f['calls_per_sec']:,.0f} | {f['p50_ms']:.3f} | {f['p99_ms']:.3f} | {f['server_cpu_us_per_call']:.0f} | {f.get('client_cpu_us_per_call', 0):.0f} |")
if set(transports) == {"stdio", "http"}:
    print()
    for c in sorted({r["concurrency"] for r in runs}):
        h, s = median_run("http/toolctl", c), median_run("stdio/toolctl", c)
        f, l = median_run("http/floor", c), median_run("http/loop", c)
        if h and s:
            floor = f" (the net/http floor: {f['server_cpu_us_per_call'] / s['server_cpu_us_per_call']:.2f}x, p99 {f['p99_ms']:.2f} ms" if f else ""
            if l:
                floor += ("; " if floor else " (") + f"the connection loop: {l['server_cpu_us_per_call'] / s['server_cpu_us_per_call']:.2f}x, p99 {l['p99_ms']:.2f} ms"
            floor += ")" if floor else ""
            print(f"toolctl, {c} caller(s): server CPU per call over HTTP is {h['server_cpu_us_per_call'] / s['server_cpu_us_per_call']:.2f}x stdio's; p99 over HTTP {h['p99_ms']:.2f} ms{floor}.")
print()
print(f"Median of the runs by calls/s; {versions}.")
PY
