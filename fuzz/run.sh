#!/usr/bin/env bash
# Builds the libFuzzer targets with clang (ASan + UBSan) and runs each for a bounded time.
#   bash fuzz/run.sh                     # every target, 60 s each (what CI runs)
#   bash fuzz/run.sh 3600 rule_file      # one target for an hour
# The working corpus grows in $SNNPLAN_FUZZ_BUILD_DIR/corpus/TARGET (seeded from
# fuzz/corpus/TARGET); crash, timeout and OOM inputs land in .../artifacts/TARGET/, and the
# script then fails. Minimise one with `build-fuzz/fuzz/fuzz_TARGET -minimize_crash=1 FILE`,
# save it under tests/fuzz-regressions/TARGET/, and the replay test keeps it fixed.
set -euo pipefail
root=$(cd "$(dirname "$0")/.." && pwd)
source "$root/tools/deps.sh"
snnplan_install_deps
snnplan_install_deps "${SNNPLAN_FUZZ_PACKAGES[@]}"

seconds=${1:-60}
shift || true
targets=("$@")
[ ${#targets[@]} -eq 0 ] && targets=(rule_file expression json_line topology)
build=${SNNPLAN_FUZZ_BUILD_DIR:-$root/build-fuzz}

if [ ! -f "$build/CMakeCache.txt" ]; then
  CC=clang CXX=clang++ cmake -S "$root" -B "$build" -DCMAKE_BUILD_TYPE=RelWithDebInfo -DSNNPLAN_BUILD_FUZZERS=ON \
    -DSNNPLAN_BUILD_TESTS=OFF -DSNNPLAN_BUILD_EXAMPLES=OFF -DSNNPLAN_BUILD_BENCHMARKS=OFF \
    -DSNNPLAN_BUILD_PYTHON=OFF -DSNNPLAN_INSTALL=OFF >/dev/null
fi
cmake --build "$build" -j "$(nproc)" --target $(printf 'fuzz_%s ' "${targets[@]}") >/dev/null

# allocator_release_to_os_interval_ms=-1: ASan otherwise hands freed pages back to the kernel
# every 5 s and faults them in again (TLB shootdowns on every core); keeping them measured
# 1.5x the executions per second for rule_file and changes nothing ASan detects. The kept
# pages raise the resident size (expression: 1.4 GB on a grown corpus), and above half of
# -rss_limit_mb libFuzzer purges the allocator every second (expression fell from 1,300 to
# 400 executions/s at the old 2,560 MB limit), so the limit is 4,096 MB; a single allocation
# is still limited to 2,560 MB as before.
asan_options=detect_leaks=1:allocator_release_to_os_interval_ms=-1

status=0
for target in "${targets[@]}"; do
  corpus=$build/corpus/$target
  artifacts=$build/artifacts/$target
  mkdir -p "$corpus" "$artifacts"
  log=$build/fuzz-$target.log
  options=(-max_total_time="$seconds" -timeout=20 -rss_limit_mb=4096 -malloc_limit_mb=2560 -print_final_stats=1
           -artifact_prefix="$artifacts/" -dict="$root/fuzz/dict/$target.dict")
  [ "$target" = rule_file ] && options+=(-max_len=16384)
  echo "fuzz $target: ${seconds}s"
  if ! (cd "$build" && ASAN_OPTIONS=$asan_options UBSAN_OPTIONS=print_stacktrace=1 \
        "$build/fuzz/fuzz_$target" "${options[@]}" "$corpus" "$root/fuzz/corpus/$target") >"$log" 2>&1; then
    status=1
    echo "fuzz $target: FAILED, see $log and $artifacts" >&2
    grep -E "ERROR|SUMMARY|invariant broken|Test unit written" "$log" >&2 || tail -n 30 "$log" >&2
  fi
  runs=$(grep -o "stat::number_of_executed_units: *[0-9]*" "$log" | awk '{s+=$2} END {print s+0}')
  echo "fuzz $target: $runs executions, corpus $(ls "$corpus" | wc -l) files"
done
exit $status
