#!/usr/bin/env python3
"""plan_training per call: snnplan's planning rules against upstream's Python, in one run.

Times upstream's own plan_training() (../shared/reference/upstream: run unchanged with a
stand-in torch of three dtypes, as plan_training_parity.py runs it) on each request of
bench/plan_training_cases.json with timeit, then runs plan_training_bench (Google Benchmark,
C++) on the same requests, checks that both give the same answers (snnplan plan-training
--batch), and prints a Markdown table: ns per call each, the ratio, and the C++ explain time.
The Python drop-in, snnplan.plan_training(config, ...) on the same config objects (what a
launcher calls: the config read, the rules evaluated, a new config made with
dataclasses.replace as upstream makes it), is timed beside them from the build's package
(BUILD/python, BUILD being the directory of SNNPLAN_BINARY, or --python-path).

Usage: plan_training_speed.py BENCH_BINARY SNNPLAN_BINARY [--reference DIR] [--min-time S]
                              [--python-path DIR]
"""
import argparse
import json
import os
import subprocess
import sys
import timeit

HERE = os.path.dirname(os.path.abspath(__file__))
CASES = os.path.join(HERE, "plan_training_cases.json")


def main():
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("bench")
    ap.add_argument("snnplan")
    ap.add_argument("--reference", default=os.path.join(HERE, "..", "..", "shared", "reference", "upstream"))
    ap.add_argument("--min-time", type=float, default=0.5)
    ap.add_argument("--python-path", help="where the snnplan package is built (default: BUILD/python)")
    args = ap.parse_args()
    sys.path.insert(0, os.path.abspath(args.reference))
    import plan_training_parity as parity  # upstream's planner, unchanged, and its config builder
    sys.path.insert(0, os.path.abspath(args.python_path or
                                       os.path.join(os.path.dirname(os.path.abspath(args.snnplan)), "python")))
    import snnplan  # the drop-in, built beside the CLI

    mod, torch = parity.load_planning()
    cases = json.load(open(CASES))
    # The same answers first: a ratio compares two implementations of one function.
    payload = "".join(json.dumps(c["request"]) + "\n" for c in cases)
    ours = subprocess.run([args.snnplan, "plan-training", "--batch", "-"], input=payload,
                          capture_output=True, text=True).stdout.splitlines()
    for c, line in zip(cases, ours):
        why = parity.differs(parity.upstream_answer(c["request"], mod, torch), json.loads(line))
        if why:
            sys.exit("%s: snnplan and upstream disagree: %s" % (c["name"], why))

    def best_ns(call):
        timer = timeit.Timer(call)
        number, elapsed = timer.autorange()
        while elapsed < args.min_time:
            number *= 2
            elapsed = timer.timeit(number)
        return min(timer.repeat(repeat=3, number=number)) / number * 1e9

    python_ns = {}
    drop_in_ns = {}
    for c in cases:
        req = c["request"]
        config = parity.build(req, torch)
        arguments = dict(world_size=req["world_size"], device_memory_bytes=req["device_memory_bytes"],
                         objective=req["objective"], memory_fraction=req["memory_fraction"])

        def call(plan_training):
            try:
                plan_training(config, **arguments)
            except ValueError:
                pass

        python_ns[c["name"]] = best_ns(lambda: call(mod.plan_training))
        drop_in_ns[c["name"]] = best_ns(lambda: call(snnplan.plan_training))

    out = subprocess.run([args.bench, CASES, "--benchmark_format=json",
                          "--benchmark_min_time=%g" % args.min_time],
                         capture_output=True, text=True, check=True).stdout
    results = json.loads(out)["benchmarks"]
    cpp = {b["name"]: b for b in results}
    print("| request | upstream Python µs | snnplan µs | ratio | explain ms (steps) | Python drop-in µs | its ratio |")
    print("| --- | ---: | ---: | ---: | ---: | ---: | ---: |")
    for c in cases:
        name = c["name"]
        ev = cpp["plan_training/evaluate/" + name]
        ex = cpp["plan_training/explain/" + name]
        ns = ev["cpu_time"] if ev["time_unit"] == "ns" else ev["cpu_time"] * 1e3
        ex_ms = ex["cpu_time"] if ex["time_unit"] == "ms" else ex["cpu_time"] / 1e6
        print("| %s | %.1f | %.1f | **%.1fx** | %.2f (%d) | %.1f | %.1fx |" % (
            name, python_ns[name] / 1e3, ns / 1e3, python_ns[name] / ns, ex_ms, ex["steps"],
            drop_in_ns[name] / 1e3, python_ns[name] / drop_in_ns[name]))


if __name__ == "__main__":
    main()
