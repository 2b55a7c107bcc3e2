#!/usr/bin/env python3
"""The Python module against the pure-Python reference, per call, in one process: one input per
rule of the default table (rules/snn_distributed.yaml) and recommended_pipeline_microbatches.

  PYTHONPATH=build/python python3 bench/python_speed.py [--reference-dir ../shared/reference]
                                                        [--repeat 7] [--number 20000] [--clock wall|cpu]

For each input: timeit's minimum over --repeat rounds of --number calls, the module's and the
reference's rounds alternating (so both see the same machine load), and the ratio reference /
module. Both must give the same result first. Exits 1 when a ratio is below --require (default 3).
"""
import argparse
import dataclasses
import importlib.util
import os
import sys
import time
import timeit

import snnplan

# (rule of the default table, arguments): one call per rule.
RECOMMEND_CASES = [
    ("single-rank-speed", ("spikformer", 1, "speed", 64)),
    ("single-rank", ("spikformer", 1, "memory", 64)),
    ("fsdp2-tp-for-cifar10dvs-vgg", ("cifar10dvs_vgg", 8, "speed", 64)),
    ("speed data-parallel", ("resnet18", 8, "speed", 64)),
    ("memory fsdp2-tp", ("spikformer", 8, "memory", 64)),
    ("memory tensor-parallel", ("spikformer", 3, "memory", 64)),
    ("memory fsdp2", ("spikformer", 8, "memory", 64, "inductor", None, None, None, False)),
    ("memory data-parallel-memopt", ("spikformer", 8, "memory", 64, "inductor", None, None, False, False)),
    ("capacity pipeline-interleaved", ("spikformer", 4, "capacity", 64)),
    ("capacity pipeline-1f1b", ("spikformer", 4, "capacity", 6)),
    ("capacity pipeline-batch-too-small", ("spikformer", 8, "capacity", 4)),
    ("capacity pipeline-unavailable", ("spikformer", 8, "capacity", 64, "inductor", None, False)),
]
MICROBATCH_CASES = [("microbatches 64/8", (64, 8)), ("microbatches 96/7", (96, 7))]


def load_reference(directory):
    spec = importlib.util.spec_from_file_location("seed_reference", os.path.join(directory, "seed_reference.py"))
    module = importlib.util.module_from_spec(spec)
    sys.modules[spec.name] = module
    spec.loader.exec_module(module)
    return module


def per_call(function, args, repeat, number, clock):
    """timeit minimum of each function's rounds, alternating round by round. The statement is the
    call itself (no lambda around it, whose own call would add the same ~40 ns to both sides and
    so understate the ratio)."""
    best = [float("inf")] * len(function)
    for _ in range(repeat):
        for k, f in enumerate(function):
            timer = timeit.Timer("f(*args)", timer=clock, globals={"f": f, "args": args})
            best[k] = min(best[k], timer.timeit(number) / number)
    return best


def main():
    root = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--reference-dir", default=os.path.join(root, "..", "shared", "reference"))
    parser.add_argument("--repeat", type=int, default=7)
    parser.add_argument("--number", type=int, default=20000)
    parser.add_argument("--require", type=float, default=3.0)
    parser.add_argument("--clock", choices=["wall", "cpu"], default="wall",
                        help="wall: time.perf_counter (timeit's); cpu: time.thread_time, which leaves out "
                             "the time other processes take the core (a shared machine)")
    parser.add_argument("--markdown", help="also write the table as a section of bench/results.md to this file")
    args = parser.parse_args()
    clock = time.perf_counter if args.clock == "wall" else time.thread_time
    reference = load_reference(args.reference_dir)

    rows = []
    for label, call_args in RECOMMEND_CASES:
        ours = snnplan.recommend_snn_distributed_strategy(*call_args)
        theirs = reference.recommend_snn_distributed_strategy(*call_args)
        assert dataclasses.astuple(ours) == dataclasses.astuple(theirs), label
        rows.append((label, per_call([snnplan.recommend_snn_distributed_strategy,
                                      reference.recommend_snn_distributed_strategy], call_args,
                                     args.repeat, args.number, clock)))
    for label, call_args in MICROBATCH_CASES:
        assert snnplan.recommended_pipeline_microbatches(*call_args) == \
            reference.recommended_pipeline_microbatches(*call_args), label
        rows.append((label, per_call([snnplan.recommended_pipeline_microbatches,
                                      reference.recommended_pipeline_microbatches], call_args,
                                     args.repeat, args.number, clock)))

    print(f"{'case':36} {'snnplan':>10} {'reference':>10} {'ratio':>7}")
    slow = []
    for label, (ours, theirs) in rows:
        ratio = theirs / ours
        print(f"{label:36} {ours * 1e6:8.2f}us {theirs * 1e6:8.2f}us {ratio:6.1f}x")
        if ratio < args.require:
            slow.append(label)
    method = (f"python {sys.version.split()[0]}; timeit minimum of {args.repeat} alternating rounds of {args.number} "
              f"calls, {args.clock} clock; load average {' '.join(open('/proc/loadavg').read().split()[:3])}")
    print(method)
    if args.markdown:
        with open(args.markdown, "w") as out:
            out.write("## Python module vs the reference (`bench/python_speed.py`)\n\n"
                      "The drop-ins of `snnplan` against `seed_reference.py`'s functions in one process, one input "
                      f"per rule of the default table, rounds alternating ({method}; module: "
                      f"`{os.path.dirname(snnplan.__file__)}`). Target: 3x or more on every branch.\n\n"
                      "| case | snnplan | reference | reference / snnplan |\n| --- | ---: | ---: | ---: |\n")
            for label, (ours, theirs) in rows:
                ratio = theirs / ours
                mark = "" if ratio >= args.require else " (below target)"
                out.write(f"| {label} | {ours * 1e6:.2f} us | {theirs * 1e6:.2f} us | **{ratio:.1f}x**{mark} |\n")
            ratios = [theirs / ours for _, (ours, theirs) in rows]
            out.write(f"\nLowest ratio {min(ratios):.1f}x, highest {max(ratios):.1f}x.\n")
    if slow:
        print(f"below {args.require}x: {', '.join(slow)}")
        return 1
    return 0


if __name__ == "__main__":
    sys.exit(main())
