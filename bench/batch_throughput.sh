#!/usr/bin/env bash
# Batch throughput of the CLI against the Python reference, and CLI cold start.
#
#   bench/batch_throughput.sh [SNNPLAN_BINARY] [SUMMARY_JSON]
#
# 1. Generates a JSON Lines file of $LINES (default 1,000,000) mixed inputs with python3
#    (fixed seed; every branch, mixed-case and invalid preferences, unset and false flags).
# 2. Times `snnplan recommend --batch FILE > /dev/null` ($RUNS runs, default 3; best and median
#    reported) and the same job in Python with /work/shared/reference/seed_reference.py (read a
#    JSON line, call recommend_snn_distributed_strategy, write a JSON line), when present.
#    On the first $CHECK_LINES lines (default 10,000) both outputs are compared field for field.
# 3. Cold start: median of $COLD_RUNS (default 200) runs of one `snnplan recommend ...` process,
#    with hyperfine when installed, else a python3 timing loop; `snnplan --version` (no rules
#    loaded) is timed beside it to separate process start from rule loading.
# Prints a summary and writes it as JSON to SUMMARY_JSON (default build-bench/bench-results/batch.json).
set -euo pipefail

root=$(cd "$(dirname "$0")/.." && pwd)
cli=${1:-}
if [ -z "$cli" ]; then
  for candidate in "$root"/build-bench/snnplan "$root"/build*/snnplan; do
    if [ -x "$candidate" ]; then cli=$candidate; break; fi
  done
fi
[ -n "$cli" ] && [ -x "$cli" ] || { echo "batch_throughput: no snnplan binary (give its path)" >&2; exit 2; }
cli=$(cd "$(dirname "$cli")" && pwd)/$(basename "$cli")
summary=${2:-$root/build-bench/bench-results/batch.json}
mkdir -p "$(dirname "$summary")"
reference_dir=${SNNPLAN_REFERENCE_DIR:-/work/shared/reference}
lines=${LINES:-1000000}
runs=${RUNS:-3}
cold_runs=${COLD_RUNS:-200}
check_lines=${CHECK_LINES:-10000}

work=$(mktemp -d "${TMPDIR:-/tmp}/snnplan-batch.XXXXXX")
trap 'rm -rf "$work"' EXIT
inputs=$work/inputs.jsonl

# ---- 1. inputs -------------------------------------------------------------------------------
python3 - "$inputs" "$lines" <<'PY'
import json, random, sys
path, n = sys.argv[1], int(sys.argv[2])
rng = random.Random(12345)
models = ["cifar10dvs_vgg"] * 3 + ["spikformer_8_384"] * 3 + ["spikformer", "sew_resnet18", "vgg16", "Spikformer"]
prefers = ["speed"] * 3 + ["memory"] * 3 + ["capacity"] * 3 + ["SPEED", "Capacity", "bogus"]
worlds = [1, 2, 4, 8, 8, 16, 32, 64, 128, 256, 3, 6, 7, 12, 0]
batches = [1, 2, 4, 6, 8, 12, 16, 24, 32, 64, 64, 96, 128, 256, 512, 1000, 1024, 97]
flags = ["zero_redundancy_optimizer_available", "pipelining_available", "fsdp2_available",
         "tensor_parallel_available"]
with open(path, "w") as out:
    for _ in range(n):
        case = {"model": rng.choice(models), "world_size": rng.choice(worlds),
                "prefer": rng.choice(prefers), "batch_size": rng.choice(batches)}
        if rng.random() < 0.3:
            case["backend"] = rng.choice(["inductor", "eager"])
        for f in flags:
            r = rng.random()
            if r < 0.15:
                case[f] = False
            elif r < 0.3:
                case[f] = True
        out.write(json.dumps(case) + "\n")
PY
echo "batch_throughput: $lines input lines in $(du -h "$inputs" | cut -f1)"

# ---- 2. throughput ---------------------------------------------------------------------------
cat > "$work/py_batch.py" <<'PY'
# The Python job: one JSON line in, the reference's answer as one JSON line out.
import dataclasses, json, sys
sys.path.insert(0, sys.argv[1])
import seed_reference as ref

