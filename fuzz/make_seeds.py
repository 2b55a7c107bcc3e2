#!/usr/bin/env python3
"""Writes the seed corpora under fuzz/corpus/ from the project's own test data.

    python3 fuzz/make_seeds.py      # from the repository root; rewrites fuzz/corpus/*/seed-*

rule_file:  rules/*.yaml (not the rule tests), tests/data/broken/*.yaml, tests/fuzz-regressions/rule_file/*.yaml
expression: every expression in those rule files ('=' values, let values, matcher operands)
json_line:  the inputs of the first 200 lines of tests/data/golden/recommend.jsonl, of
            tests/data/plan/plan.jsonl, and a few lines of microbatches.jsonl
topology:   the topologies of tests/data/plan/plan.jsonl as NAME=SIZE text, plus edge cases
Files the fuzzers add (corpus entries named by their SHA-1) are left alone.
"""
import glob
import json
import os
import re

import yaml

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
CORPUS = os.path.join(ROOT, "fuzz", "corpus")


def write(target, name, data):
    folder = os.path.join(CORPUS, target)
    os.makedirs(folder, exist_ok=True)
    if isinstance(data, str):
        data = data.encode()
    with open(os.path.join(folder, "seed-" + name), "wb") as f:
        f.write(data)


def clear(target):
    for path in glob.glob(os.path.join(CORPUS, target, "seed-*")):
        os.remove(path)


def rule_files():
    files = [f for f in sorted(glob.glob(os.path.join(ROOT, "rules", "*.yaml"))) if not f.endswith(".test.yaml")]
    files += sorted(glob.glob(os.path.join(ROOT, "tests", "data", "broken", "*.yaml")))
    files += sorted(glob.glob(os.path.join(ROOT, "tests", "fuzz-regressions", "rule_file", "*.yaml")))
    return files


def expressions(node, in_let=False):
    """Strings that the loader parses as expressions."""
    if isinstance(node, dict):
        for key, value in node.items():
            yield from expressions(value, in_let or key == "let")
    elif isinstance(node, list):
        for item in node:
            yield from expressions(item, in_let)
    elif isinstance(node, str):
        if node.startswith("="):
            yield node[1:].strip()
        elif in_let:
            yield node


def main():
    for target in ("rule_file", "expression", "json_line", "topology"):
        clear(target)

    seen = set()
    for path in rule_files():
        with open(path, "rb") as f:
            text = f.read()
        base = os.path.basename(os.path.dirname(path)) + "-" + os.path.basename(path)
        write("rule_file", base, text)
        try:
            found = list(expressions(yaml.safe_load(text)))
        except (yaml.YAMLError, RecursionError):  # the hostile files
            continue
        for expr in found:
            if expr not in seen:
                seen.add(expr)
                write("expression", "%03d" % len(seen), expr)
    for k, expr in enumerate(["", "1 +", "(((((((x)))))))", "-9223372036854775808", "9223372036854775808",
                              "i * i * i * i * i", "li + [i] + li", "lower(s) == 'spikformer_8'",
                              "len(ls) > 0 ? ls[0] : 'x'", "min(i, j, 3) / 0", "'\\u00e9' + s",
                              "pipeline_microbatches(i, j)", "index_of(ls, 'tp')", "f * 1e308",
                              "n == null || !b", "x.y.z", "try(i / j, len(repeat(s, i)))",
                              "repr_tuple(ls) + repr(f)"]):
        write("expression", "extra-%02d" % k, expr)

    def input_lines(path, limit):
        with open(path) as f:
            for number, line in enumerate(f, 1):
                if number > limit:
                    break
                yield number, json.dumps(json.loads(line).get("input", json.loads(line)))

    golden = os.path.join(ROOT, "tests", "data", "golden")
    for number, line in input_lines(os.path.join(golden, "recommend.jsonl"), 200):
        write("json_line", "recommend-%03d" % number, line)
    with open(os.path.join(golden, "microbatches.jsonl")) as f:
        for number, line in enumerate(f, 1):
            if number % 1000 == 1:
                write("json_line", "microbatches-%05d" % number, line.strip())
    plan_lines = os.path.join(ROOT, "tests", "data", "plan", "plan.jsonl")
    for number, line in input_lines(plan_lines, 200):
        write("json_line", "plan-%03d" % number, line)
    for k, line in enumerate(['{"model": "a", "world_size": 123456789012345678901234567890}', '{"model": "\\u0000"}',
                              '{"model": "\\ud800"}', '{"a": 1, "a": 2}', '[]', '{', '{"model": [1, [2]]}']):
        write("json_line", "extra-%02d" % k, line)

    topologies = set()
    with open(plan_lines) as f:
        for line in f:
            topo = json.loads(line)["input"].get("topology")
            if isinstance(topo, dict):
                topologies.add(",".join("%s=%s" % (k, json.dumps(v)) for k, v in topo.items()))
    topologies |= {"dp=4,tp=2", " dp = 8 ", "dp=2,tp=2,pp=2,vpp=2", "x=1", "dp=4,dp=2", "dp=0", "dp=-1",
                   "dp=9223372036854775807", "dp=9223372036854775808", "dp=4294967296,tp=4294967296", "dp=",
                   "=4", "dp", ",", "", "dp=4,,tp=2", "dp=4.0", "dp=+4", "dp=0x10"}
    for k, topo in enumerate(sorted(topologies)):
        write("topology", "%02d" % k, topo)


if __name__ == "__main__":
    main()
