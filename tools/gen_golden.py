#!/usr/bin/env python3
"""Generate the golden test data in tests/data/golden/ from the reference recommender.

  python3 tools/gen_golden.py [--reference-dir DIR] [--out-dir DIR]

DIR for --reference-dir defaults to ../shared/reference relative to the repository
root (the parent of tools/); it must contain seed_reference.py. Uses only the Python
standard library. The output is fully deterministic (fixed seeds, stable order).

Writes:
  recommend.jsonl     {"input": {...}, "expected": {...}} per line, where expected is
                      the 16 fields of SNNDistributedRecommendation in declaration
                      order (tuples as lists, None as null) or {"error": "<message>"}.
  microbatches.jsonl  {"batch_size", "num_stages", "expected"} or
                      {"batch_size", "num_stages", "error"} per line.

recommend.jsonl is made of these sections, in this order:
  1. grid:     up to 3 examples (first, middle and last occurrence, in grid order) of
               every distinct outcome signature of the full parity grid (the grid of
               parity.py's grid_cases()).
  2. defaults: ~200 cases with some availability flags and/or backend omitted,
               which means the reference defaults (flags None -> True, "inductor").
  3. random:   3000 cases of parity.py's random_cases() generator, seed 20261129.
  4. edge:     large/extreme integers (near 2**62, 2**63-1, -(2**63)), unusual
               model strings (unicode, quotes, backslash) and prefer spellings.
               Only cases where the reference's microbatch scan tries at most
               EDGE_SCAN_CAP candidates are kept (decided by counting, not timing,
               so the output does not depend on machine speed).
"""
from __future__ import annotations

import argparse
import itertools
import json
import os
import random
import re
import sys
from dataclasses import asdict

REPO_ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
DEFAULT_REFERENCE_DIR = os.path.join(REPO_ROOT, "..", "shared", "reference")

FLAGS = ["zero_redundancy_optimizer_available", "pipelining_available",
         "fsdp2_available", "tensor_parallel_available"]
INPUT_KEYS = ["model", "world_size", "prefer", "batch_size", "backend"] + FLAGS
OPTIONAL_KEYS = ["backend"] + FLAGS

RANDOM_SEED = 20261129
RANDOM_N = 3000
DEFAULTS_SEED = 20261130
DEFAULTS_N = 200
MICRO_SEED = 20261131
MICRO_RANDOM_N = 300
EXAMPLES_PER_SIGNATURE = 3
# Largest number of candidates the reference's microbatch scan may try for an
# extra (edge / random microbatch) case to be kept; ~10 ms of Python at most.
EDGE_SCAN_CAP = 100_000
MAX_RECOMMEND_BYTES = 4_000_000

ref = None  # the seed_reference module, imported in main()


# --------------------------------------------------------------------------
# Case generators (copied from parity.py, which cannot be imported: it runs main)
# --------------------------------------------------------------------------

def grid_cases():
    models = ["cifar10dvs_vgg", "spikformer", "spikformer_8_384", "sew_resnet18",
              "generic", "", "Spikformer"]
    worlds = [-1, 0, 1, 2, 3, 4, 5, 6, 7, 8, 12, 16, 64, 1024]
    prefers = ["speed", "memory", "capacity", "SPEED", "Capacity", "bogus"]
    batches = [-4, 0, 1, 2, 3, 4, 7, 8, 13, 17, 31, 32, 64, 97, 128, 1000, 1021]
    backends = ["inductor", "eager"]
    for m, w, p, b, be, flags in itertools.product(
            models, worlds, prefers, batches, backends,
            itertools.product([True, False], repeat=4)):
        case = {"model": m, "world_size": w, "prefer": p, "batch_size": b, "backend": be}
        case.update(dict(zip(FLAGS, flags)))
        yield case


def random_cases(n, seed):
    rng = random.Random(seed)
    models = ["cifar10dvs_vgg", "spikformer", "spikformer_x", "resnet", "vgg",
              "cifar10dvs_vgg2", "a'b", 'q"uote', "ünïcode", "back\\slash"]
    prefers = ["speed", "memory", "capacity", "MeMoRy", "CAPACITY", "fast", ""]
    for _ in range(n):
        w = rng.choice([rng.randint(-3, 9), rng.randint(1, 4096), 2 ** rng.randint(0, 20)])
        b = rng.choice([rng.randint(-3, 64), rng.randint(1, 1 << 16), w * rng.randint(1, 9),
                        rng.randint(1, 9) * 4 * max(w, 1) + rng.randint(-2, 2)])
        case = {"model": rng.choice(models), "world_size": w,
                "prefer": rng.choice(prefers), "batch_size": b,
                "backend": rng.choice(["inductor", "eager", "aot_eager"])}
        case.update({f: rng.random() < 0.7 for f in FLAGS})
        yield case


