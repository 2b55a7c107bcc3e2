#!/usr/bin/env python3
"""Parity: snnplan.recommend_snn_distributed_strategy against the reference Python function.

When the reference directory (../shared/reference: seed_reference.py and parity.py) exists,
compares both on parity.py's random_cases (--n of them, default 20000), on the same cases
with backend/flags left out or None, and on a sample of parity.py's grid. Every field must
be equal with the same Python type (tuples stay tuples, None stays None), repr() identical,
and every ValueError message identical. Without the reference directory it falls back to
the golden data (which test_golden.py also checks).
"""
import argparse
import importlib.util
import os
import random
import sys
import unittest

import _common
import snnplan

ARGS = None


def load_module(name, path):
    spec = importlib.util.spec_from_file_location(name, path)
    module = importlib.util.module_from_spec(spec)
    sys.modules[name] = module
    spec.loader.exec_module(module)
    return module


def reference_available():
    return os.path.isfile(os.path.join(ARGS.reference_dir, "seed_reference.py")) and \
        os.path.isfile(os.path.join(ARGS.reference_dir, "parity.py"))


def with_defaults(cases, seed):
    """The same cases with backend and flags sometimes left out, sometimes None, sometimes
    given as truthy/falsy non-bools (the reference counts flags by truth value)."""
    rng = random.Random(seed)
    for case in cases:
        case = dict(case)
        if rng.random() < 0.3:
            del case["backend"]
        for flag in _common.FLAGS:
            r = rng.random()
            if r < 0.25:
                del case[flag]
            elif r < 0.45:
                case[flag] = None
            elif r < 0.55:
                case[flag] = rng.choice([0, 1, "", "yes"])
        yield case


class ParityTest(unittest.TestCase):
    def compare(self, cases, label):
        ref = self.ref
        bad = 0
        n = 0
        for case in cases:
            n += 1
            want = _common.outcome(ref.recommend_snn_distributed_strategy, case)
            got = _common.outcome(snnplan.recommend_snn_distributed_strategy, case)
            if want[0] == "ok" and got[0] == "ok":
                same = (repr(want[1]) == repr(got[1])
                        and all(_common.signature(getattr(want[1], f)) == _common.signature(getattr(got[1], f))
                                for f in _common.FIELDS))
            else:
                same = want == got
            if not same:
                bad += 1
                if bad <= 5:
                    print(f"{label} mismatch: {case!r}\n  want: {want!r}\n  got:  {got!r}")
        print(f"parity ({label}): {n - bad}/{n} cases match")
        self.assertGreaterEqual(n, 1)
        self.assertEqual(bad, 0, f"{bad} of {n} {label} cases differ")
        return n

    @classmethod
    def setUpClass(cls):
        if reference_available():
            cls.ref = load_module("seed_reference", os.path.join(ARGS.reference_dir, "seed_reference.py"))
            cls.parity = load_module("parity", os.path.join(ARGS.reference_dir, "parity.py"))

    def setUp(self):
        if not reference_available():
            self.skipTest(f"no reference in {ARGS.reference_dir}")

    def test_random_cases(self):
        n = self.compare(self.parity.random_cases(ARGS.n, ARGS.seed), "random")
        self.assertGreaterEqual(n, 10000)

    def test_random_cases_with_defaults(self):
        cases = with_defaults(self.parity.random_cases(ARGS.n // 4, ARGS.seed + 1), ARGS.seed + 2)
        self.compare(cases, "defaults")

    def test_grid_sample(self):
        grid = list(self.parity.grid_cases())
        step = max(1, len(grid) // ARGS.grid)
        self.compare(grid[::step], "grid")

    def test_unusual_strings(self):
        prefers = ["SPÉED", "Speed", "MEMORY\u0130", "ΣΑΣ", "İ", "capacity ", "ca\u0000pacity", "ẞ", "\U0001F600"]
        models = ["ünïcode", "Spikformer", "spikformer\u00e9", "a\u0000b", "'\"\\", "\U0001F600", ""]
        cases = [dict(model=m, world_size=w, prefer=p, batch_size=64, backend=b)
                 for m in models for p in prefers + ["speed", "memory", "capacity"]
                 for w in (1, 8) for b in ("inductor", "ëager")]
        self.compare(cases, "unusual strings")

    def test_signature(self):
        import inspect
        want = inspect.signature(self.ref.recommend_snn_distributed_strategy)
        got = inspect.signature(snnplan.recommend_snn_distributed_strategy)
        want_params = [(p.name, p.kind, p.default) for p in want.parameters.values()]
        got_params = [(p.name, p.kind, p.default) for p in got.parameters.values()
                      if p.kind != inspect.Parameter.KEYWORD_ONLY]  # plus snnplan's rules=
        self.assertEqual(got_params, want_params)
        self.assertEqual([f.name for f in __import__("dataclasses").fields(self.ref.SNNDistributedRecommendation)],
                         [f.name for f in __import__("dataclasses").fields(snnplan.SNNDistributedRecommendation)])


class GoldenFallbackTest(unittest.TestCase):
    def test_golden_when_no_reference(self):
        if reference_available():
            self.skipTest("the reference is present (ParityTest ran); golden is checked by test_golden.py")
        n, bad = _common.check_golden_recommend(os.path.join(ARGS.golden_dir, "recommend.jsonl"), print)
        print(f"golden recommend (fallback): {n - bad}/{n} cases match")
        self.assertEqual(bad, 0)


if __name__ == "__main__":
    parser = argparse.ArgumentParser()
    parser.add_argument("--reference-dir", default=os.path.join(os.path.dirname(__file__), "..", "..", "..",
                                                                "shared", "reference"))
    parser.add_argument("--golden-dir", required=True)
    parser.add_argument("--n", type=int, default=20000)
    parser.add_argument("--seed", type=int, default=7)
    parser.add_argument("--grid", type=int, default=20000, help="grid cases to sample")
    ARGS, rest = parser.parse_known_args()
    unittest.main(argv=[sys.argv[0]] + rest, verbosity=2)
