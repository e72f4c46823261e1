#!/usr/bin/env bash
# Measures the per-call overhead of `toolctl run` as a whole process: a
# builtin (calculator) and the bundled JavaScript tool (json_transformer),
# next to `node -e` running the same JavaScript code on the same input. It
# prints the median and the 10th/90th percentile wall time of -n runs of each
# and the ratios, as a Markdown table.
#
#   bench/run.sh [-n 200]
set -euo pipefail

n=200
while (($#)); do
	case $1 in
	-n) n=${2:?-n needs a number}; shift 2 ;;
	-h | -help | --help) sed -n '2,9s/^# \{0,1\}//p' "$0"; exit 0 ;;
	*) echo "run.sh: unknown argument $1" >&2; exit 2 ;;
	esac
done
[[ $n =~ ^[1-9][0-9]*$ ]] || { echo "run.sh: -n takes a positive number" >&2; exit 2; }

repo=$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
(cd "$repo" && go build -o "$tmp/toolctl" .)

input='{"data": {"user": {"id": 7, "name": "Ada"}, "items": [{"sku": "a"}, {"sku": "b"}]}, "mapping": {"id": "user.id", "first": "items.0.sku"}}'
# The same code node runs: the tool file's entry.code, then one call.
code=$("$tmp/toolctl" show json_transformer "$repo/tools" --output json | python3 -c 'import json,sys; print(json.load(sys.stdin)["entry"]["code"])')
printf '%s\nconsole.log(JSON.stringify(execute(%s)));\n' "$code" "$input" >"$tmp/node.js"

# time_runs LABEL CMD...: runs CMD n times (after 3 warm-up runs) and prints
# "LABEL p10 median p90" in milliseconds.
time_runs() {
	local label=$1
	shift
	for _ in 1 2 3; do "$@" >/dev/null; done
	python3 - "$n" "$label" "$@" <<'PY'
import statistics, subprocess, sys, time
n, label, cmd = int(sys.argv[1]), sys.argv[2], sys.argv[3:]
ts = []
for _ in range(n):
    t = time.perf_counter()
    subprocess.run(cmd, stdout=subprocess.DEVNULL, check=True)
    ts.append((time.perf_counter() - t) * 1000)
ts.sort()
print(label, round(ts[len(ts) // 10], 2), round(statistics.median(ts), 2), round(ts[len(ts) * 9 // 10], 2))
PY
}

cd "$repo"
results=()
results+=("$(time_runs builtin "$tmp/toolctl" run calculator --expression '2*(3+4)' tools)")
results+=("$(time_runs javascript "$tmp/toolctl" run json_transformer --input "$input" tools)")
if command -v node >/dev/null; then
	results+=("$(time_runs node node -e "$(cat "$tmp/node.js")")")
fi

echo "| call ($n runs, whole process) | p10 (ms) | median (ms) | p90 (ms) |"
echo "|---|---:|---:|---:|"
declare -A median
for r in "${results[@]}"; do
	read -r label p10 med p90 <<<"$r"
	median[$label]=$med
	case $label in
	builtin) name='`toolctl run calculator`' ;;
	javascript) name='`toolctl run json_transformer` (goja)' ;;
	node) name='`node -e` same code and input' ;;
	esac
	echo "| $name | $p10 | $med | $p90 |"
done
if [[ -n ${median[node]:-} ]]; then
	python3 -c "import sys; b, j, n = map(float, sys.argv[1:]); print(f'\ntoolctl javascript / node: {j / n:.2f}x; toolctl builtin / node: {b / n:.2f}x')" "${median[builtin]}" "${median[javascript]}" "${median[node]}"
fi