# --------------------------------------------------------------------------
# Reference evaluation and signatures
# --------------------------------------------------------------------------

def expected(case):
    """The reference's answer for case (omitted keys use the reference defaults)."""
    try:
        rec = ref.recommend_snn_distributed_strategy(**case)
    except ValueError as err:
        return {"error": str(err)}
    out = asdict(rec)  # declaration order
    for key in ("mesh_shape", "pp_layout", "rationale"):
        if out[key] is not None:
            out[key] = list(out[key])
    return out


def signature(exp):
    if "error" in exp:
        return ("error", re.sub(r"[0-9]", "#", exp["error"]))
    return ("ok", exp["mode"], exp["optimizer_sharding"], exp["memopt_level"],
            exp["mesh_shape"] is None, exp["tp_mesh_dim"], exp["dp_mesh_dim"],
            exp["pp_microbatches"] is None, exp["pp_schedule"],
            exp["pp_virtual_stages"], tuple(exp["rationale"][1:]))


def scan_candidates(batch_size, num_stages, cap):
    """How many candidates recommended_pipeline_microbatches tries (0 if it raises
    before scanning); None if more than cap."""
    if batch_size <= 0 or num_stages <= 0 or batch_size < num_stages:
        return 0
    target = min(batch_size, num_stages * 4)
    steps = 0
    for candidate in range(target, num_stages - 1, -1):
        steps += 1
        if steps > cap:
            return None
        if batch_size % candidate == 0:
            break
    return steps


def recommend_scan_candidates(case, cap):
    """Mirror of the reference's control flow: the microbatch scan cost of case."""
    prefer = case["prefer"].lower()
    w, b = case["world_size"], case["batch_size"]
    pipelining = case.get("pipelining_available")
    if prefer != "capacity" or w <= 1 or pipelining is False:
        return 0
    if b >= w * 2 and w >= 2:
        vs = 2
    elif b >= w:
        vs = 1
    else:
        return 0
    return scan_candidates(b, w * vs, cap)


def make_case(model, world_size, prefer, batch_size, backend="inductor",
              flags=(True, True, True, True)):
    case = {"model": model, "world_size": world_size, "prefer": prefer,
            "batch_size": batch_size, "backend": backend}
    case.update(dict(zip(FLAGS, flags)))
    return case


# --------------------------------------------------------------------------
# Sections of recommend.jsonl
# --------------------------------------------------------------------------

