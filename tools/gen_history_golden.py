#!/usr/bin/env python3
"""Generate tests/data/history/VERSION.jsonl: golden recommendations of every older upstream
version of recommend_snn_distributed_strategy, for the rule files rules/history/VERSION.yaml.

  python3 tools/gen_history_golden.py [--upstream-dir DIR] [--out-dir DIR]

DIR for --upstream-dir defaults to ../shared/reference/upstream relative to the repository
root; its extract.py builds each version's oracle and recommend_versions_check.py provides
the cases (its grid and its random cases, seed 7, minus the cases it drops). Standard
library only; the output is deterministic.

Each file holds one {"input": {...}, "expected": {...}} per line, expected being the 16
fields (tuples as lists) or {"error": "<message>"}, chosen from the cases:
  1. every case where this version answers differently from the seed (a0209834), spread
     evenly over the case order, at most DIFFERENT_CAP of them;
  2. up to 3 examples (first, middle, last) of every distinct outcome signature (mode,
     which fields are null, the rationale's shape, the error's first words).
Cases whose pp_layout would exceed LAYOUT_CAP items are left out, to keep files small.
"""
from __future__ import annotations

import argparse
import json
import os
import re
import sys

REPO_ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
DEFAULT_UPSTREAM_DIR = os.path.join(REPO_ROOT, "..", "shared", "reference", "upstream")
VERSIONS = ["3d27124c", "5104da6f", "482d7b8c", "7e44624b"]
SEED = "a0209834"
DIFFERENT_CAP = 400
EXAMPLES_PER_SIGNATURE = 3
LAYOUT_CAP = 256
LOOP_CAP = 200_000


def signature(expected):
    if "error" in expected:
        return ("error", re.sub(r"-?\d+", "N", expected["error"]))
    return (expected["mode"], expected["optimizer_sharding"], expected["memopt_level"],
            expected["pp_schedule"], expected["pp_virtual_stages"],
            tuple(k for k, v in expected.items() if v is None),
            tuple(re.sub(r"-?\d+", "N", line.split(" with model=")[0]) for line in expected["rationale"]))


def spread(items, cap):
    if len(items) <= cap:
        return items
    step = len(items) / cap
    return [items[int(k * step)] for k in range(cap)]


def main():
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--upstream-dir", default=DEFAULT_UPSTREAM_DIR)
    ap.add_argument("--out-dir", default=os.path.join(REPO_ROOT, "tests", "data", "history"))
    args = ap.parse_args()
    sys.path.insert(0, os.path.abspath(args.upstream_dir))
    import extract  # noqa: E402
    import recommend_versions_check as check  # noqa: E402

    cases = list(check.grid_cases()) + list(check.random_cases(5000, 7))
    cases = [c for c in cases if not check.loop_too_long(c, LOOP_CAP)]
    cases = [c for c in cases if (check.logical_stages(c) or 0) <= LAYOUT_CAP]
    seed = extract.load_recommender(SEED)
    seed_answers = [extract.recommendation_json(seed, c) for c in cases]
    os.makedirs(args.out_dir, exist_ok=True)
    for version in VERSIONS:
        mod = extract.load_recommender(version)
        answers = [extract.recommendation_json(mod, c) for c in cases]
        different = [k for k in range(len(cases)) if answers[k] != seed_answers[k]]
        chosen = set(spread(different, DIFFERENT_CAP))
        by_signature = {}
        for k, answer in enumerate(answers):
            by_signature.setdefault(signature(answer), []).append(k)
        for ks in by_signature.values():
            picks = [ks[0], ks[len(ks) // 2], ks[-1]][:EXAMPLES_PER_SIGNATURE]
            chosen.update(picks)
        path = os.path.join(args.out_dir, f"{version}.jsonl")
        with open(path, "w", encoding="utf-8") as out:
            for k in sorted(chosen):
                out.write(json.dumps({"input": cases[k], "expected": answers[k]}, ensure_ascii=False) + "\n")
        print(f"{path}: {len(chosen)} cases ({len(different)} differ from {SEED}, "
              f"{len(by_signature)} signatures)")


if __name__ == "__main__":
    main()
