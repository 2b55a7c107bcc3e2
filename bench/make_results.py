#!/usr/bin/env python3
"""Turns the outputs of bench/run.sh into bench/results.md.

  make_results.py --bench engine_bench.json --batch batch.json [--profile profile.md]
                  [--cache cache_bench.json] [--cold cold_start_bench.json] [--review review_bench.json]
                  [--review-ir review_ir.json]
                  [--load-start "1 5 15"] [--load-end "1 5 15"] [--elapsed SECONDS]
                  [--parity "parity: ..."] [--selfcheck "..."] --out bench/results.md

The "Issue 21 targets" table is computed from these outputs (a benchmark that was skipped gives
"not measured"). The journal of the file written before, between the markers
<!-- bench:journal:begin --> and <!-- bench:journal:end --> (written by hand: earlier targets,
experiments measured and reverted), is carried over to the end of the new file unchanged.

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
        name = re.sub(r"/(manual_time|real_time)$", "", name)
        runs[name].append(b)
    return data.get("context", {}), runs


def median_of(runs, name, key="cpu_time"):
    """Median of `key` over repetitions, in ns for times; None when the benchmark is absent."""
    entries = runs.get(name)
    if not entries:
        return None
    values = []
    for e in entries:
        if key not in e:
            continue
        v = e[key]
        if key in ("cpu_time", "real_time"):
            v *= TO_NS[e.get("time_unit", "ns")]
        values.append(v)
    return statistics.median(values) if values else None


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

# ---- Issue 21 targets ------------------------------------------------------------------------
# What stands in the way of a target that is not met, by row. {placeholders} are filled from this
# run's measurements where they exist (profile.md, cache_bench); figures marked "earlier run" come
# from callgrind runs recorded in the journal of bench/results.md, not from this run.
OBSTACLES = {
    "views": "no single part dominates what is left: of {views} instructions per call ({source}), `let` "
             "values take ~24 %, binding the named inputs ~16 % (the baseline takes typed arguments by "
             "position), record and views ~18 %, templates ~10 %, rule conditions ~7 % (shares from "
             "memory_fsdp2_tp, callgrind, 2026-12-02), against the baseline's {baseline}, {baseline_malloc} "
             "of whose own cost is malloc/free. Both forms of compiled expressions were built and measured "
             "on this case and cost more than the tree walk with its leaves read inline: typed "
             "integer/boolean fast paths 4,162 -> 4,158 (speed_dp 3,250 -> 3,299), a flat postfix program "
             "with fused fact/constant operations 4,162 -> 4,227 (speed_dp 3,250 -> 3,392), each "
             "instruction's dispatch and 32-byte stack copies costing what the tree's inline leaves do not; "
             "both were reverted",
    "positional": "the views API's cost but binding the named inputs, which by position saves ~2 % "
                  "(callers already give the inputs in the rule file's order, which binding by name "
                  "tries first): {positional} instructions per call against the baseline's {baseline} "
                  "({source})",
    "record": "the views API's cost (above) plus building the owning `Record`: {record} instructions per call "
              "against the baseline's {baseline} ({source})",
    "batch": "the per-line cost of reading, evaluating and writing JSON (~12,200 instructions per line, "
             "callgrind, earlier run)",
    "cold": "page faults and start-up code, which cost differently from machine to machine: on an AMD "
            "EPYC VM (`perf stat -r 100`, 2026-12-02) `snnplan-static recommend ...` takes 129 page faults "
            "to the hello world's 27 (a third of them malloc's heap growing, the rest pages of code and "
            "data first touched) at ~5 µs each, besides 1.0M instructions (CLI11's set-up of the one "
            "subcommand run, 0.28M; reading the embedded rules, 0.31M; callgrind); the same binary was "
            "1.46-1.50x the hello world on the Intel Xeon machine of earlier runs",
    "second": "decoding the compiled form allocates per rule and per source location (a quarter of the "
              "instructions were malloc in callgrind, earlier run)",
    "first": "yaml-cpp's scanner: its event parser alone takes {events} on the same text with a handler that "
             "keeps nothing (`yaml-cpp/events/10000`; its node tree, `YAML::Load`: {nodes}), the floor of "
             "any loader built on yaml-cpp",
}

NOT_MEASURED = "not measured"


def load_optional(path):
    if path and os.path.exists(path):
        return load_runs(path)[1]
    return None


def fmt_ratio(v):
    return f"{v:.2f}x" if v < 10 else f"{v:.1f}x"


def profile_figures(path):
    """Instructions per call and the baseline's malloc/free share from profile.md's first table."""
    figures = {"views": "~5,700", "positional": "~4,100", "record": "~8,200", "baseline": "~2,200", "baseline_malloc": "~35 %",
               "source": "callgrind, earlier run"}
    if not path or not os.path.exists(path):
        return figures, False
    found = False
    for line in open(path):
        cells = [c.strip() for c in line.strip().strip("|").split("|")]
        if len(cells) < 5:
            continue
        # The longest prefix first: "engine, views by position" is not the views row.
        prefixes = {"engine, views by position": "positional", "engine, views": "views",
                    "engine, record": "record", "baseline": "baseline"}
        key = prefixes.get(next((p for p in prefixes if cells[0].startswith(p)), ""))
        if key and re.fullmatch(r"[\d,]+", cells[1]):
            figures[key] = cells[1]
            found = True
            if key == "baseline" and cells[4].endswith("%"):
                figures["baseline_malloc"] = cells[4]
    if found:
        figures["source"] = "callgrind, `bench/profile.sh`"
    return figures, found


def fmt_ms(v):
    """Load times: whole milliseconds from 100 ms up."""
    if v is None:
        return "—"
    return f"{v / 1e6:,.0f} ms" if v >= 1e8 else fmt_ns(v)


def issue21_rows(runs, batch, cache, cold, review, profile, review_ir=None):
    """[(target, measured, status)] for the Issue 21 table; status 'met', 'not met: obstacle', ..."""
    rows = []
    prof, have_prof = profile_figures(profile)

    def status(met, key, **fill):
        if met:
            return "met"
        return "not met: " + OBSTACLES[key].format(**{**prof, **fill})

    # (a), (b) views / record API against the baseline, every branch (ratio/CASE, one loop).
    cases = sorted(n.split("/", 1)[1] for n in runs if n.startswith("ratio/"))
    for key, counter, target, limit in (
            ("views", "views_ratio", "views API ≤ 1.2x the hand-written baseline, every branch (`ratio/CASE`)", 1.2),
            ("positional", "positional_ratio", "views API with inputs by position (`evaluate(layout, values, "
             "evaluation)`) ≤ 1.2x the baseline, every branch (`ratio/CASE`)", 1.2),
            ("record", "ratio", "`Record` API ≤ 1.5x the baseline, every branch (`ratio/CASE`)", 1.5)):
        values = [(median_of(runs, f"ratio/{c}", counter), c) for c in cases]
        values = [(v, c) for v, c in values if v is not None]
        if not values:
            rows.append((target, NOT_MEASURED, "—"))
            continue
        lo, hi = min(values), max(values)
        measured = f"{fmt_ratio(lo[0])} ({lo[1]}) – {fmt_ratio(hi[0])} ({hi[1]}) over {len(values)} cases"
        if have_prof:
            measured += f"; {prof[key]} instructions per call vs {prof['baseline']} (`{os.path.basename(profile)}`)"
        rows.append((target, measured, status(hi[0] <= limit, key)))

    # (c) batch throughput against the CPython loop.
    target = "`recommend --batch` ≥ 15x a CPython loop calling the reference (`bench/batch_throughput.sh`)"
    if batch and "ratio_cli_over_python" in batch:
        wall, cpu = batch["ratio_cli_over_python"], batch.get("ratio_cpu")
        measured = (f"{batch['cli_lines_per_s_median']:,.0f} vs {batch['python_lines_per_s']:,.0f} lines/s "
                    f"({batch['lines']:,} lines): **{wall:.1f}x** wall")
        if cpu is not None:
            measured += f", {cpu:.1f}x CPU time"
        if "matching_lines" in batch:
            measured += f"; outputs agree on {batch['matching_lines']:,}/{batch['checked_lines']:,} lines"
        if "jobs2_speedup" in batch:
            measured += f"; `--jobs 2`: {batch['jobs2_speedup']:.2f}x one thread's wall time"
        met = (cpu if cpu is not None else wall) >= 15
        rows.append((target, measured, "met (with the script's loop, `dataclasses.asdict`; a leaner `getattr` "
                     "loop is ~2x faster, earlier run)" if met else status(False, "batch")))
    else:
        rows.append((target, NOT_MEASURED + (" (no Python reference)" if batch else ""), "—"))

    # (d) cold start against the static hello world of the same run.
    target = "cold start of `snnplan recommend ...` ≤ 1.5x a static C++ hello world (`bench/cold_start_bench.cpp`)"
    parts, best = [], None
    for name, label in (("cold_start/ratio", "`snnplan`"), ("cold_start/static", "`snnplan-static`")):
        if cold is None or name not in cold:
            continue
        cpu_ratio = median_of(cold, name, "cpu_ratio")
        parts.append(f"{label} **{median_of(cold, name, 'cpu_ratio'):.2f}x** CPU time "
                     f"({median_of(cold, name, 'snnplan_cpu_us'):,.0f} µs vs {median_of(cold, name, 'hello_cpu_us'):,.0f} µs), "
                     f"{median_of(cold, name, 'ratio'):.2f}x wall ({median_of(cold, name, 'snnplan_us'):,.0f} µs vs "
                     f"{median_of(cold, name, 'hello_us'):,.0f} µs)")
        if best is None or cpu_ratio < best[0]:
            best = (cpu_ratio, label)
    if cold is not None and "cold_start/version" in cold:
        parts.append(f"`snnplan --version` {median_of(cold, 'cold_start/version', 'cpu_ratio'):.2f}x CPU time")
    if best is None:
        rows.append((target, NOT_MEASURED, "—"))
    else:
        st = status(best[0] <= 1.5, "cold")
        if best[0] <= 1.5 and len(parts) > 1:
            st = f"met ({best[1]})"
        rows.append((target, "; ".join(parts) + " (medians of 200 alternating pairs)", st))

    # (e) loading a 10,000-rule table: second load from the cache, first load.
    second = median_of(cache, "cache/second/10000") if cache else None
    target = "10,000-rule table: second load ≤ 50 ms (`cache/second/10000`, `bench/cache_bench.cpp`)"
    if second is None:
        rows.append((target, NOT_MEASURED, "—"))
    else:
        size = median_of(cache, "cache/second/10000", "cache_bytes")
        wall = median_of(cache, "cache/second/10000", "real_time")
        measured = f"**{fmt_ms(second)}** CPU ({fmt_ms(wall)} wall) from the compiled-rules cache"
        if size:
            measured += f" ({size / 2**20:,.1f} MiB cached)"
        rows.append((target, measured, status(second <= 50e6, "second")))
    target = "10,000-rule table: first load ≤ 300 ms (`cache/first/10000`)"
    first = median_of(cache, "cache/first/10000") if cache else None
    if first is None:
        rows.append((target, NOT_MEASURED, "—"))
    else:
        events = median_of(cache, "yaml-cpp/events/10000")
        nodes = median_of(cache, "yaml-cpp/nodes/10000")
        yaml = median_of(cache, "cache/yaml/10000")
        wall = median_of(cache, "cache/first/10000", "real_time")
        measured = (f"**{fmt_ms(first)}** CPU ({fmt_ms(wall)} wall) into an empty cache ({fmt_ms(yaml)} without the cache); yaml-cpp alone "
                    f"on the same text: event parser {fmt_ms(events)} (`yaml-cpp/events/10000`), node tree "
                    f"{fmt_ms(nodes)} (`yaml-cpp/nodes/10000`)")
        rows.append((target, measured, status(first <= 300e6, "first", events=fmt_ms(events), nodes=fmt_ms(nodes))))

    # (f) reviewing a change: diff and map of the default table (no target: reported).
    target = "`snnplan diff` / `snnplan map` of the default table (`bench/review_bench.cpp`)"
    if review is None or not any(n in review for n in ("diff_threshold_edit", "map_512/svg", "map_512/json")):
        rows.append((target, NOT_MEASURED, "—"))
    else:
        parts = []
        d = median_of(review, "diff_threshold_edit")
        if d is not None:
            parts.append(f"diff against a one-threshold edit {fmt_ms(d)}")
        for fmt in ("svg", "json"):
            t = median_of(review, f"map_512/{fmt}")
            if t is None:
                continue
            cells = median_of(review, f"map_512/{fmt}", "cells") or 512 * 512
            cost = fmt_ns(t / cells)
            if review_ir and fmt in review_ir:
                cost += f", {review_ir[fmt]:,.0f} instructions"
            parts.append(f"512² {fmt.upper()} map {fmt_ms(t)} ({cost} per cell)")
        measured = "; ".join(parts) + " (CPU time, 3 iterations)"
        if review_ir and "diff" in review_ir:
            measured += (f"; callgrind: the diff {review_ir['diff'] / 1e6:,.0f}M instructions, a map cell as "
                         "above (a 128² map less a 1² map, over the cells between them)")
        rows.append((target, measured, "reported (no target)"))
    return rows


def lsp_section(lsp):
    """The Issue 33 target: the language server's diagnostics after a change, against `snnplan check`."""
    out = ["\n## Issue 33: the language server\n",
           "`bench/lsp_bench.cpp`: one `textDocument/didChange` of `rules/snn_distributed.yaml` (the text alternating with a "
           "one-threshold edit) handled by `lsp::Server` in-process, from the JSON message to the `publishDiagnostics` "
           "written, against `snnplan check -` of the same text in-process through the CLI (the baseline), in the same run.\n",
           "| target (issue 33) | measured | |", "| --- | --- | --- |"]
    target = "diagnostics for the default rule file within 50 ms of a change (`lsp/diagnostics_after_change/default_rules`)"
    server = median_of(lsp, "lsp/diagnostics_after_change/default_rules") if lsp else None
    check = median_of(lsp, "check/in_process/default_rules") if lsp else None
    if server is None:
        out.append(f"| {target} | {NOT_MEASURED} | — |")
        return out
    wall = median_of(lsp, "lsp/diagnostics_after_change/default_rules", "real_time")
    measured = f"**{fmt_ms(server)}** CPU ({fmt_ms(wall)} wall)"
    if check is not None:
        measured += f"; `snnplan check` of the same text {fmt_ms(check)} ({fmt_ratio(server / check)})"
    out.append(f"| {target} | {measured} | {'met' if server <= 50e6 else 'not met'} |")
    return out


