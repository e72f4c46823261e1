#!/usr/bin/env bash
# Times `toolctl lint` against a parse-only floor and against ajv-cli and
# Spectral on one synthetic corpus, and prints a Markdown table.
#
#   bench/lint.sh [-n 10000] [-runs 3] [-seed 1] [-skip ajv,spectral] [DIR]
#
# DIR is generated (bench/gencorpus) when it is empty or missing; without DIR
# the corpus is cached in ${XDG_CACHE_HOME:-~/.cache}/toolctl-bench, keyed by
# -n, -seed and the generator's source. The npm tools are installed there too,
# once. Wall time is the best and the median of -runs runs; peak RSS is the
# largest of the runs. A tool whose run fails is reported, not timed. -skip
# leaves out the npm tools (Spectral takes minutes on 10,000 files).
set -euo pipefail

usage() {
	sed -n '2,13s/^# \{0,1\}//p' "$0"
	exit "${1:-0}"
}

n=10000
runs=3
seed=1
dir=""
skip=""
while (($#)); do
	case $1 in
	-n) n=${2:?-n needs a number}; shift 2 ;;
	-runs) runs=${2:?-runs needs a number}; shift 2 ;;
	-seed) seed=${2:?-seed needs a number}; shift 2 ;;
	-skip) skip=,${2:?-skip needs ajv, spectral or both},; shift 2 ;;
	-h | -help | --help) usage 0 ;;
	-*) echo "lint.sh: unknown flag $1" >&2; usage 2 ;;
	*)
		[[ -z $dir ]] || { echo "lint.sh: only one DIR" >&2; usage 2; }
		dir=$1; shift ;;
	esac
done
[[ $n =~ ^[1-9][0-9]*$ && $runs =~ ^[1-9][0-9]*$ ]] || { echo "lint.sh: -n and -runs take positive numbers" >&2; exit 2; }

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
	dir=$cache/corpus-n$n-seed$seed-$gen_hash
fi
if [[ ! -d $dir ]] || [[ -z $(ls -A "$dir") ]]; then
	log "generating $n files into $dir"
	rm -rf "$dir.partial"
	"$tmp/gencorpus" -n "$n" -seed "$seed" "$dir.partial"
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
if [[ -x /usr/bin/time ]] && /usr/bin/time -f '%e %M' -o /dev/null true 2>/dev/null; then
	timer=(/usr/bin/time -f '%e %M' -o)
else
	cat >"$tmp/timer.py" <<'EOF'
# Usage: timer.py OUT CMD...: writes "wall_seconds max_rss_kb" to OUT and exits
# with CMD's status, like GNU time -f '%e %M' -o OUT.
import resource, subprocess, sys, time
start = time.monotonic()
code = subprocess.call(sys.argv[2:])
wall = time.monotonic() - start
with open(sys.argv[1], "w") as f:
    f.write("%.2f %d\n" % (wall, resource.getrusage(resource.RUSAGE_CHILDREN).ru_maxrss))
sys.exit(code)
EOF
	timer=(python3 "$tmp/timer.py")
	log "GNU time unavailable; timing with python3 getrusage"
fi

# run_timed LABEL OKCODES CMD...: runs CMD -runs times; appends one result
# line "LABEL best median peak_kb" to $tmp/results, or "LABEL failed: why".
# OKCODES lists the exit statuses that count as success (e.g. "0 1").
run_timed() {
	local label=$1 ok=$2 i code walls=() peak=0 wall rss
	shift 2
	for ((i = 1; i <= runs; i++)); do
		log "$label: run $i/$runs"
		code=0
		"${timer[@]}" "$tmp/time" "$@" >"$tmp/$label.out" 2>"$tmp/$label.err" || code=$?
		if [[ " $ok " != *" $code "* ]]; then
			log "$label: exit status $code; last lines of its output:"
			tail -n 5 "$tmp/$label.out" "$tmp/$label.err" >&2
			echo "$label failed: exit status $code" >>"$tmp/results"
			return 0
		fi
		read -r wall rss <"$tmp/time"
		walls+=("$wall")
		if ((rss > peak)); then peak=$rss; fi
	done
	local sorted
	sorted=$(printf '%s\n' "${walls[@]}" | sort -n)
	echo "$label $(head -n1 <<<"$sorted") $(sed -n "$(((runs + 1) / 2))p" <<<"$sorted") $peak" >>"$tmp/results"
}

: >"$tmp/results"
run_timed parse-only "0" "$tmp/parseonly" "$dir"

lint_cmd=(lint "$dir")
if ! "$tmp/toolctl" lint --help >/dev/null 2>&1; then
	log "toolctl has no lint command yet: timing 'toolctl list' as a stand-in"
	lint_cmd=(list "$dir")