write = sys.stdout.write
for line in sys.stdin:
    try:
        rec = ref.recommend_snn_distributed_strategy(**json.loads(line))
    except ValueError as err:
        write(json.dumps({"error": str(err)}, ensure_ascii=False) + "\n")
        continue
    out = dataclasses.asdict(rec)
    for key in ("mesh_shape", "pp_layout", "rationale"):
        if out[key] is not None:
            out[key] = list(out[key])
    write(json.dumps(out, ensure_ascii=False) + "\n")
PY

have_reference=0
[ -f "$reference_dir/seed_reference.py" ] && have_reference=1

python3 - "$cli" "$inputs" "$lines" "$runs" "$have_reference" "$reference_dir" "$work" "$check_lines" <<'PY'
import json, resource, statistics, subprocess, sys, time
cli, inputs, n, runs, have_ref, ref_dir, work, check_lines = sys.argv[1:9]

def children_cpu():
    usage = resource.getrusage(resource.RUSAGE_CHILDREN)
    return usage.ru_utime + usage.ru_stime
n, runs, have_ref, check_lines = int(n), int(runs), int(have_ref), int(check_lines)

def timed(cmd, stdin_path):
    with open(stdin_path, "rb") as stdin, open("/dev/null", "wb") as devnull:
        cpu0 = children_cpu()
        t0 = time.perf_counter()
        rc = subprocess.run(cmd, stdin=stdin, stdout=devnull).returncode
        elapsed = time.perf_counter() - t0
        cpu = children_cpu() - cpu0
    # Exit code 1 only says some lines hit a rule error (the invalid preferences).
    if rc not in (0, 1):
        sys.exit(f"batch_throughput: {cmd[0]} exited with {rc}")
    cpu_seconds.append(cpu)
    return elapsed

# CPU time (user + system) beside wall time: both jobs are single-threaded, so on a machine
# shared with other work the CPU-time ratio is the steadier one.
cpu_seconds = []
cli_times = [timed([cli, "recommend", "--batch", inputs], "/dev/null") for _ in range(runs)]
cli_cpu = statistics.median(cpu_seconds)
result = {"lines": n, "cli_runs": runs, "cli_seconds": cli_times, "cli_cpu_seconds": cli_cpu,
          "cli_lines_per_s_best": n / min(cli_times),
          "cli_lines_per_s_median": n / statistics.median(cli_times)}
print(f"  snnplan recommend --batch: best {min(cli_times):.2f} s, median {statistics.median(cli_times):.2f} s "
      f"= {result['cli_lines_per_s_median']:,.0f} lines/s (median of {runs})")
# --jobs 2 against one thread, alternating, medians of wall time (two threads use more CPU).
one_thread, two_threads = [], []
for _ in range(runs):
    one_thread.append(timed([cli, "recommend", "--batch", inputs], "/dev/null"))
    two_threads.append(timed([cli, "recommend", "--batch", inputs, "--jobs", "2"], "/dev/null"))
result["jobs2_speedup"] = statistics.median(one_thread) / statistics.median(two_threads)
print(f"  --jobs 2:                  median {statistics.median(two_threads):.2f} s against "
      f"{statistics.median(one_thread):.2f} s on one thread = {result['jobs2_speedup']:.2f}x")