def grid_section():
    occurrences = {}  # signature -> list of grid indices, in grid order
    total = 0
    for index, case in enumerate(grid_cases()):
        occurrences.setdefault(signature(expected(case)), []).append(index)
        total += 1
    chosen = set()
    for indices in occurrences.values():
        n = len(indices)
        picks = [0, n // 2, n - 1][:EXAMPLES_PER_SIGNATURE]
        chosen.update(indices[i] for i in picks)
    cases = [case for index, case in enumerate(grid_cases()) if index in chosen]
    return cases, occurrences, total


def defaults_section():
    """Cases with a non-empty subset of backend/flags omitted; every one of the 31
    subsets is used several times (mask cycles through 1..31)."""
    rng = random.Random(DEFAULTS_SEED)
    models = ["cifar10dvs_vgg", "spikformer", "spikformer_8_384", "generic", "ünïcode"]
    prefers = ["speed", "memory", "capacity", "Capacity", "MeMoRy", "bogus"]
    cases = []
    for i in range(DEFAULTS_N):
        mask = i % 31 + 1
        w = rng.choice([rng.randint(-1, 9), 2 * rng.randint(1, 64), rng.randint(1, 1024)])
        b = rng.choice([rng.randint(-2, 40), w * rng.randint(1, 9),
                        rng.randint(1, 9) * 4 * max(w, 1) + rng.randint(-2, 2)])
        full = make_case(rng.choice(models), w, rng.choice(prefers), b,
                         rng.choice(["inductor", "eager"]),
                         tuple(rng.random() < 0.5 for _ in FLAGS))
        omit = {k for bit, k in enumerate(OPTIONAL_KEYS) if mask >> bit & 1}
        cases.append({k: v for k, v in full.items() if k not in omit})
    return cases


BIG_INTS = [-(2 ** 63), -(2 ** 63) + 1, -(2 ** 62), -2, -1, 0, 1, 2, 3, 4, 5, 6,
            2 ** 31 - 1, 2 ** 31, 2 ** 32 + 2, 2 ** 53, 2 ** 53 + 1,
            2 ** 61, 2 ** 61 + 1, 2 ** 62 - 2, 2 ** 62 - 1, 2 ** 62, 2 ** 62 + 1,
            2 ** 62 + 2, 2 ** 63 - 2, 2 ** 63 - 1]
ODD_MODELS = ["ünïcode", 'q"uote', "a'b", "back\\slash", "spikformer_ünïcode",
              "cifar10dvs_vgg"]
ODD_PREFERS = ["SPEED", "MeMoRy", "", "fast", "Capacity", "speed", "memory", "capacity",
               " speed", "speed ", "CAPACITY"]


def edge_section():
    cases = []
    # every (world_size, batch_size) pair of extreme values, capacity, all flags on
    for w, b in itertools.product(BIG_INTS, BIG_INTS):
        cases.append(make_case("x", w, "capacity", b))
    # extreme world sizes through every memory / capacity-fallback branch
    for w in BIG_INTS:
        # memory ignores pipelining_available: 8 combinations of the other flags
        for i, (zero, fsdp, tp) in enumerate(itertools.product([True, False], repeat=3)):
            cases.append(make_case("x", w, "memory", 2 ** 63 - 1, "eager",
                                   (zero, i % 2 == 0, fsdp, tp)))
        for flags in [(True, False, True, True), (False, False, False, True),
                      (True, False, True, False), (False, False, False, False)]:
            cases.append(make_case("spikformer_big", w, "capacity", 2 ** 62, "inductor",
                                   flags))
        for model in ["cifar10dvs_vgg", "x"]:
            for flags in [(True, True, True, True), (False, True, False, True)]:
                cases.append(make_case(model, w, "speed", -(2 ** 63), "inductor", flags))
    # huge worlds where pipelining succeeds with a quickly found microbatch count
    for w, b in [(2 ** 61, 2 ** 62), (2 ** 61, 2 ** 63 - 1), (2 ** 61 - 1, 2 ** 62 - 2),
                 (2 ** 62 + 1, 2 ** 63 - 1), (2 ** 62 - 1, 2 ** 63 - 2), (2 ** 40, 2 ** 45),
                 (2 ** 40, 2 ** 43 + 2 ** 41), (3, 2 ** 63 - 1), (2, 2 ** 62), (7, 2 ** 62 + 1),
                 (2 ** 31 - 1, 2 ** 33 - 4), (2 ** 32, 2 ** 63 - 1)]:
        for flags in [(True, True, True, True), (False, True, False, False)]:
            cases.append(make_case("x", w, "capacity", b, "eager", flags))
            cases.append(make_case("x", w, "Capacity", b, "aot_eager", flags))
    # unusual model strings and prefer spellings
    for model, prefer in itertools.product(ODD_MODELS, ODD_PREFERS):
        for w, b in [(1, 8), (4, 64), (6, 7), (2 ** 62, 2 ** 63 - 1)]:
            cases.append(make_case(model, w, prefer, b, "inductor"))
    cases.append(make_case("x", 8, "capacity", 64, "ïnductor"))
    cases.append(make_case("x", 8, "speed", 64, 'back"end\\'))
    cases.append(make_case("", 2, "memory", 2, ""))
    # keep only cases whose microbatch scan is cheap; drop exact duplicates
    kept, seen, skipped = [], set(), 0
    for case in cases:
        key = json.dumps(case, ensure_ascii=False)
        if key in seen:
            continue
        seen.add(key)
        if recommend_scan_candidates(case, EDGE_SCAN_CAP) is None:
            skipped += 1
            continue
        kept.append(case)
    return kept, skipped


# --------------------------------------------------------------------------
# microbatches.jsonl
# --------------------------------------------------------------------------

def microbatch_line(b, s):
    line = {"batch_size": b, "num_stages": s}
    try:
        line["expected"] = ref.recommended_pipeline_microbatches(b, s)
    except ValueError as err:
        line["error"] = str(err)
    return line


def microbatch_lines():
    lines = [microbatch_line(b, s) for b in range(-2, 201) for s in range(-2, 61)]
    rng = random.Random(MICRO_SEED)
    pairs, seen, skipped = [], set(), 0
    while len(pairs) < MICRO_RANDOM_N:
        s = rng.choice([rng.randint(1, 5000), rng.randint(1, 64), rng.randint(-3, 5000)])
        kind = rng.randrange(4)
        if kind == 0:    # anything
            b = rng.randint(1, 10 ** 7)
        elif kind == 1:  # near a multiple of the stage count
            b = max(s, 1) * rng.randint(1, 2000) + rng.randint(-3, 3)
        elif kind == 2:  # within [s, 4s]
            b = rng.randint(max(s, 1), 4 * max(s, 1))
        else:            # smaller than the stage count, or non-positive
            b = rng.randint(-3, max(s, 1))
        b = min(b, 10 ** 7)
        if (b, s) in seen or (-2 <= b <= 200 and -2 <= s <= 60):
            continue
        seen.add((b, s))
        if scan_candidates(b, s, EDGE_SCAN_CAP) is None:
            skipped += 1
            continue
        pairs.append((b, s))
    lines += [microbatch_line(b, s) for b, s in pairs]
    return lines, skipped


# --------------------------------------------------------------------------

def write_jsonl(path, objs):
    with open(path, "w", encoding="utf-8", newline="\n") as f:
        for obj in objs:
            f.write(json.dumps(obj, ensure_ascii=False) + "\n")
    return os.path.getsize(path)


def main():
    global ref
    ap = argparse.ArgumentParser(description=__doc__,
                                 formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--reference-dir", default=DEFAULT_REFERENCE_DIR,
                    help="directory holding seed_reference.py "
                         "(default: ../shared/reference from the repository root)")
    ap.add_argument("--out-dir", default=os.path.join(REPO_ROOT, "tests", "data", "golden"),
                    help="output directory (default: tests/data/golden)")
    args = ap.parse_args()

    ref_dir = os.path.abspath(args.reference_dir)
    if not os.path.isfile(os.path.join(ref_dir, "seed_reference.py")):
        ap.error(f"no seed_reference.py in {ref_dir}")
    sys.path.insert(0, ref_dir)
    sys.dont_write_bytecode = True  # leave no __pycache__ beside the reference
    import seed_reference  # noqa: E402
    ref = seed_reference
    os.makedirs(args.out_dir, exist_ok=True)

    grid, occurrences, grid_total = grid_section()
    defaults = defaults_section()
    rand = list(random_cases(RANDOM_N, RANDOM_SEED))
    edge, edge_skipped = edge_section()
    sections = [("grid", grid), ("defaults", defaults), ("random", rand), ("edge", edge)]

    records, covered, all_sigs = [], set(), set()
    for name, cases in sections:
        for case in cases:
            inp = {k: case[k] for k in INPUT_KEYS if k in case}
            exp = expected(inp)
            records.append({"input": inp, "expected": exp})
            sig = signature(exp)
            all_sigs.add(sig)
            if len(inp) == len(INPUT_KEYS):
                covered.add(sig)
    missing = [sig for sig in occurrences if sig not in covered]
    rec_path = os.path.join(args.out_dir, "recommend.jsonl")
    rec_bytes = write_jsonl(rec_path, records)

    micro, micro_skipped = microbatch_lines()
    mb_path = os.path.join(args.out_dir, "microbatches.jsonl")
    mb_bytes = write_jsonl(mb_path, micro)

    print(f"grid: {grid_total} cases, {len(occurrences)} distinct signatures, "
          f"{len(occurrences) - len(missing)} covered, {len(missing)} missing")
    for name, cases in sections:
        print(f"  {name:9s} {len(cases):6d} lines")
    print(f"  edge cases skipped (scan > {EDGE_SCAN_CAP} candidates): {edge_skipped}")
    print(f"  signatures in recommend.jsonl: {len(all_sigs)} "
          f"({len(all_sigs - set(occurrences))} not in the grid)")
    print(f"{rec_path}: {len(records)} lines, {rec_bytes} bytes")
    print(f"{mb_path}: {len(micro)} lines, {mb_bytes} bytes "
          f"({sum('error' in m for m in micro)} errors; "
          f"{micro_skipped} random pairs skipped as too costly)")
    if missing:
        print("error: grid signatures not covered:", missing[:5], file=sys.stderr)
        return 1
    if rec_bytes > MAX_RECOMMEND_BYTES:
        print(f"error: {rec_path} exceeds {MAX_RECOMMEND_BYTES} bytes", file=sys.stderr)
        return 1
    return 0


if __name__ == "__main__":
    sys.exit(main())
