#!/usr/bin/env python3
"""Compares the engine-vs-baseline ratios of two engine_bench binaries, measured in one run.

    python3 bench/compare.py OLD/bench/engine_bench NEW/bench/engine_bench [--rounds 6]

Each round runs both binaries' `ratio/` benchmarks (old first on even rounds, new first on odd
ones, so neither always runs on a warmer or quieter machine) and the medians over the rounds
are compared. The ratios (engine time / hand-written baseline time, both timed in alternating
blocks inside one process) are what to compare: absolute times move with the machine's load.
Build both binaries the same way (bench/run.sh's Release build), e.g. the old one in a
`git worktree` of the commit before a change.
"""
import argparse
import collections
import json
import statistics
import subprocess


def run(binary, min_time):
    out = subprocess.run([binary, "--benchmark_filter=^ratio/", f"--benchmark_min_time={min_time}",
                          "--benchmark_format=json"], capture_output=True, text=True, check=True).stdout
    return {b["name"][len("ratio/"):]: b for b in json.loads(out)["benchmarks"]}


def main():
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("old")
    parser.add_argument("new")
    parser.add_argument("--rounds", type=int, default=6)
    parser.add_argument("--min-time", type=float, default=0.3)
    args = parser.parse_args()
    samples = collections.defaultdict(lambda: collections.defaultdict(list))
    for r in range(args.rounds):
        order = [("old", args.old), ("new", args.new)]
        for label, binary in (order if r % 2 == 0 else order[::-1]):
            for case, b in run(binary, args.min_time).items():
                samples[case][label + " views"].append(b["views_ratio"])
                samples[case][label + " record"].append(b["ratio"])
    print("| case | views / baseline, old | new | change | record / baseline, old | new | change |")
    print("| --- | ---: | ---: | ---: | ---: | ---: | ---: |")
    changes = {"views": [], "record": []}
    for case, s in samples.items():
        row = [case]
        for kind in ("views", "record"):
            old, new = statistics.median(s["old " + kind]), statistics.median(s["new " + kind])
            changes[kind].append(new / old)
            row += [f"{old:.2f}x", f"{new:.2f}x", f"{100 * (new / old - 1):+.1f}%"]
        print("| " + " | ".join(row) + " |")
    for kind, c in changes.items():
        print(f"\n{kind}: geometric mean change {100 * (statistics.geometric_mean(c) - 1):+.1f}%, "
              f"worst case {100 * (max(c) - 1):+.1f}% (medians of {args.rounds} rounds)")


if __name__ == "__main__":
    main()
