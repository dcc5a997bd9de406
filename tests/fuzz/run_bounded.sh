#!/bin/sh
# Bounded fuzzing: builds the libFuzzer targets with clang (NSDAE_FUZZ=ON, ASan + UBSan) in
# BUILD_DIR and runs each for SECONDS seconds from its seed corpus (a copy: the committed corpus
# does not change), with the language's dictionary for the model targets. A finding makes the
# script fail; libFuzzer writes the input to BUILD_DIR/findings/<target>/, and it belongs, once
# fixed, in tests/fuzz/findings/<target>/ (replayed by ctest from then on).
# Without clang it says so and succeeds (nothing to run).
#   usage: tests/fuzz/run_bounded.sh [SECONDS=60] [BUILD_DIR=build-fuzz] [TARGETS="model lcp restart"]
set -eu
seconds=${1:-60}
build=${2:-build-fuzz}
targets=${3:-model lcp restart}
src=$(cd "$(dirname "$0")/../.." && pwd)
if ! command -v clang >/dev/null 2>&1; then
    echo "run_bounded: clang not found: no fuzzing run" >&2
    exit 0
fi
CC=clang cmake -S "$src" -B "$build" -DNSDAE_FUZZ=ON -DCMAKE_BUILD_TYPE=RelWithDebInfo >/dev/null
cmake --build "$build" -j2 --target $(for t in $targets; do printf 'fuzz_%s ' "$t"; done) >/dev/null
status=0
for target in $targets; do
    work="$build/fuzz-run/$target"
    rm -rf "$work" && mkdir -p "$work/corpus" "$build/findings/$target"
    cp "$src/tests/fuzz/corpus/$target/"* "$work/corpus/"
    dict=""
    [ "$target" != lcp ] && dict="-dict=$src/tests/fuzz/nsm.dict"
    echo "run_bounded: fuzz_$target for ${seconds} s" >&2
    # the leak of Siconos' lcp_lexicolemke when it aborts (lcp/siconos.c catches the abort) is
    # suppressed as in ctest
    if ! LSAN_OPTIONS="suppressions=$src/tests/lsan.supp" OPENBLAS_NUM_THREADS=1 "$build/fuzz_$target" $dict -max_total_time="$seconds" -timeout=20 -rss_limit_mb=2048 \
        -artifact_prefix="$build/findings/$target/" -print_final_stats=1 "$work/corpus" 2>"$work/log"; then
        echo "run_bounded: fuzz_$target found a failure (input in $build/findings/$target/):" >&2
        tail -n 40 "$work/log" >&2
        status=1
    else
        grep -E "^#[0-9]+.*DONE|stat::number_of_executed_units|cov:" "$work/log" | tail -n 2 >&2
    fi
done
exit $status