if have_ref:
    py = timed([sys.executable, f"{work}/py_batch.py", ref_dir], inputs)
    py_cpu = cpu_seconds[-1]
    result.update({"python_seconds": py, "python_lines_per_s": n / py, "python_cpu_seconds": py_cpu,
                   "ratio_cli_over_python": (n / statistics.median(cli_times)) / (n / py),
                   "ratio_cpu": py_cpu / cli_cpu})
    print(f"  python seed_reference:     {py:.2f} s = {n / py:,.0f} lines/s")
    print(f"  ratio (CLI / Python):      {result['ratio_cli_over_python']:.1f}x wall, {result['ratio_cpu']:.1f}x CPU time "
          f"({cli_cpu:.2f} s vs {py_cpu:.2f} s)")

    # Both must give the same answers, or the comparison means nothing.
    head = f"{work}/head.jsonl"
    with open(inputs) as src, open(head, "w") as dst:
        for k, line in enumerate(src):
            if k >= check_lines:
                break
            dst.write(line)
    with open(head, "rb") as stdin:
        got = subprocess.run([cli, "recommend", "--batch", "-"], stdin=stdin, capture_output=True).stdout.decode().splitlines()
    with open(head, "rb") as stdin:
        want = subprocess.run([sys.executable, f"{work}/py_batch.py", ref_dir], stdin=stdin,
                              capture_output=True).stdout.decode().splitlines()
    fields = ["prefer", "model", "world_size", "mode", "optimizer_sharding", "memopt_level", "mesh_shape",
              "tp_mesh_dim", "dp_mesh_dim", "pp_microbatches", "pp_memopt_stage_budget_ratio", "pp_schedule",
              "pp_virtual_stages", "pp_layout", "pp_delay_wgrad", "rationale"]
    def canon(obj):
        return {"error": obj["error"]} if "error" in obj else {k: obj.get(k, "<missing>") for k in fields}
    same = sum(1 for a, b in zip(got, want) if canon(json.loads(a)) == canon(json.loads(b)))
    same = same if len(got) == len(want) else 0
    result.update({"checked_lines": len(want), "matching_lines": same})
    print(f"  outputs agree on {same}/{len(want)} checked lines")
json.dump(result, open(f"{work}/throughput.json", "w"))
PY

# ---- 3. cold start ---------------------------------------------------------------------------
# `snnplan --version` beside it: the same process start and dynamic linking, no rule loading.
cold_args=(recommend --model spikformer_8_384 --world-size 8 --prefer memory --batch-size 64)
if command -v hyperfine >/dev/null 2>&1; then
  hyperfine -N --warmup 10 --runs "$cold_runs" --export-json "$work/cold.json" \
    "$cli ${cold_args[*]}" "$cli --version" >/dev/null 2>&1
  cold_tool=hyperfine
else
  python3 - "$cold_runs" "$work/cold.json" "$cli" "${cold_args[@]}" <<'PY'
import json, os, subprocess, sys, time
runs, out, cli, args = int(sys.argv[1]), sys.argv[2], sys.argv[3], sys.argv[4:]
results = []
for cmd in ([cli] + args, [cli, "--version"]):
    for _ in range(10):
        subprocess.run(cmd, stdout=subprocess.DEVNULL)
    times, cpu = [], []
    for _ in range(runs):
        before = os.times()
        t0 = time.perf_counter()
        subprocess.run(cmd, stdout=subprocess.DEVNULL)
        times.append(time.perf_counter() - t0)
        after = os.times()
        cpu.append((after.children_user - before.children_user) + (after.children_system - before.children_system))
    results.append({"times": times, "user": sum(cpu) / runs, "system": 0.0})
json.dump({"results": results}, open(out, "w"))
PY
  cold_tool="python3 loop"
fi

python3 - "$work" "$summary" "$cold_tool" "$cold_runs" "$cli" <<'PY'
import json, statistics, sys
work, summary, tool, runs, cli = sys.argv[1:6]
result = json.load(open(f"{work}/throughput.json"))
recommend, version = json.load(open(f"{work}/cold.json"))["results"][:2]
result.update({"cold_start_tool": tool, "cold_start_runs": len(recommend["times"]),
               "cold_start_median_ms": statistics.median(recommend["times"]) * 1e3,
               "cold_start_min_ms": min(recommend["times"]) * 1e3,
               "cold_start_cpu_ms": (recommend.get("user", 0) + recommend.get("system", 0)) * 1e3,
               "version_median_ms": statistics.median(version["times"]) * 1e3,
               "version_min_ms": min(version["times"]) * 1e3,
               "version_cpu_ms": (version.get("user", 0) + version.get("system", 0)) * 1e3,
               "cli": cli})
print(f"  cold start ({tool}, {len(recommend['times'])} runs): recommend median {result['cold_start_median_ms']:.2f} ms "
      f"(min {result['cold_start_min_ms']:.2f}, CPU {result['cold_start_cpu_ms']:.2f}); --version median "
      f"{result['version_median_ms']:.2f} ms (min {result['version_min_ms']:.2f}, CPU {result['version_cpu_ms']:.2f})")
json.dump(result, open(summary, "w"), indent=1)
PY
echo "batch_throughput: summary in $summary"
