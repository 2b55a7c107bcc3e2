#!/usr/bin/env python3
"""snnplan.run_tests(): rule tests from Python, the same report as `snnplan test --format json`.

  PYTHONPATH=build/python python3 python/tests/test_rule_tests.py --cli build/snnplan --rules-dir rules
"""
import argparse
import json
import os
import pathlib
import subprocess
import sys
import tempfile
import unittest

import snnplan

CLI = None
RULES_DIR = None
# main/big fires from n = 8 on; `ratio` is the float 2.0**62 (shared with the C++ test).
TEST_RULES = None

PASSING = """\
tests:
  - name: eight is big
    tags: [threshold]
    input: {n: 8}
    expect: {mode: big}
  - name: seven is small
    input: {n: 7}
    expect: {mode: small}
"""


def without_time(report):
    """A report with the mutation run's time and thread count left out (they vary)."""
    if "mutation" in report:
        report["mutation"].pop("seconds")
        report["mutation"].pop("threads")
    return report


class RunTestsTest(unittest.TestCase):
    def setUp(self):
        self.scratch = tempfile.TemporaryDirectory()
        self.dir = pathlib.Path(self.scratch.name)
        self.rules_path = TEST_RULES
        self.rules = snnplan.RuleSet.from_file(self.rules_path)

    def tearDown(self):
        self.scratch.cleanup()

    def write(self, name, text):
        path = self.dir / name
        path.write_text(text, encoding="utf-8")
        return path

    def cli_report(self, *args):
        run = subprocess.run([CLI, "test", str(self.rules_path), *map(str, args), "--format", "json"],
                             capture_output=True, text=True, check=False)
        return run.returncode, json.loads(run.stdout)

    def test_passing_tests_give_the_cli_json_report_as_a_dict(self):
        path = self.write("passing.test.yaml", PASSING)
        report = snnplan.run_tests(self.rules, path)
        self.assertEqual((report["passed"], report["failed"]), (2, 0))
        self.assertEqual([t["name"] for t in report["tests"]], ["eight is big", "seven is small"])
        self.assertEqual(report["tests"][0]["tags"], ["threshold"])
        self.assertEqual((report["tests"][0]["line"], report["tests"][0]["column"]), (2, 5))
        self.assertEqual(report["coverage"]["rule"], {"percent": 100.0, "covered": 2, "total": 2, "unreachable": 0})
        self.assertEqual(report["coverage"]["boundary"]["covered"], 2)
        code, cli = self.cli_report(path)
        self.assertEqual(code, 0)
        self.assertEqual(report, cli)

    def test_a_failed_test_is_in_the_report_with_its_difference(self):
        path = self.write("failing.test.yaml", PASSING + "  - name: nine is small\n    input: {n: 9}\n"
                                                         "    expect: {mode: small}\n")
        report = snnplan.run_tests(self.rules, [str(path)])
        self.assertEqual((report["passed"], report["failed"]), (2, 1))
        self.assertFalse(report["tests"][2]["passed"])
        self.assertEqual(report["tests"][2]["differences"], [{"what": "mode", "expected": "small", "got": "big"}])
        code, cli = self.cli_report(path)
        self.assertEqual(code, 1)
        self.assertEqual(report, cli)

    def test_an_int_beyond_a_double_differs_from_the_float_it_rounds_to(self):
        path = self.write("big.test.yaml", "tests:\n  - name: 2**62 + 1 is not 2.0**62\n    input: {n: 1}\n"
                                           f"    expect: {{ratio: {2**62 + 1}}}\n"
                                           "  - name: 2**62 is 2.0**62\n    input: {n: 1}\n"
                                           f"    expect: {{ratio: {2**62}}}\n")
        report = snnplan.run_tests(self.rules, path)
        self.assertEqual([t["passed"] for t in report["tests"]], [False, True])
        self.assertEqual(report["tests"][0]["differences"][0]["expected"], str(2**62 + 1))

    def test_mutation_testing_adds_the_mutants(self):
        path = self.write("passing.test.yaml", PASSING)
        report = snnplan.run_tests(self.rules, path, mutate=True)
        mutation = report["mutation"]
        self.assertEqual(mutation["mutants"], len(mutation["results"]))
        self.assertGreater(mutation["mutants"], 0)
        self.assertEqual(mutation["killed"] + mutation["survived"] + mutation["equivalent"], mutation["mutants"])
        self.assertEqual({r["operator"] for r in mutation["results"]} >= {"threshold+1", "ordering"}, True)
        code, cli = self.cli_report(path, "--mutate")
        self.assertEqual(code, 0)
        self.assertEqual(without_time(report), without_time(cli))

    def test_a_bad_test_file_raises_rule_load_error_at_its_position(self):
        path = self.write("bad.test.yaml", "tests:\n  - name: typo\n    input: {m: 9}\n    expect: {mode: big}\n")
        with self.assertRaises(snnplan.RuleLoadError) as caught:
            snnplan.run_tests(self.rules, path)
        error = caught.exception
        self.assertEqual((error.file, error.line, error.column), (str(path), 3, 13))
        self.assertIn("unknown input 'm'", error.message)
        self.assertEqual([d.code for d in error.diagnostics], ["test-file"])

    def test_a_missing_test_file_raises_os_error(self):
        missing = self.dir / "missing.test.yaml"
        with self.assertRaises(OSError) as caught:
            snnplan.run_tests(self.rules, missing)
        self.assertIn(str(missing), str(caught.exception))

    def test_the_default_rules_pass_their_own_test_file(self):
        report = snnplan.run_tests(None, os.path.join(RULES_DIR, "snn_distributed.test.yaml"))
        self.assertEqual(report["failed"], 0)
        self.assertGreater(report["passed"], 10)
        self.assertEqual(report["coverage"]["rule"]["percent"], 100.0)


if __name__ == "__main__":
    parser = argparse.ArgumentParser()
    parser.add_argument("--cli", required=True)
    parser.add_argument("--rules-dir", required=True)
    parser.add_argument("--test-rules", required=True, help="tests/data/rule_tests/api_rules.yaml")
    args, rest = parser.parse_known_args()
    CLI, RULES_DIR, TEST_RULES = args.cli, args.rules_dir, args.test_rules
    unittest.main(argv=[sys.argv[0], *rest])
