#!/usr/bin/env python3
"""The snnplan module against tests/data/golden (recommend.jsonl, microbatches.jsonl).

Run by ctest with PYTHONPATH set to the directory holding the built module:
  PYTHONPATH=build/python python3 python/tests/test_golden.py --golden-dir tests/data/golden
"""
import argparse
import os
import sys
import unittest

import _common

GOLDEN_DIR = None


class GoldenTest(unittest.TestCase):
    def test_recommend(self):
        n, bad = _common.check_golden_recommend(os.path.join(GOLDEN_DIR, "recommend.jsonl"), print)
        print(f"golden recommend: {n - bad}/{n} cases match")
        self.assertGreater(n, 1000)
        self.assertEqual(bad, 0)

    def test_microbatches(self):
        n, bad = _common.check_golden_microbatches(os.path.join(GOLDEN_DIR, "microbatches.jsonl"), print)
        print(f"golden microbatches: {n - bad}/{n} cases match")
        self.assertGreater(n, 1000)
        self.assertEqual(bad, 0)


if __name__ == "__main__":
    parser = argparse.ArgumentParser()
    parser.add_argument("--golden-dir", required=True)
    args, rest = parser.parse_known_args()
    GOLDEN_DIR = args.golden_dir
    unittest.main(argv=[sys.argv[0]] + rest, verbosity=2)
