#!/usr/bin/env bash
# Times `toolctl lint` against a parse-only floor and against ajv-cli and
# Spectral on one synthetic corpus, and prints a Markdown table.
#
#   bench/lint.sh [-n 10000] [-runs 3] [-seed 1] [-dangling 5] [-skip ajv,spectral] [DIR]
#
# DIR is generated (bench/gencorpus) when it is empty or missing; without DIR
# the corpus is cached in ${XDG_CACHE_HOME:-~/.cache}/toolctl-bench, keyed by
# -n, -seed, -dangling and the generator's source. -dangling is the share of
# files (percent) with a related tool that is not in the set, as in real
# repositories: toolctl reports each (with a did-you-mean), the peers have no
# such check. The npm tools are installed in the cache too, once. The runs
# are interleaved (run 1 of every tool, then run 2, ...), so that a load
# change on a shared machine hits every tool alike; each tool's wall time is
# the best and the median of -runs runs, its CPU time (user + system) the
# median, its peak RSS the largest. A tool whose run fails is reported, not
# timed. -skip leaves out npm tools (Spectral takes minutes on 10,000 files).
set -euo pipefail

usage() {
	sed -n '2,17s/^# \{0,1\}//p' "$0"
	exit "${1:-0}"
}

n=10000
runs=3
seed=1
dangling=5
dir=""
skip=""
while (($#)); do
	case $1 in
	-n) n=${2:?-n needs a number}; shift 2 ;;
	-runs) runs=${2:?-runs needs a number}; shift 2 ;;
	-seed) seed=${2:?-seed needs a number}; shift 2 ;;
	-dangling) dangling=${2:?-dangling needs a percentage}; shift 2 ;;
	-skip) skip=,${2:?-skip needs ajv, spectral or both},; shift 2 ;;
	-h | -help | --help) usage 0 ;;
	-*) echo "lint.sh: unknown flag $1" >&2; usage 2 ;;
	*)
		[[ -z $dir ]] || { echo "lint.sh: only one DIR" >&2; usage 2; }
		dir=$1; shift ;;
	esac
done
[[ $n =~ ^[1-9][0-9]*$ && $runs =~ ^[1-9][0-9]*$ ]] || { echo "lint.sh: -n and -runs take positive numbers" >&2; exit 2; }
[[ $dangling =~ ^[0-9]+(\.[0-9]+)?$ ]] || { echo "lint.sh: -dangling takes a percentage" >&2; exit 2; }

repo=$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)
cache=${XDG_CACHE_HOME:-$HOME/.cache}/toolctl-bench
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
mkdir -p "$cache"

log() { printf '%s\n' "$*" >&2; }

log "building toolctl, parseonly and gencorpus"
(
	cd "$repo"
	go build -o "$tmp/toolctl" .
	go build -o "$tmp/parseonly" ./bench/parseonly
	go build -o "$tmp/gencorpus" ./bench/gencorpus
)

