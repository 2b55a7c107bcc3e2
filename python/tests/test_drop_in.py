"""The drop-in differential test: snnplan's recommend_snn_distributed_strategy() and
recommended_pipeline_microbatches() against the reference's outcomes for the same calls (the
cases of drop_in_cases.py; the reference's outcomes are the golden digests of tests/data/drop_in/,
made by tools/gen_drop_in_golden.py). Every call must give the same record or raise the same
exception type with the same message.

  python3 test_drop_in.py --golden-dir tests/data/drop_in

Exits 1 naming the first groups of calls whose outcomes differ (each call with snnplan's outcome).
"""
import argparse
import hashlib
import json
import sys
import time
from pathlib import Path

import drop_in_cases
import snnplan


def digest(texts):
    h = hashlib.blake2b(digest_size=4)
    for text in texts:
        h.update(text.encode("utf-8", "surrogatepass"))
        h.update(b"\0")
    return h.digest()


def main():
    parser = argparse.ArgumentParser()
    parser.add_argument("--golden-dir", required=True)
    parser.add_argument("--show", type=int, default=3, help="how many differing groups to print")
    args = parser.parse_args()
    golden = Path(args.golden_dir)
    meta = json.loads((golden / "meta.json").read_text(encoding="utf-8"))
    expected = (golden / "expected.bin").read_bytes()
    cases_file = Path(drop_in_cases.__file__)
    if hashlib.sha256(cases_file.read_bytes()).hexdigest() != meta["cases_sha256"]:
        sys.exit(f"{cases_file} is not the file the golden data was made from: "
                 "run tools/gen_drop_in_golden.py again")

    functions = {name: getattr(snnplan, name) for name in
                 ("recommend_snn_distributed_strategy", "recommended_pipeline_microbatches")}
    skipped = set(meta["skipped"])
    group_size = meta["group"]
    started = time.perf_counter()
    differing = []
    group, calls = [], []
    for index, (kind, name, call_args, call_kwargs) in enumerate(drop_in_cases.cases(meta["seed"], meta["count"])):
        text = "skipped" if index in skipped else drop_in_cases.outcome(functions[name], call_args, call_kwargs)
        group.append(text)
        calls.append((index, kind, name, call_args, call_kwargs, text))
        if len(group) == group_size or index == meta["count"] - 1:
            at = (index // group_size) * 4
            if digest(group) != expected[at:at + 4]:
                differing.append(calls)
            group, calls = [], []
    elapsed = time.perf_counter() - started

    checked = meta["count"] - len(skipped)
    if differing:
        print(f"FAIL: {len(differing)} of {len(expected) // 4} groups of {group_size} calls differ from the reference")
        for calls in differing[:args.show]:
            print("group:")
            for index, kind, name, call_args, call_kwargs, text in calls:
                print(f"  #{index} {kind} {name}(*{call_args!r}, **{call_kwargs!r})\n      snnplan: {text}")
        return 1
    print(f"ok: {checked} calls ({meta['count']} drawn, {len(skipped)} skipped as too slow for the reference) "
          f"match the reference in {elapsed:.1f} s; reference outcomes: {meta['outcomes']}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
