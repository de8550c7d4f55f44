#!/bin/bash
# Alternating A/B of two idp-bench binaries, for docs/performance.md: each round runs every case with both
# binaries, the order flipped every other round, and prints one line a run:
#   round case build flows/s user-µs-a-flow system-µs-a-flow
# then the medians. The VM's speed moves by 10 % or more within minutes, so only medians of many rounds mean
# anything, and only between binaries measured in the same run.
#
#   scripts/ab-bench.sh BEFORE_BINARY AFTER_BINARY [ROUNDS] [CASES] [PAIRS]
#   e.g. scripts/ab-bench.sh /tmp/ab-pre/.build/release/idp-bench .build/release/idp-bench 12 "1 2 4"
# A case given as B:A runs case B with the before binary and case A with the after one (case 7, default hashing
# with the stored hashes made before timing, exists only since session 12: "5:7" compares it with case 5 of
# builds from before issue 16, which made them at start).
set -euo pipefail
before=$1 after=$2 rounds=${3:-8} cases=${4:-"2 4"} pairs=${5:-20000}
out=$(mktemp)
for round in $(seq 1 "$rounds"); do
    if (( round % 2 )); then order="before after"; else order="after before"; fi
    for c in $cases; do
        for which in $order; do
            binary=${!which}
            if [[ $which == before ]]; then number=${c%%:*}; else number=${c##*:}; fi
            line=$("$binary" --round-trips 10 --pairs "$pairs" --case "$number" | grep 'flows/s')
            echo "$round $c $which $(sed -E 's/.*\(([0-9]+) flows\/s\).*per flow ([0-9]+) µs user \+ ([0-9]+) µs system.*/\1 \2 \3/' <<<"$line")" | tee -a "$out"
        done
    done
done
python3 - "$out" <<'PY'
import statistics, sys
rows = [line.split() for line in open(sys.argv[1]) if len(line.split()) == 6]
for case in sorted({row[1] for row in rows}, key=lambda c: [int(n) for n in c.split(":")]):
    medians = {}
    for which in ("before", "after"):
        runs = [row for row in rows if row[1] == case and row[2] == which]
        medians[which] = [statistics.median(int(row[i]) for row in runs) for i in (3, 4, 5)]
        print(f"case {case} {which:6}: {medians[which][0]:,.0f} flows/s, {medians[which][1]:.1f} µs user + "
              f"{medians[which][2]:.1f} µs system a flow (medians of {len(runs)})")
    change = medians["after"][0] / medians["before"][0] - 1
    print(f"case {case} change: {change:+.1%} flows/s")
PY
rm -f "$out"
