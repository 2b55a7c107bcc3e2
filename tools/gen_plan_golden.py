#!/usr/bin/env python3
"""Writes tests/data/plan/upstream_SNAPSHOT.jsonl: `snnplan plan --batch` requests with the
answer of SpikingJelly's own plan() at one upstream commit (../shared/reference/upstream/,
through its plan_parity.py mapping), so the project's tests hold plan parity without
../shared. SNAPSHOT is the seed's commit (a0209834, the default; rules/snn_plan.yaml) or
HEAD (afb13226; rules/history/plan_HEAD.yaml).

  python3 tools/gen_plan_golden.py [--snapshot HEAD] [--reference-dir ../shared/reference/upstream] [--out FILE]
  python3 tools/gen_plan_golden.py --refresh tests/data/plan/plan.jsonl   # new answers, same requests

The requests are plan_parity.py's random cases over several seeds. Each case is put in a
class -- the error's wording with its values blanked and which optional keys the request
gives (they decide the order of checks), or the plan's mode, optimizer strategy, memopt level,
notes, roots, dp dimension and mesh rank -- and every class keeps its first cases (up to
--per-class), so rare errors and branches are all present; then a random sample of the rest
fills up to --total. One line per case: {"input": request, "expected": upstream's plan as JSON or
{"error": message}}; the plan's fields are upstream's, in its order (at HEAD, where mesh_shape,
tp_mesh_dim and dp_mesh_dim are properties, they follow the fields, as plan_parity.py reads them).

Left out: requests whose topology holds a world size of 2^63 or more (their sizes' product or
the world_size given) where upstream raises a later error (objective, features, mode, ...):
snnplan answers those with its 64-bit error, as it does where upstream returns such a plan
(docs/plan.md). Their topology errors (exact big numbers) are kept.
"""
import argparse
import json
import random
import os
import sys

HERE = os.path.dirname(os.path.abspath(__file__))


TOPOLOGY_ERRORS = ("Topology ", "world_size ", "dims ")


def beyond_64_bits(case, expected):
    """Whether snnplan's 64-bit error stands for upstream's answer to `case` (see the docstring)."""
    if "error" in expected and expected["error"].startswith(TOPOLOGY_ERRORS):
        return False
    product = 1
    for size in case["topology"].values():
        if isinstance(size, bool) or not isinstance(size, (int, float)) or size != int(size):
            return False
        product *= int(size)
    world = case.get("world_size")
    return product >= 2 ** 63 or (isinstance(world, (int, float)) and not isinstance(world, bool) and world >= 2 ** 63)


def main():
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--reference-dir", default=os.path.join(HERE, "..", "..", "shared", "reference", "upstream"))
    ap.add_argument("--snapshot", default="a0209834", help="upstream commit: a0209834 (the seed's) or HEAD")
    ap.add_argument("--out", help="default: tests/data/plan/upstream_SNAPSHOT.jsonl")
    ap.add_argument("--seeds", type=int, nargs="+", default=[101, 102, 103, 104, 105])
    ap.add_argument("--n", type=int, default=20000, help="random cases per seed")
    ap.add_argument("--per-class", type=int, default=6)
    ap.add_argument("--total", type=int, default=2500)
    ap.add_argument("--refresh", metavar="FILE", help="rewrite the expected answers of FILE's requests")
    args = ap.parse_args()

    sys.path.insert(0, os.path.abspath(args.reference_dir))
    import extract  # noqa: E402  (the reference's torch-free upstream modules)
    import plan_parity  # noqa: E402

    snapshot = extract.PlanSnapshot(args.snapshot)
    out_path = args.out or os.path.join(HERE, "..", "tests", "data", "plan", f"upstream_{args.snapshot}.jsonl")
    if args.refresh:
        with open(args.refresh, encoding="utf-8") as f:
            requests = [json.loads(line)["input"] for line in f if line.strip()]
        with open(args.refresh, "w", encoding="utf-8") as out:
            for case in requests:
                out.write(json.dumps({"input": case, "expected": snapshot.plan(case)}, ensure_ascii=False) + "\n")
        print(f"{len(requests)} answers rewritten in {args.refresh}")
        return
    kept, classes, rest = [], {}, []
    for seed in args.seeds:
        for case in plan_parity.cases(args.n, seed):
            expected = snapshot.plan(case)
            if "error" in expected and beyond_64_bits(case, expected):
                continue
            if "error" in expected:  # the order of checks shows where the request has several faults
                label = "error: " + plan_parity.shape(expected["error"]) + " / given: " + ", ".join(
                    k for k in ("world_size", "features", "mode", "model_family") if k in case)
            else:
                label = "plan: " + ", ".join(str(x) for x in (
                    expected["mode"], expected["optimizer_strategy"], expected["memopt_level"], len(expected["notes"]),
                    expected["tensor_parallel_roots"] is None, expected["dp_mesh_dim"], len(expected["mesh_shape"])))
            entry = {"input": case, "expected": expected}
            if classes.get(label, 0) < args.per_class:
                classes[label] = classes.get(label, 0) + 1
                kept.append(entry)
            else:
                rest.append(entry)
    random.Random(0).shuffle(rest)
    kept += rest[:max(0, args.total - len(kept))]
    with open(out_path, "w", encoding="utf-8") as out:
        for entry in kept:
            out.write(json.dumps(entry, ensure_ascii=False) + "\n")
    print(f"{len(kept)} cases in {len(classes)} classes -> {os.path.relpath(out_path)}")


if __name__ == "__main__":
    main()
