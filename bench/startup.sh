#!/usr/bin/env bash
# Times short toolctl commands as whole processes on the bundled tools/
# (15 files): version, run calculator, lint and export. The commands run in
# interleaved rounds (hyperfine, -per runs of each command per round), so
# that a load change on a shared machine hits every command alike. It prints
# the median wall time and the median CPU time (user + system) of each, and
# run/version as the median of the per-round ratios, as a Markdown table.
#
#   bench/startup.sh [-rounds 20] [-per 5]
#
# Needs hyperfine (apt-get install hyperfine). GODEBUG=inittrace=1 toolctl
# version shows what package initialisation costs.
set -euo pipefail

rounds=20
per=5
while (($#)); do
	case $1 in
	-rounds) rounds=${2:?-rounds needs a number}; shift 2 ;;
	-per) per=${2:?-per needs a number}; shift 2 ;;
	-h | -help | --help) sed -n '2,13s/^# \{0,1\}//p' "$0"; exit 0 ;;
	*) echo "startup.sh: unknown argument $1" >&2; exit 2 ;;
	esac
done
[[ $rounds =~ ^[1-9][0-9]*$ && $per =~ ^[1-9][0-9]*$ ]] || { echo "startup.sh: -rounds and -per take positive numbers" >&2; exit 2; }
command -v hyperfine >/dev/null || { echo "startup.sh: needs hyperfine (apt-get install hyperfine)" >&2; exit 2; }

repo=$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
(cd "$repo" && go build -o "$tmp/toolctl" .)
cd "$repo"

t=$tmp/toolctl
cmds=(
	"$t version"
	"$t run calculator --expression 1+1"
	"$t lint tools"
	"$t export tools --format openai"
)
labels=(version run lint export)
load_before=$(cut -d' ' -f1-3 /proc/loadavg 2>/dev/null || echo "?")
hyperfine -N --warmup 3 --runs "$per" -i "${cmds[@]}" >/dev/null 2>&1
for ((r = 1; r <= rounds; r++)); do
	hyperfine -N --runs "$per" -i --export-json "$tmp/round$r.json" "${cmds[@]}" >/dev/null 2>&1
done
load_after=$(cut -d' ' -f1-3 /proc/loadavg 2>/dev/null || echo "?")

python3 - "$tmp" "$rounds" "${labels[@]}" <<'PY'
import json, statistics, sys
tmp, rounds, labels = sys.argv[1], int(sys.argv[2]), sys.argv[3:]
walls = {l: [] for l in labels}
cpus = {l: [] for l in labels}
ratios = []
for r in range(1, rounds + 1):
    res = json.load(open(f"{tmp}/round{r}.json"))["results"]
    for l, x in zip(labels, res):
        walls[l] += [t * 1000 for t in x["times"]]
        cpus[l].append((x["user"] + x["system"]) * 1000)
    ratios.append(statistics.median(res[1]["times"]) / statistics.median(res[0]["times"]))
names = {"version": "`toolctl version`", "run": "`toolctl run calculator --expression 1+1`",
         "lint": "`toolctl lint tools` (15 files)", "export": "`toolctl export tools --format openai` (15 files)"}
print("| command | wall median (ms) | wall p10 (ms) | CPU median (ms) |")
print("|---|---:|---:|---:|")
for l in labels:
    w = sorted(walls[l])
    print(f"| {names[l]} | {statistics.median(w):.1f} | {w[len(w) // 10]:.1f} | {statistics.median(cpus[l]):.1f} |")
print(f"\nrun/version: {statistics.median(ratios):.2f}x (median of {rounds} per-round ratios of median wall times)")
PY
echo "Load average: $load_before before, $load_after after; $(nproc) CPUs"
