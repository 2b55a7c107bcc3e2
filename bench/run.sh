#!/usr/bin/env bash
# Builds the benchmarks (Release, in build-bench/), runs them all and writes bench/results.md.
#
#   bench/run.sh
#
# Environment: BUILD_DIR (default build-bench), REPS (Google Benchmark repetitions, default 3),
# MIN_TIME (seconds per benchmark run, default 0.2), LINES / RUNS / COLD_RUNS (see
# batch_throughput.sh), PROFILE_CASE (default memory_fsdp2_tp), SKIP_BATCH=1, SKIP_PROFILE=1,
# SKIP_CACHE=1 (cache_bench: loading 1,000- and 10,000-rule tables, ~20 s), SKIP_COLD=1
# (cold_start_bench: 200 process pairs per command, ~15 s), SKIP_LSP=1 (lsp_bench: the language server, ~5 s), SKIP_REVIEW=1 (review_bench: diff and
# 512 x 512 maps, 3 iterations of a few seconds each), SKIP_PYTHON=1 (python_speed.py, ~1 min),
# SKIP_DMN=1 (dmn_scale.py: check and diff of 500- to 5,000-rule tables, up to 2 min each),
# SKIP_SERVE=1 (serve_bench.py: the workbench server under 10,000 edits, ~1 min).
# Raw outputs go to $BUILD_DIR/bench-results/. The journal of bench/results.md (between the
# bench:journal markers, written by hand) is carried over.
set -euo pipefail
started=$SECONDS
load_start=$(cut -d' ' -f1-3 /proc/loadavg 2>/dev/null || echo "?")
root=$(cd "$(dirname "$0")/.." && pwd)
build=${BUILD_DIR:-$root/build-bench}
results=$build/bench-results
reps=${REPS:-3}
min_time=${MIN_TIME:-0.2}
jobs=$(nproc 2>/dev/null || echo 2)
[ "$jobs" -gt 2 ] && jobs=2

echo "== build ($build, Release)"
cmake -S "$root" -B "$build" -DCMAKE_BUILD_TYPE=Release -DSNNPLAN_BUILD_TESTS=OFF -DSNNPLAN_BUILD_BENCHMARKS=ON >/dev/null
mkdir -p "$results"
targets=(snnplan_exe engine_bench baseline_selfcheck profile_driver cache_bench cold_start_bench hello_static review_bench lsp_bench)
# snnplan-static exists when the static yaml-cpp does (top-level CMakeLists.txt); cold_start_bench
# then also times it.
if make -C "$build" help 2>/dev/null | grep '\.\.\. snnplan_static_exe$' >/dev/null; then targets+=(snnplan_static_exe); fi
if ! make -C "$build" -j"$jobs" "${targets[@]}" >"$results/build.log" 2>&1; then
  tail -40 "$results/build.log" >&2
  exit 1
fi

echo "== baseline self-check"
selfcheck=$("$build/bench/baseline_selfcheck" 1000)
echo "$selfcheck"

parity=""
if [ -f /work/shared/reference/parity.py ]; then
  echo "== parity (CLI vs Python reference)"
  parity=$(python3 /work/shared/reference/parity.py --cli "$build/snnplan" --cases random --n 20000 | tail -1 || true)
  echo "$parity"
fi

echo "== engine_bench (repetitions $reps, min time ${min_time}s)"
"$build/bench/engine_bench" --benchmark_repetitions="$reps" --benchmark_min_time="$min_time" \
  --benchmark_enable_random_interleaving=true \
  --benchmark_out="$results/engine_bench.json" --benchmark_out_format=json \
  --benchmark_display_aggregates_only=true >"$results/engine_bench.txt"
if [ "$reps" -gt 1 ]; then grep -E '_median' "$results/engine_bench.txt" || true; else grep -vE '^\*\*\*' "$results/engine_bench.txt"; fi

batch_json=""
if [ "${SKIP_BATCH:-0}" != 1 ]; then
  echo "== batch throughput and cold start"
  "$root/bench/batch_throughput.sh" "$build/snnplan" "$results/batch.json"
  batch_json=$results/batch.json
fi

profile_md=""
if [ "${SKIP_PROFILE:-0}" != 1 ] && command -v valgrind >/dev/null 2>&1; then
  echo "== profile (callgrind)"
  "$root/bench/profile.sh" "$build" "${PROFILE_CASE:-memory_fsdp2_tp}" 10000 "$results/profile.md" >/dev/null
  profile_md=$results/profile.md
fi

