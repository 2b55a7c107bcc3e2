#!/usr/bin/env python3
"""Turns the outputs of bench/run.sh into bench/results.md.

  make_results.py --bench engine_bench.json --batch batch.json [--profile profile.md]
                  [--parity "parity: ..."] [--selfcheck "..."] --out bench/results.md

All Google Benchmark times are CPU time (immune to other processes taking the CPU), the median
over the repetitions. Engine/baseline ratios come from the ratio/CASE benchmarks, which time the
two in alternating blocks inside one loop.
"""
from __future__ import annotations

import argparse
import datetime
import json
import os
import re
import statistics
import subprocess
from collections import defaultdict

TO_NS = {"ns": 1.0, "us": 1e3, "ms": 1e6, "s": 1e9}


def sh(cmd: str) -> str:
    try:
        return subprocess.run(cmd, shell=True, capture_output=True, text=True).stdout.strip()
    except OSError:
        return ""


def load_runs(path):
    data = json.load(open(path))
    runs = defaultdict(list)
    for b in data["benchmarks"]:
        if b.get("run_type", "iteration") != "iteration" or b.get("error_occurred"):
            continue
        # Per-benchmark settings add suffixes such as "/iterations:1/repeats:1".
        name = re.sub(r"/(iterations|repeats|min_time):[^/]*", "", b.get("run_name", b["name"]))
        runs[name].append(b)
    return data.get("context", {}), runs


def median_of(runs, name, key="cpu_time"):
    """Median of `key` over repetitions, in ns for times; None when the benchmark is absent."""
    entries = runs.get(name)
    if not entries:
        return None
    values = []
    for e in entries:
        v = e[key]
        if key in ("cpu_time", "real_time"):
            v *= TO_NS[e.get("time_unit", "ns")]
        values.append(v)
    return statistics.median(values)