def issue21_table(rows):
    out = ["| target (issue 21) | measured | |", "| --- | --- | --- |"]
    for target, measured, st in rows:
        out.append(f"| {target} | {measured} | {st} |")
    return out


JOURNAL_BEGIN = "<!-- bench:journal:begin -->"
JOURNAL_END = "<!-- bench:journal:end -->"


def journal_of(path):
    """The journal of the results file at `path` with its markers, or "" when it has none."""
    try:
        text = open(path, encoding="utf-8").read()
    except OSError:
        return ""
    begin = text.find(JOURNAL_BEGIN)
    end = text.find(JOURNAL_END, begin + 1) if begin >= 0 else -1
    if begin < 0 or end < 0:
        return ""
    return text[begin:end + len(JOURNAL_END)]


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--bench", required=True)
    ap.add_argument("--batch")
    ap.add_argument("--profile")
    ap.add_argument("--parity", default="")
    ap.add_argument("--selfcheck", default="")
    ap.add_argument("--root", default=".")
    ap.add_argument("--out", required=True)
    ap.add_argument("--cache", help="cache_bench JSON")
    ap.add_argument("--cold", help="cold_start_bench JSON")
    ap.add_argument("--review", help="review_bench JSON")
    ap.add_argument("--lsp", help="lsp_bench JSON")
    ap.add_argument("--review-ir", help="instructions per map cell and per diff (bench/run.sh, callgrind)")
    ap.add_argument("--load-start", default="", help="/proc/loadavg's first three fields at the start")
    ap.add_argument("--load-end", default="", help="the same at the end")
    ap.add_argument("--elapsed", type=int, help="seconds bench/run.sh took")
    ap.add_argument("--section", action="append", default=[],
                    help="a section another script wrote (python_speed.py, dmn_scale.py --markdown), appended as it is")
    args = ap.parse_args()

    context, runs = load_runs(args.bench)
    reps = int(statistics.median(len(v) for v in runs.values())) if runs else 0
    model = sh("lscpu | sed -n 's/^Model name:[[:space:]]*//p' | head -1") or "unknown"
    cpus = sh("nproc") or "?"
    commit = sh(f"git -C {args.root} rev-parse --short HEAD")
    dirty = sh(f"git -C {args.root} status --porcelain --untracked-files=no -- src include CMakeLists.txt rules")
    compiler = sh("c++ --version | head -1")
    date = datetime.datetime.now().astimezone().strftime('%Y-%m-%d %H:%M %Z')
    load_end = args.load_end or " ".join(open("/proc/loadavg").read().split()[:3])
    load = f"{args.load_start or '?'} at the start, {load_end} at the end (1, 5, 15 min, `/proc/loadavg`)"
    md = []
    md.append("# snnplan benchmarks\n")
    md.append(f"- Date: {date}")
    md.append(f"- Machine: {model}, {cpus} cores (lscpu / nproc); shared with other builds, so absolute "
              "numbers are noisy — compare the ratios, which are measured in the same process.")
    md.append(f"- Load average: {load}" +
              (f"; `bench/run.sh` took {args.elapsed // 60} min {args.elapsed % 60} s" if args.elapsed else ""))
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

    # ---- issue 21
    batch = json.load(open(args.batch)) if args.batch and os.path.exists(args.batch) else None
    rows = issue21_rows(runs, batch, load_optional(args.cache), load_optional(args.cold),
                        load_optional(args.review), args.profile,
                        json.load(open(args.review_ir)) if args.review_ir and os.path.exists(args.review_ir) else None)
    table = issue21_table(rows)
    judged = ("Met / not met is judged on CPU time (steadier than wall time on a shared machine); ratios come "
              "from one run, the two sides measured alternately in the same process or run.")
    md.append("\n## Issue 21 targets\n")
    md.append(judged + " Computed by `bench/make_results.py` from the JSON outputs of this run.\n")
    md.extend(table)

    md.extend(lsp_section(load_optional(args.lsp)))

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

    for section in args.section:
        if os.path.exists(section):
            md.append("")
            md.append(open(section).read().rstrip())

    journal = journal_of(args.out)
    if journal:
        md.extend(["", journal])
    open(args.out, "w", encoding="utf-8").write("\n".join(md) + "\n")


if __name__ == "__main__":
    main()