# The corpus: generated when DIR is empty or missing.
if [[ -z $dir ]]; then
	gen_hash=$(cat "$repo"/bench/gencorpus/*.go | sha256sum | cut -c1-10)
	dir=$cache/corpus-n$n-seed$seed-dangling$dangling-$gen_hash
fi
if [[ ! -d $dir ]] || [[ -z $(ls -A "$dir") ]]; then
	log "generating $n files into $dir"
	rm -rf "$dir.partial"
	"$tmp/gencorpus" -n "$n" -seed "$seed" -dangling "$dangling" "$dir.partial"
	rm -rf "$dir"
	mv "$dir.partial" "$dir"
fi
dir=$(cd "$dir" && pwd)
files=$("$tmp/parseonly" "$dir") # also warms the page cache for every tool
log "corpus: $files files in $dir"

# The timer: GNU time, else Debian's package, else getrusage from python3.
timer=()
if [[ ! -x /usr/bin/time ]] && command -v apt-get >/dev/null && [[ $(id -u) == 0 ]]; then
	log "installing GNU time"
	apt-get install -y -qq time >/dev/null 2>&1 || { apt-get update -qq >/dev/null 2>&1 && apt-get install -y -qq time >/dev/null 2>&1; } || true
fi
if [[ -x /usr/bin/time ]] && /usr/bin/time -f '%e %U %S %M' -o /dev/null true 2>/dev/null; then
	timer=(/usr/bin/time -f '%e %U %S %M' -o)
else
	cat >"$tmp/timer.py" <<'EOF'
# Usage: timer.py OUT CMD...: writes "wall user sys max_rss_kb" to OUT and
# exits with CMD's status, like GNU time -f '%e %U %S %M' -o OUT.
import resource, subprocess, sys, time
start = time.monotonic()
code = subprocess.call(sys.argv[2:])
wall = time.monotonic() - start
ru = resource.getrusage(resource.RUSAGE_CHILDREN)
with open(sys.argv[1], "w") as f:
    f.write("%.2f %.2f %.2f %d\n" % (wall, ru.ru_utime, ru.ru_stime, ru.ru_maxrss))
sys.exit(code)
EOF
	timer=(python3 "$tmp/timer.py")
	log "GNU time unavailable; timing with python3 getrusage"
fi

lint_cmd=(lint "$dir")
if ! "$tmp/toolctl" lint --help >/dev/null 2>&1; then
	log "toolctl has no lint command yet: timing 'toolctl list' as a stand-in"
	lint_cmd=(list "$dir")
fi
if [[ ${lint_cmd[0]} == lint ]]; then
	"$tmp/toolctl" lint --fail-on info --format json "$dir" >"$tmp/precheck.json" 2>/dev/null || true
	# Findings other than the dangling references would make the runs time
	# printing them as well.
	others=$(grep -o '"rule": *"[^"]*"' "$tmp/precheck.json" | grep -vc '"reference-unknown"' || true)
	refs=$(grep -o '"rule": *"reference-unknown"' "$tmp/precheck.json" | wc -l)
	log "toolctl lint finds $refs dangling references"
	[[ $others == 0 ]] || log "warning: toolctl lint reports $others other findings on the corpus"
fi

# ajv-cli and Spectral, from npm, installed once into the cache.
npm_dir=$cache/npm
npm_tools=(ajv-cli@5 ajv-formats@3 @stoplight/spectral-cli@6)
npm_status=""
if [[ ! -x $npm_dir/node_modules/.bin/ajv || ! -x $npm_dir/node_modules/.bin/spectral ]]; then
	if ! command -v npm >/dev/null || ! command -v node >/dev/null; then
		npm_status="npm not installed"
	else
		log "installing ${npm_tools[*]} into $npm_dir"
		mkdir -p "$npm_dir"
		[[ -f $npm_dir/package.json ]] || echo '{"private": true}' >"$npm_dir/package.json"
		if ! timeout 600 npm install --prefix "$npm_dir" --no-audit --no-fund --loglevel=error "${npm_tools[@]}" >"$tmp/npm.log" 2>&1; then
			tail -n 5 "$tmp/npm.log" >&2
			npm_status="npm unreachable"
		fi
	fi
fi

# The tools, in the order they run in each round: LABEL OKCODES CMD...
labels=(parse-only toolctl)
okcodes=("0" "0 1")
cmd_parse_only=("$tmp/parseonly" "$dir")
cmd_toolctl=("$tmp/toolctl" "${lint_cmd[@]}")
versions=""
if [[ -z $npm_status ]]; then
	# One self-contained schema for both: see bench/bundle-schema.js.
	draft07=$npm_dir/node_modules/ajv/dist/refs/json-schema-draft-07.json
	node "$repo/bench/bundle-schema.js" "$repo/bench/tool-lint.schema.json" "$repo/schema/tool.schema.json" "$draft07" >"$tmp/tool-lint.bundle.json"
	node "$repo/bench/bundle-schema.js" "$repo/bench/tool-lint.schema.json" "$repo/schema/tool.schema.json" "$draft07" "$repo/bench/spectral.yaml" >"$tmp/spectral.yaml"
	glob="$dir/**/*.{yaml,yml,json}"
	cmd_ajv=("$npm_dir/node_modules/.bin/ajv" validate --spec=draft2020 --allow-union-types -c ajv-formats -s "$tmp/tool-lint.bundle.json" -d "$glob" --errors=line)
	cmd_spectral=("$npm_dir/node_modules/.bin/spectral" lint --quiet --ruleset "$tmp/spectral.yaml" "$glob")
	[[ $skip == *,ajv,* ]] || { labels+=(ajv); okcodes+=("0"); }
	[[ $skip == *,spectral,* ]] || { labels+=(spectral); okcodes+=("0"); }
	versions="ajv-cli $(node -p "require('$npm_dir/node_modules/ajv-cli/package.json').version") (ajv $(node -p "require('$npm_dir/node_modules/ajv/package.json').version")), spectral-cli $("$npm_dir/node_modules/.bin/spectral" --version), node $(node --version)"
fi

# run_once LABEL OKCODES: runs the tool once; appends "LABEL wall cpu rss"
# to $tmp/samples, or "LABEL failed: why" to $tmp/failed (and the tool is
# not run again).
run_once() {
	local label=$1 ok=$2 code=0 wall user sys rss
	local -n cmd="cmd_${label//-/_}"
	"${timer[@]}" "$tmp/time" "${cmd[@]}" >"$tmp/$label.out" 2>"$tmp/$label.err" || code=$?
	if [[ " $ok " != *" $code "* ]]; then
		log "$label: exit status $code; last lines of its output:"
		tail -n 5 "$tmp/$label.out" "$tmp/$label.err" >&2
		echo "$label failed: exit status $code" >>"$tmp/failed"
		return 0
	fi
	# GNU time writes "Command exited with non-zero status N" first.
	read -r wall user sys rss < <(tail -n 1 "$tmp/time")
	echo "$label $wall $(awk -v u="$user" -v s="$sys" 'BEGIN { printf "%.2f", u + s }') $rss" >>"$tmp/samples"
}

: >"$tmp/samples"
: >"$tmp/failed"
load_before=$(cut -d' ' -f1-3 /proc/loadavg 2>/dev/null || echo "?")
for ((i = 1; i <= runs; i++)); do
	for j in "${!labels[@]}"; do
		label=${labels[$j]}
		grep -q "^$label failed" "$tmp/failed" && continue
		log "$label: run $i/$runs"
		run_once "$label" "${okcodes[$j]}"
		if [[ $label == ajv && $i == 1 ]] && ! grep -q "^ajv failed" "$tmp/failed"; then
			checked=$(grep -c ' valid$' "$tmp/ajv.out" "$tmp/ajv.err" | awk -F: '{s += $NF} END {print s}')
			[[ $checked == "$files" ]] || log "warning: ajv validated $checked files, not $files"
		fi
	done
done
load_after=$(cut -d' ' -f1-3 /proc/loadavg 2>/dev/null || echo "?")

# The report. stat LABEL FIELD: best|median of wall, median of cpu, max rss.
column() { awk -v l="$1" -v f="$2" '$1 == l {print $f}' "$tmp/samples" | sort -n; }
median() { column "$1" "$2" | awk '{v[NR] = $1} END {if (NR) print v[int((NR + 1) / 2)]}'; }
best() { column "$1" 2 | head -n1; }
peak() { column "$1" 4 | tail -n1; }
ratio() { # ratio A B FIELD: median of A over median of B
	local a b
	a=$(median "$1" "$3")
	b=$(median "$2" "$3")
	if [[ -n $a && -n $b ]]; then
		awk -v a="$a" -v b="$b" 'BEGIN { if (b > 0) printf "%.1f×", a / b; else print "n/a" }'
	else
		echo "n/a"
	fi
}
row() { # row LABEL WHAT
	local f
	f=$(grep "^$1 failed" "$tmp/failed" || true)
	if [[ -n $f ]]; then
		echo "| $2 | ${f#"$1 "} | | | |"
	elif [[ -z $(column "$1" 2) ]]; then
		echo "| $2 | skipped (${npm_status:-"-skip"}) | | | |"
	else
		awk -v what="$2" -v b="$(best "$1")" -v m="$(median "$1" 2)" -v c="$(median "$1" 3)" -v r="$(peak "$1")" \
			'BEGIN { printf "| %s | %.2f | %.2f | %.2f | %.0f |\n", what, b, m, c, r / 1024 }'
	fi
}

cpu=$(awk -F': ' '/model name/ {print $2; exit}' /proc/cpuinfo 2>/dev/null || true)
echo
echo "Corpus: $files files ($(du -sh "$dir" | cut -f1)), $dangling% with a dangling reference, in $dir"
echo "Machine: $(nproc) CPUs${cpu:+ ($cpu)}, load average $load_before before and $load_after after, $(go version | awk '{print $3}')${versions:+, $versions}"
echo
echo "| tool | wall best (s) | wall median (s) | CPU median (s) | peak RSS (MB) |"
echo "|---|---:|---:|---:|---:|"
row parse-only "parse only (yaml.v3 → yaml.Node, GOMAXPROCS workers)"
row toolctl "toolctl ${lint_cmd[0]}"
row ajv "ajv-cli validate (bench/tool-lint.schema.json)"
row spectral "spectral lint (bench/spectral.yaml)"
echo
echo "Ratios of medians, wall (CPU): toolctl/parse-only $(ratio toolctl parse-only 2) ($(ratio toolctl parse-only 3)), ajv/toolctl $(ratio ajv toolctl 2) ($(ratio ajv toolctl 3)), spectral/toolctl $(ratio spectral toolctl 2) ($(ratio spectral toolctl 3))"
if [[ -n $npm_status ]]; then
	echo
	echo "ajv-cli: skipped ($npm_status)"
	echo "spectral: skipped ($npm_status)"
fi
if [[ ${lint_cmd[0]} != lint ]]; then
	echo
	echo "Note: toolctl has no lint command in this build; 'toolctl list' was timed as a stand-in."
fi
