#!/usr/bin/env bash
# The users lists' byte check alone (Sources/Scenario/DeferredUsers.swift, issue 16 point 5): compiled with -O
# apart from the package, with a driver that reads a scenario file and checks it; prints the median time of N
# checks and, with valgrind installed, the instructions of one check (callgrind: 10 checks less none).
#
#     scripts/bench-deferred-users.sh FILE [REV]     # REV: the DeferredUsers.swift of that commit (default: the work tree)
set -euo pipefail
file=${1:?usage: bench-deferred-users.sh SCENARIO-FILE [REV]}
rev=${2:-}
here=$(cd "$(dirname "$0")/.." && pwd)
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
if [ -n "$rev" ]; then git -C "$here" show "$rev:Sources/Scenario/DeferredUsers.swift"; else cat "$here/Sources/Scenario/DeferredUsers.swift"; fi \
    | sed 's/^import JSONText$//' > "$work/DeferredUsers.swift"
cat > "$work/main.swift" <<'SWIFT'
import Foundation
let bytes = [UInt8](try! Data(contentsOf: URL(fileURLWithPath: CommandLine.arguments[1])))
let runs = Int(CommandLine.arguments[2])!
var times: [Double] = []
var lists = 0
for _ in 0..<runs {
    let start = DispatchTime.now().uptimeNanoseconds
    lists = DeferredUsers.find(in: bytes).count
    times.append(Double(DispatchTime.now().uptimeNanoseconds - start) / 1e6)
}
times.sort()
if runs > 0 { print("\(lists) lists checked; median of \(runs): \(String(format: "%.3f", times[runs / 2])) ms") }
SWIFT
swiftc -O "$work/DeferredUsers.swift" "$work/main.swift" -o "$work/check"
"$work/check" "$file" 1000
if command -v valgrind > /dev/null; then
    count() { valgrind --tool=callgrind --callgrind-out-file=/dev/null "$work/check" "$file" "$1" 2>&1 | sed -n 's/.*Collected : //p'; }
    ten=$(count 10) none=$(count 0)
    echo "instructions a check: $(( (ten - none) / 10 ))"
fi
