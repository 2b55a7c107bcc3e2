#!/usr/bin/env python3
"""Generate tests/data/drop_in/ (the drop-in differential test's golden data) from the reference.

  python3 tools/gen_drop_in_golden.py [--reference-dir DIR] [--out-dir DIR] [--count N] [--seed S]

DIR for --reference-dir defaults to ../shared/reference (beside the repository); it must hold
seed_reference.py. The calls are python/tests/drop_in_cases.py's cases(seed, count); each is run
against the reference and its outcome (drop_in_cases.outcome: the record's fields or the
exception's type and message) is hashed. Writes:

  expected.bin  blake2b digests (4 bytes) of the outcomes of each group of GROUP consecutive
                calls, in order: small enough to commit, and a mismatch still names 8 calls.
  meta.json     seed, count, group size, the sha256 of drop_in_cases.py and of the reference
                (the test refuses golden data made from other cases), the calls skipped (see
                below), and how many calls of each kind the reference answered or refused
                with each exception type.

Calls that would make the reference's microbatch scan try more than SCAN_CAP candidates (huge
batch sizes and stage counts; its loop is linear) are skipped, decided by counting, not timing,
and listed in meta.json so that the test skips the same ones.
"""
import argparse
import collections
import hashlib
import importlib.util
import inspect
import json
import os
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT / "python" / "tests"))
import drop_in_cases  # noqa: E402  (found through the path above)

GROUP = 8
SCAN_CAP = 2000


class TooLongScan(Exception):
    pass


def load_reference(directory):
    spec = importlib.util.spec_from_file_location("seed_reference", os.path.join(directory, "seed_reference.py"))
    module = importlib.util.module_from_spec(spec)
    sys.modules[spec.name] = module  # its dataclass looks its module up there
    spec.loader.exec_module(module)
    return module


def check_scan(batch_size, num_stages):
    """Raises TooLongScan when the reference's microbatch search would try more than SCAN_CAP
    candidates: counted by walking at most SCAN_CAP of them."""
    if isinstance(batch_size, int) and isinstance(num_stages, int) and 0 < num_stages <= batch_size:
        target = min(batch_size, num_stages * 4)
        if target - num_stages + 1 > SCAN_CAP and all(batch_size % c for c in range(target, target - SCAN_CAP, -1)):
            raise TooLongScan()


def bounded_microbatches(reference):
    """The reference's recommended_pipeline_microbatches as its recommender calls it (through
    the module's global name), checked with check_scan first."""
    search = reference.recommended_pipeline_microbatches

    def bounded(batch_size, num_stages):
        check_scan(batch_size, num_stages)
        return search(batch_size, num_stages)

    return bounded


def check_direct_call(args, kwargs):
    """check_scan for a direct call of recommended_pipeline_microbatches, when it binds."""
    try:
        bound = inspect.signature(check_scan).bind(*args, **kwargs)
    except TypeError:
        return  # an argument error: the reference raises it at once
    check_scan(*bound.args, **bound.kwargs)


def digest(texts):
    h = hashlib.blake2b(digest_size=4)
    for text in texts:
        h.update(text.encode("utf-8", "surrogatepass"))
        h.update(b"\0")
    return h.digest()


def sha256(path):
    return hashlib.sha256(Path(path).read_bytes()).hexdigest()


def main():
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--reference-dir", default=str(ROOT.parent / "shared" / "reference"))
    parser.add_argument("--out-dir", default=str(ROOT / "tests" / "data" / "drop_in"))
    parser.add_argument("--count", type=int, default=240000)
    parser.add_argument("--seed", type=int, default=20261201)
    args = parser.parse_args()

    reference = load_reference(args.reference_dir)
    # The public functions themselves (argument errors name them), but the recommender's own
    # call of the microbatch search goes through the module's global name: bounded.
    functions = {name: getattr(reference, name) for name in
                 ("recommend_snn_distributed_strategy", "recommended_pipeline_microbatches")}
    reference.recommended_pipeline_microbatches = bounded_microbatches(reference)

    digests = bytearray()
    group = []
    skipped = []
    tally = collections.Counter()
    for index, (kind, name, call_args, call_kwargs) in enumerate(drop_in_cases.cases(args.seed, args.count)):
        try:
            if name == "recommended_pipeline_microbatches":
                check_direct_call(call_args, call_kwargs)
            text = drop_in_cases.outcome(functions[name], call_args, call_kwargs, passthrough=TooLongScan)
        except TooLongScan:
            skipped.append(index)
            text = "skipped"
        else:
            tally[f"{kind} {text.split(':')[0] if text.startswith('raise') else text.split(' ')[0]}"] += 1
        group.append(text)
        if len(group) == GROUP:
            digests += digest(group)
            group = []
    if group:
        digests += digest(group)

    out = Path(args.out_dir)
    out.mkdir(parents=True, exist_ok=True)
    (out / "expected.bin").write_bytes(bytes(digests))
    meta = {
        "seed": args.seed,
        "count": args.count,
        "group": GROUP,
        "cases_sha256": sha256(ROOT / "python" / "tests" / "drop_in_cases.py"),
        "reference_sha256": sha256(os.path.join(args.reference_dir, "seed_reference.py")),
        "python": f"{sys.version_info.major}.{sys.version_info.minor}",
        "skipped": skipped,
        "outcomes": dict(sorted(tally.items())),
    }
    (out / "meta.json").write_text(json.dumps(meta, indent=1) + "\n", encoding="utf-8")
    print(f"{args.count} calls, {len(skipped)} skipped, {len(digests)} bytes of digests -> {out}")
    for key, value in sorted(tally.items()):
        print(f"  {key}: {value}")


if __name__ == "__main__":
    main()
