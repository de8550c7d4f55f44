#!/usr/bin/env bash
# Coverage-guided fuzzing (docs/reliability.md, "Fuzzing"): builds the libFuzzer targets in Fuzz/Sources with
# AddressSanitizer (which brings LeakSanitizer) and runs each for a bounded time, one after the other on one core,
# on a copy of its seed corpus in a temporary directory, so that the repository is not changed.
#
#   scripts/fuzz.sh [SECONDS-PER-TARGET] [TARGET…]     (default 60 s; targets json answers scenario theme keys bridge)
#
# Exits 1 if any target crashes, leaks, times out (an input over 10 s) or runs out of memory (2 GB); the run's
# directory is then kept, with each target's log, its grown corpus and the reproducer (crash-…, leak-…, timeout-…,
# oom-…). Add a reproducer to Fuzz/corpus/TARGET/ with the fix, so that every later run tries it first.
#
# Environment:
#   FUZZ_RUNS=N            run N inputs per target instead of a time (the long runs in docs/reliability.md)
#   FUZZ_CONFIGURATION=C   debug (the default: the quickest build) or release (about twice as many inputs a second)
#   FUZZ_OUT=DIR           keep the logs and grown corpora in DIR (default: a temporary directory, removed on success)
set -euo pipefail
cd "$(dirname "$0")/.."
root=$(pwd)

all=(json answers scenario theme keys bridge)
seconds=60
if [ $# -gt 0 ] && [[ $1 =~ ^[0-9]+$ ]]; then
    seconds=$1
    shift
fi
targets=("$@")
[ ${#targets[@]} -gt 0 ] || targets=("${all[@]}")
for target in "${targets[@]}"; do
    [[ " ${all[*]} " == *" $target "* ]] || { echo "fuzz.sh: unknown target $target (targets: ${all[*]})" >&2; exit 2; }
done
configuration=${FUZZ_CONFIGURATION:-debug}

# The fuzz targets exist only with IDP_TUI_FUZZ set (Package.swift), and build in a directory of their own: every
# module is compiled with -sanitize=fuzzer,address. SwiftPM's own --sanitize=fuzzer makes libFuzzer's main the
# executables' entry point; the -Xswiftc flag is what instruments the code (SwiftPM passes its two sanitizer
# flags to the compiler separately, and the compiler keeps only the last).
export IDP_TUI_FUZZ=1
build=(swift build -c "$configuration" --scratch-path .build/fuzz --sanitize=fuzzer -Xswiftc -sanitize=fuzzer,address)
for target in "${targets[@]}"; do
    echo "== build fuzz-$target ($configuration)"
    # ld.gold warns about each AddressSanitizer symbol it cannot export: noise, left out.
    "${build[@]}" --product "fuzz-$target" 2>&1 | { grep -v "Cannot export local symbol" || true; }
    [ "${PIPESTATUS[0]}" -eq 0 ] || { echo "fuzz.sh: the build of fuzz-$target failed" >&2; exit 1; }
done
bin=$("${build[@]}" --show-bin-path)

out=${FUZZ_OUT:-$(mktemp -d "${TMPDIR:-/tmp}/idp-tui-fuzz.XXXXXX")}
mkdir -p "$out"
limit=(-max_total_time="$seconds")
budget="$seconds s"
if [ -n "${FUZZ_RUNS:-}" ]; then
    limit=(-runs="$FUZZ_RUNS")
    budget="$FUZZ_RUNS runs"
fi
# The Swift runtime's own crash handler would report a crash before AddressSanitizer's and confuse it.
export SWIFT_BACKTRACE=enable=no
export ASAN_OPTIONS=${ASAN_OPTIONS:-detect_leaks=1}
export LSAN_OPTIONS=suppressions=$root/Fuzz/lsan.supp${LSAN_OPTIONS:+:$LSAN_OPTIONS}

failed=()
for target in "${targets[@]}"; do
    rm -rf "${out:?}/$target"
    mkdir -p "$out/$target/corpus"
    cp "Fuzz/corpus/$target/"* "$out/$target/corpus/"
    echo "== fuzz-$target: $budget, log $out/$target/log"
    status=0
    (cd "$out/$target" && "$bin/fuzz-$target" "${limit[@]}" -timeout=10 -rss_limit_mb=2048 \
        -dict="$root/Fuzz/dictionaries/$target.dict" -artifact_prefix="$out/$target/" -print_final_stats=1 \
        corpus >log 2>&1) || status=$?
    grep -E "^#[0-9]+[[:space:]]+DONE|^stat::(number_of_executed_units|average_exec_per_sec|peak_rss_mb)" "$out/$target/log" || true
    if [ "$status" -ne 0 ]; then
        echo "fuzz-$target FAILED (exit $status):" >&2
        grep -E "ERROR: |SUMMARY: |Fatal error|Test unit written" "$out/$target/log" >&2 || tail -n 20 "$out/$target/log" >&2
        failed+=("$target")
    fi
done

if [ ${#failed[@]} -gt 0 ]; then
    echo "fuzz.sh: ${failed[*]} failed; logs and reproducers in $out" >&2
    exit 1
fi
[ -n "${FUZZ_OUT:-}" ] || rm -rf "$out"
echo "fuzz.sh: ${targets[*]}: no crash, leak or timeout"
