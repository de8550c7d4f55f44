#!/bin/bash
# Instructions a flow, counted by valgrind (callgrind), for idp-bench binaries: the work the engine does, without
# the VM's speed, which moves by 10 % or more within minutes (docs/performance.md). Each binary runs the case
# with 500 and with 2,500 pairs; the difference over the 4,000 flows between them leaves start-up out. valgrind
# runs one thread at a time, so this counts work, not waiting: it says nothing of contention or scheduling.
#
#   scripts/instructions-per-flow.sh CASE BINARY...
#   e.g. scripts/instructions-per-flow.sh 2 /tmp/ab-pre/.build/release/idp-bench .build/release/idp-bench
set -euo pipefail
case_number=$1
shift
# Cases 5-7 run a tenth or a hundredth of the pairs asked for: the 4,000 flows below would be wrong.
[[ $case_number =~ ^[1-4]$ ]] || { echo "instructions-per-flow.sh: case $case_number: only cases 1-4 run the pairs asked for" >&2; exit 2; }
count() {
    valgrind --tool=callgrind --callgrind-out-file=/dev/null "$1" --round-trips 10 --pairs "$2" --case "$case_number" 2>&1 |
        awk '/Collected/ { print $NF }'
}
for binary in "$@"; do
    small=$(count "$binary" 500)
    large=$(count "$binary" 2500)
    echo "$binary case $case_number: $(( (large - small) / 4000 )) instructions a flow"
done
