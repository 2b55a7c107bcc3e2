#!/usr/bin/env python3
"""The Python module against the pure-Python reference, per call, in one process: one input per
rule of the default table (rules/snn_distributed.yaml) and recommended_pipeline_microbatches.

  PYTHONPATH=build/python python3 bench/python_speed.py [--reference-dir ../shared/reference]
                                                        [--repeat 7] [--number 20000]

For each input: timeit's minimum over --repeat rounds of --number calls, the module's and the
reference's rounds alternating (so both see the same machine load), and the ratio reference /
module. Both must give the same result first. Exits 1 when a ratio is below --require (default 3).
"""
import argparse
import dataclasses
import importlib.util
import os
import sys
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


def per_call(function, args, repeat, number):
    """timeit minimum of each function's rounds, alternating round by round."""
    best = [float("inf")] * len(function)
    for _ in range(repeat):
        for k, f in enumerate(function):
            timer = timeit.Timer(lambda: f(*args))
            best[k] = min(best[k], timer.timeit(number) / number)
    return best


def main():
    root = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--reference-dir", default=os.path.join(root, "..", "shared", "reference"))
    parser.add_argument("--repeat", type=int, default=7)
    parser.add_argument("--number", type=int, default=20000)
    parser.add_argument("--require", type=float, default=3.0)
    args = parser.parse_args()
    reference = load_reference(args.reference_dir)

    rows = []
    for label, call_args in RECOMMEND_CASES:
        ours = snnplan.recommend_snn_distributed_strategy(*call_args)
        theirs = reference.recommend_snn_distributed_strategy(*call_args)
        assert dataclasses.astuple(ours) == dataclasses.astuple(theirs), label
        rows.append((label, per_call([snnplan.recommend_snn_distributed_strategy,
                                      reference.recommend_snn_distributed_strategy], call_args,
                                     args.repeat, args.number)))
    for label, call_args in MICROBATCH_CASES:
        assert snnplan.recommended_pipeline_microbatches(*call_args) == \
            reference.recommended_pipeline_microbatches(*call_args), label
        rows.append((label, per_call([snnplan.recommended_pipeline_microbatches,
                                      reference.recommended_pipeline_microbatches], call_args,
                                     args.repeat, args.number)))

    print(f"{'case':36} {'snnplan':>10} {'reference':>10} {'ratio':>7}")
    slow = []
    for label, (ours, theirs) in rows:
        ratio = theirs / ours
        print(f"{label:36} {ours * 1e6:8.2f}us {theirs * 1e6:8.2f}us {ratio:6.1f}x")
        if ratio < args.require:
            slow.append(label)
    print(f"python {sys.version.split()[0]}; timeit minimum of {args.repeat} alternating rounds of {args.number} calls")
    if slow:
        print(f"below {args.require}x: {', '.join(slow)}")
        return 1
    return 0


if __name__ == "__main__":
    sys.exit(main())