# run_bench NAME SKIP_VARIABLE TITLE PATTERN: runs $build/bench/NAME into $results/NAME.json
# (unless SKIP_VARIABLE=1), prints its lines matching PATTERN, and echoes the JSON's path.
run_bench() {
  local name=$1 skip=$2 title=$3 pattern=$4
  [ "${!skip:-0}" = 1 ] && return 0
  echo "== $name ($title)" >&2
  "$build/bench/$name" --benchmark_out="$results/$name.json" --benchmark_out_format=json \
    >"$results/$name.txt"
  grep -vE '^\*\*\*' "$results/$name.txt" | grep -E "$pattern" >&2 || true
  echo "$results/$name.json"
}
cache_json=$(run_bench cache_bench SKIP_CACHE "loading large tables" '^(cache|yaml-cpp|builtin)/')
cold_json=$(run_bench cold_start_bench SKIP_COLD "CLI against a static hello world" '^cold_start/')
review_json=$(run_bench review_bench SKIP_REVIEW "diff, 512 x 512 maps" '^(diff|map)_')
lsp_json=$(run_bench lsp_bench SKIP_LSP "language server: diagnostics after a change" '^(lsp|check)/')

# Instructions per map cell and per diff (callgrind on the CLI): a 128 x 128 map less a 1 x 1 map
# (start-up, loading and the region analysis of one cell), over the 16,383 cells between them.
review_ir_json=""
if [ "${SKIP_REVIEW:-0}" != 1 ] && [ "${SKIP_PROFILE:-0}" != 1 ] && command -v valgrind >/dev/null 2>&1; then
  echo "== review instructions (callgrind)" >&2
  ir_of() {
    valgrind --tool=callgrind --callgrind-out-file=/dev/null "$@" 2>&1 >/dev/null |
      sed -n 's/.*I *refs: *//p' | tr -d ,
  }
  map_ir() {
    ir_of "$build/snnplan" map --x "world_size=1..$1" --y "batch_size=1..$1" --input model=resnet \
      --input prefer=capacity --format "$2"
  }
  edited=$(mktemp "${TMPDIR:-/tmp}/snnplan-edit.XXXXXX.yaml")
  sed 's/world_size: {ge: 2}, batch_size/world_size: {ge: 4}, batch_size/' "$root/rules/snn_distributed.yaml" >"$edited"
  review_ir_json=$results/review_ir.json
  python3 - "$review_ir_json" "$(map_ir 128 svg)" "$(map_ir 1 svg)" "$(map_ir 128 json)" "$(map_ir 1 json)" \
    "$(ir_of "$build/snnplan" diff "$root/rules/snn_distributed.yaml" "$edited")" <<'PY'
import json, sys
out, svg, svg1, js, js1, diff = sys.argv[1], *map(int, sys.argv[2:])
cells = 128 * 128 - 1
json.dump({"svg": (svg - svg1) / cells, "json": (js - js1) / cells, "diff": diff}, open(out, "w"))
PY
  rm -f "$edited"
fi

# The Python module against the reference (issue 35): the module built in $build, Release, as pip
# builds it; the reference's four availability constants are True, so the package sees a current
# PyTorch (python/tests/fake_torch_current).
python_speed_md=""
if [ "${SKIP_PYTHON:-0}" != 1 ] && make -C "$build" -j"$jobs" snnplan_python >>"$results/build.log" 2>&1; then
  echo "== python_speed"
  python_speed_md=$results/python_speed.md
  PYTHONPATH="$build/python:$root/python/tests/fake_torch_current" python3 "$root/bench/python_speed.py" \
    --repeat 40 --number 2000 --markdown "$python_speed_md" || true
fi

# The analysis at decision-table scale (issue 34): check and diff of generated 500- to 5,000-rule
# tables, each run stopped after 120 s.
dmn_md=""
if [ "${SKIP_DMN:-0}" != 1 ]; then
  echo "== dmn_scale"
  dmn_md=$results/dmn_scale.md
  python3 "$root/bench/dmn_scale.py" "$build/snnplan" --markdown "$dmn_md" || dmn_md=""
fi

# The workbench server under editing (issue 32): edit to diagnostics and diff, RSS after
# 10,000 edits (~1 min).
serve_md=""
if [ "${SKIP_SERVE:-0}" != 1 ]; then
  echo "== serve_bench"
  serve_md=$results/serve_bench.md
  python3 "$root/bench/serve_bench.py" "$build/snnplan" --markdown "$serve_md" || serve_md=""
fi

load_end=$(cut -d' ' -f1-3 /proc/loadavg 2>/dev/null || echo "?")
python3 "$root/bench/make_results.py" --root "$root" --bench "$results/engine_bench.json" \
  ${batch_json:+--batch "$batch_json"} ${profile_md:+--profile "$profile_md"} \
  ${cache_json:+--cache "$cache_json"} ${cold_json:+--cold "$cold_json"} ${review_json:+--review "$review_json"} ${lsp_json:+--lsp "$lsp_json"} ${review_ir_json:+--review-ir "$review_ir_json"} \
  ${python_speed_md:+--section "$python_speed_md"} ${dmn_md:+--section "$dmn_md"} ${serve_md:+--section "$serve_md"} \
  --load-start "$load_start" --load-end "$load_end" --elapsed "$((SECONDS - started))" \
  --selfcheck "$selfcheck" --parity "$parity" --out "$root/bench/results.md"
echo "== wrote $root/bench/results.md ($((SECONDS - started)) s)"