fi
if [[ ${lint_cmd[0]} == lint ]] && ! "$tmp/toolctl" lint --fail-on info "$dir" >"$tmp/precheck.out" 2>&1; then
	# Findings would make the runs time printing them as well.
	log "warning: toolctl lint reports findings on the corpus:"
	head -n 5 "$tmp/precheck.out" >&2
fi
run_timed toolctl "0 1" "$tmp/toolctl" "${lint_cmd[@]}"

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
versions=""
if [[ -z $npm_status ]]; then
	# One self-contained schema for both: see bench/bundle-schema.js.
	draft07=$npm_dir/node_modules/ajv/dist/refs/json-schema-draft-07.json
	node "$repo/bench/bundle-schema.js" "$repo/bench/tool-lint.schema.json" "$repo/schema/tool.schema.json" "$draft07" >"$tmp/tool-lint.bundle.json"
	node "$repo/bench/bundle-schema.js" "$repo/bench/tool-lint.schema.json" "$repo/schema/tool.schema.json" "$draft07" "$repo/bench/spectral.yaml" >"$tmp/spectral.yaml"
	glob="$dir/**/*.{yaml,yml,json}"
	[[ $skip == *,ajv,* ]] || run_timed ajv "0" "$npm_dir/node_modules/.bin/ajv" validate --spec=draft2020 --allow-union-types \
		-c ajv-formats -s "$tmp/tool-lint.bundle.json" -d "$glob" --errors=line
	if grep -q '^ajv ' "$tmp/results"; then
		checked=$(grep -c ' valid$' "$tmp/ajv.out" "$tmp/ajv.err" | awk -F: '{s += $NF} END {print s}')
		[[ $checked == "$files" ]] || log "warning: ajv validated $checked files, not $files"
	fi
	[[ $skip == *,spectral,* ]] || run_timed spectral "0" "$npm_dir/node_modules/.bin/spectral" lint --quiet --ruleset "$tmp/spectral.yaml" "$glob"
	versions="ajv-cli $(node -p "require('$npm_dir/node_modules/ajv-cli/package.json').version") (ajv $(node -p "require('$npm_dir/node_modules/ajv/package.json').version")), spectral-cli $("$npm_dir/node_modules/.bin/spectral" --version), node $(node --version)"
fi

# The report.
result() { awk -v l="$1" '$1 == l' "$tmp/results"; }
median_of() { result "$1" | awk 'NF == 4 {print $3}'; }
ratio() {
	local a b
	a=$(median_of "$1")
	b=$(median_of "$2")
	if [[ -n $a && -n $b ]]; then
		awk -v a="$a" -v b="$b" 'BEGIN { if (b > 0) printf "%.1f×", a / b; else print "n/a" }'
	else
		echo "n/a"
	fi
}
row() { # row LABEL WHAT
	local r
	r=$(result "$1")
	if [[ -z $r ]]; then
		echo "| $2 | skipped (${npm_status:-"-skip"}) | | |"
	elif [[ $r == *failed* ]]; then
		echo "| $2 | ${r#"$1 "} | | |"
	else
		awk -v what="$2" '{ printf "| %s | %.2f | %.2f | %.0f |\n", what, $2, $3, $4 / 1024 }' <<<"$r"
	fi
}

cpu=$(awk -F': ' '/model name/ {print $2; exit}' /proc/cpuinfo 2>/dev/null || true)
echo
echo "Corpus: $files files ($(du -sh "$dir" | cut -f1)) in $dir"
echo "Machine: $(nproc) CPUs${cpu:+ ($cpu)}, $(go version | awk '{print $3}')${versions:+, $versions}"
echo
echo "| tool | wall best (s) | wall median (s) | peak RSS (MB) |"
echo "|---|---:|---:|---:|"
row parse-only "parse only (yaml.v3 → yaml.Node, GOMAXPROCS workers)"
row toolctl "toolctl ${lint_cmd[0]}"
row ajv "ajv-cli validate (bench/tool-lint.schema.json)"
row spectral "spectral lint (bench/spectral.yaml)"
echo
echo "Ratios of medians: toolctl/parse-only $(ratio toolctl parse-only), ajv/toolctl $(ratio ajv toolctl), spectral/toolctl $(ratio spectral toolctl)"
if [[ -n $npm_status ]]; then
	echo
	echo "ajv-cli: skipped ($npm_status)"
	echo "spectral: skipped ($npm_status)"
fi
if [[ ${lint_cmd[0]} != lint ]]; then
	echo
	echo "Note: toolctl has no lint command in this build; 'toolctl list' was timed as a stand-in."
fi