def fmt_ns(v):
    if v is None:
        return "—"
    if v >= 1e9:
        return f"{v / 1e9:,.1f} s"
    if v >= 1e6:
        return f"{v / 1e6:,.2f} ms"
    if v >= 1e4:
        return f"{v / 1e3:,.1f} µs"
    return f"{v:,.0f} ns"


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--bench", required=True)
    ap.add_argument("--batch")
    ap.add_argument("--profile")
    ap.add_argument("--parity", default="")
    ap.add_argument("--selfcheck", default="")
    ap.add_argument("--root", default=".")
    ap.add_argument("--out", required=True)
    args = ap.parse_args()

    context, runs = load_runs(args.bench)
    reps = int(statistics.median(len(v) for v in runs.values())) if runs else 0
    model = sh("lscpu | sed -n 's/^Model name:[[:space:]]*//p' | head -1") or "unknown"
    cpus = sh("nproc") or "?"
    commit = sh(f"git -C {args.root} rev-parse --short HEAD")
    dirty = sh(f"git -C {args.root} status --porcelain --untracked-files=no -- src include CMakeLists.txt rules")
    compiler = sh("c++ --version | head -1")
    md = []
    md.append("# snnplan benchmarks\n")
    md.append(f"- Date: {datetime.datetime.now().astimezone().strftime('%Y-%m-%d %H:%M %Z')}")
    md.append(f"- Machine: {model}, {cpus} cores (lscpu / nproc); shared with other builds, so absolute "
              "numbers are noisy — compare the ratios, which are measured in the same process.")
    md.append(f"- Source: commit {commit or '?'}{' plus uncommitted changes in src/include' if dirty else ''}; "
              f"Release build (`build-bench`), {compiler}; Google Benchmark "
              f"{context.get('library_version', '1.7.1')} (the Debian library warns it was built as debug; "
              "that concerns its own timing loop only).")
    md.append(f"- Method: CPU time, median of {reps} repetitions (random interleaving). Engine vs baseline: the "
              "`ratio/CASE` benchmarks alternate blocks of 256 engine and 256 baseline calls in one loop, each "
              "block timed in thread CPU time. Reproduce with `bench/run.sh`; raw JSON in "
              "`build-bench/bench-results/`.")
    if args.selfcheck:
        md.append(f"- Baseline honesty: {args.selfcheck}")
    if args.parity:
        md.append(f"- CLI vs Python reference (`parity.py --cases random --n 20000`): {args.parity}")

    # ---- per branch
    md.append("\n## Evaluation per branch (built-in rules)\n")
    md.append("Views = `RuleSet::builtin().evaluate(inputs, evaluation)` into one reused `snnplan::Evaluation` "
              "(fields as views of the rules' text and the evaluation's storage: no copies, no allocation); "
              "record = `evaluate(inputs)` returning an owning `Record`; inputs built outside the loop. "
              "Baseline = `bench/baseline.cpp` (hand-written reference, same strings, returns the 16-field "
              "struct); `recommend()` = the typed API (views converted to a `Recommendation`).\n")
    md.append("| benchmark | views ns | record ns | baseline ns | views / baseline | record / baseline "
              "| record / baseline, separate runs | `recommend()` ns |")
    md.append("| --- | ---: | ---: | ---: | ---: | ---: | ---: | ---: |")
    order = ["single_rank_speed", "speed_dp", "speed_fsdp2_tp", "memory_fsdp2_tp", "memory_tp", "memory_fsdp2",
             "memory_dp", "capacity_pp_interleaved", "capacity_pp_1f1b", "capacity_fallback", "error_bogus_prefer"]
    found = [n.split("/", 1)[1] for n in runs if n.startswith("ratio/")]
    cases = [c for c in order if c in found] + sorted(c for c in found if c not in order)
    for case in cases:
        e = median_of(runs, f"ratio/{case}", "engine_ns")
        v = median_of(runs, f"ratio/{case}", "views_ns")
        b = median_of(runs, f"ratio/{case}", "baseline_ns")
        r = median_of(runs, f"ratio/{case}", "ratio")
        vr = median_of(runs, f"ratio/{case}", "views_ratio")
        se = median_of(runs, f"branch/engine/{case}")
        sb = median_of(runs, f"branch/baseline/{case}")
        rec = median_of(runs, f"branch/recommend/{case}")
        sep = f"{se / sb:.1f}x" if se and sb else "—"
        md.append(f"| {case} | {v:,.0f} | {e:,.0f} | {b:,.0f} | **{vr:.1f}x** | {r:.1f}x | {sep} | {rec:,.0f} |")

    # ---- load
    md.append("\n## Load + check + compile of the default rules\n")
    md.append("| benchmark | time |")
    md.append("| --- | ---: |")
    for name, label in (("load/from_file", "`RuleSet::from_file(rules/snn_distributed.yaml)`"),
                        ("load/builtin_text", "`RuleSet::from_string(RuleSet::builtin_text())`")):
        md.append(f"| {label} | {fmt_ns(median_of(runs, name))} |")

    # ---- scaling
    md.append("\n## Scaling with generated rule tables\n")
    md.append("One table of N rules (equality on `model_family` and `prefer`, thresholds on `world_size` and "
              "`batch_size`) and a catch-all. *top* fires rule 0, *middle* rule N/2, *end* rule N-1, *miss* "
              "falls through to the catch-all (rules before the target fail on the family, the preference or "
              "a threshold).\n")
    md.append("Loading 10,000 rules is timed once (one iteration, one repetition). Tables of 32 rules or more "
              "are indexed on the facts most rules test for equality (src/compile/rule_index.cpp), so *end* "
              "walks only the rules of its (family, prefer) key; the last column is *end* against the "
              "10-rule table's *end* (target: at most 5x at 10,000 rules).\n")
    md.append("| rules | YAML size | load | eval top | eval middle | eval end | eval miss | end vs 10 rules |")
    md.append("| ---: | ---: | ---: | ---: | ---: | ---: | ---: | ---: |")
    for n in (10, 100, 1000, 10000):
        load = median_of(runs, f"scaling/load/{n}")
        if load is None:
            continue
        size = median_of(runs, f"scaling/load/{n}", "bytes")
        ev = {w: median_of(runs, f"scaling/eval/{n}/{w}") for w in ("top", "middle", "end", "miss")}
        end10 = median_of(runs, "scaling/eval/10/end")
        per_rule = f"{ev['end'] / end10:.1f}x" if ev["end"] and end10 else "—"
        md.append(f"| {n:,} | {size / 1024:,.0f} KiB | {fmt_ns(load)} | {fmt_ns(ev['top'])} | "
                  f"{fmt_ns(ev['middle'])} | {fmt_ns(ev['end'])} | {fmt_ns(ev['miss'])} | {per_rule} |")

    # ---- microbatches
    md.append("\n## `pipeline_microbatches` on large inputs\n")
    md.append("num_stages = p, the first prime ≥ 2^k, batch = 5p: the only count in [p, 4p] dividing the batch "
              "is p itself, so the reference's downward scan takes 3p + 1 steps. *worst*: batch a prime near "
              "2^40, num_stages 2^19 — no count divides, both searches walk ~1.5·2^20 steps.\n")
    md.append("| num_stages | engine | reference scan (baseline) | scan / engine |")
    md.append("| --- | ---: | ---: | ---: |")
    for tag in ("2^10", "2^16", "2^20", "2^30", "2^40", "worst"):
        e = median_of(runs, f"microbatches/engine/{tag}")
        s = median_of(runs, f"microbatches/scan/{tag}")
        if e is None:
            continue
        if s is None:
            ratio = f"scan not run (~3·{tag} steps)" if tag.startswith("2^") else "—"
        else:
            ratio = f"{s / e:,.0f}x" if s / e >= 10 else f"{s / e:.2f}x"
        md.append(f"| {tag} | {fmt_ns(e)} | {fmt_ns(s)} | {ratio} |")

    # ---- batch
    if args.batch and os.path.exists(args.batch):
        b = json.load(open(args.batch))
        md.append("\n## CLI batch throughput and cold start\n")
        md.append(f"{b['lines']:,} mixed JSON Lines inputs (all branches, some invalid preferences); "
                  "`snnplan recommend --batch FILE > /dev/null` against a Python loop over "
                  "`seed_reference.py` (json.loads, call, dataclasses.asdict, json.dumps). Wall time.\n")
        md.append("| measure | value |")
        md.append("| --- | ---: |")
        md.append(f"| CLI batch, lines/s (median of {b['cli_runs']}) | {b['cli_lines_per_s_median']:,.0f} |")
        md.append(f"| CLI batch, seconds for {b['lines']:,} lines | {statistics.median(b['cli_seconds']):.2f} |")
        if "python_lines_per_s" in b:
            md.append(f"| Python reference, lines/s | {b['python_lines_per_s']:,.0f} |")
            md.append(f"| Python reference, seconds | {b['python_seconds']:.2f} |")
            md.append(f"| **CLI / Python** (wall time) | **{b['ratio_cli_over_python']:.1f}x** |")
            if "ratio_cpu" in b:
                md.append(f"| **CLI / Python** (CPU time: {b['cli_cpu_seconds']:.2f} s vs {b['python_cpu_seconds']:.2f} s) | "
                          f"**{b['ratio_cpu']:.1f}x** |")
            md.append(f"| outputs identical (first {b['checked_lines']:,} lines) | "
                      f"{b['matching_lines']:,}/{b['checked_lines']:,} |")
        md.append(f"| cold start `snnplan recommend ...`: median wall of {b['cold_start_runs']} ({b['cold_start_tool']}) | "
                  f"**{b['cold_start_median_ms']:.2f} ms** (min {b['cold_start_min_ms']:.2f} ms, "
                  f"CPU user+sys {b.get('cold_start_cpu_ms', 0):.2f} ms) |")
        if "version_median_ms" in b:
            md.append(f"| same, `snnplan --version` (process start, no rules loaded) | {b['version_median_ms']:.2f} ms "
                      f"(min {b['version_min_ms']:.2f} ms, CPU user+sys {b['version_cpu_ms']:.2f} ms) |")

    # ---- profile
    if args.profile and os.path.exists(args.profile):
        md.append("\n## Profile (callgrind)\n")
        md.append(open(args.profile).read().rstrip())

    open(args.out, "w").write("\n".join(md) + "\n")


if __name__ == "__main__":
    main()
