#!/usr/bin/env python3
"""The JSON Schemas of `snnplan schema` say what the loaders say (ctest: "the JSON Schemas ...").

    schema_test.py SNNPLAN SOURCE_DIR

1. Each schema is a valid draft 2020-12 schema.
2. Every shipped rule file (rules/*.yaml, tests/data/analysis/*.yaml) validates against the rules
   schema, every shipped rule-test file against the tests schema, and the records the CLI prints
   (one record, one batch error line) against the record schema.
3. Every file of the broken corpus and the fuzz corpora is put to both: where `snnplan check`
   reports a key or type error (unknown-key, missing-key, wrong-kind, unknown-type,
   unsupported-version), the schema must reject the file; where the file loads without any
   error, the schema must accept it.

YAML is read with YAML 1.2's core schema, as the loader reads it (PyYAML's default is YAML 1.1,
where `yes` is a boolean): files PyYAML cannot read that way, and files with duplicate keys
(the loader reports those; a schema never sees them), are left out and counted.
Needs Debian's python3-jsonschema and python3-yaml.
"""
import json
import os
import pathlib
import re
import subprocess
import sys
import tempfile

import jsonschema
import yaml

KEY_AND_TYPE_ERRORS = {"unknown-key", "missing-key", "wrong-kind", "unknown-type", "unsupported-version"}


# libyaml's parser where PyYAML has it: the pure-Python one takes minutes on the deeply nested
# fuzz regressions.
class CoreSchemaLoader(getattr(yaml, "CSafeLoader", yaml.SafeLoader)):
    """YAML 1.2 core schema: null, bool, int, float as the loader's literals.cpp reads them."""


CoreSchemaLoader.yaml_implicit_resolvers = {}
for tag, pattern, first in [
    ("tag:yaml.org,2002:null", r"^(?:~|null|Null|NULL|)$", list("~nN") + [""]),
    ("tag:yaml.org,2002:bool", r"^(?:true|True|TRUE|false|False|FALSE)$", list("tTfF")),
    ("tag:yaml.org,2002:int", r"^(?:[-+]?[0-9]+|0o[0-7]+|0x[0-9a-fA-F]+)$", list("-+0123456789")),
    ("tag:yaml.org,2002:float",
     r"^(?:[-+]?(?:\.[0-9]+|[0-9]+(?:\.[0-9]*)?)(?:[eE][-+]?[0-9]+)?|[-+]?\.(?:inf|Inf|INF)|\.(?:nan|NaN|NAN))$",
     list("-+.0123456789")),
]:
    CoreSchemaLoader.add_implicit_resolver(tag, re.compile(pattern), first)


def construct_int(loader, node):
    text = loader.construct_scalar(node)
    if text.startswith("0x"):
        return int(text[2:], 16)
    if text.startswith("0o"):
        return int(text[2:], 8)
    return int(text, 10)


def construct_float(loader, node):
    text = loader.construct_scalar(node).lower()
    return float(text.replace(".inf", "inf").replace(".nan", "nan"))


class DuplicateKey(Exception):
    pass


def construct_mapping(loader, node):
    loader.flatten_mapping(node)
    out = {}
    for key_node, value_node in node.value:
        key = loader.construct_object(key_node, deep=True)
        key = key_node.value if isinstance(key_node, yaml.ScalarNode) else key
        if key in out:
            raise DuplicateKey(key)
        out[key] = loader.construct_object(value_node, deep=True)
    return out


CoreSchemaLoader.add_constructor("tag:yaml.org,2002:int", construct_int)
CoreSchemaLoader.add_constructor("tag:yaml.org,2002:float", construct_float)
CoreSchemaLoader.add_constructor("tag:yaml.org,2002:map", construct_mapping)


def read_yaml(path, without_aliases=False):
    """The document as JSON-like data, or None when PyYAML cannot read it as the loader does.

    `without_aliases` leaves out documents with aliases: expanded, the corpus's alias bombs
    (which the loader refuses by its node limit) would take PyYAML and the validator minutes."""
    try:
        with open(path, "rb") as f:
            if without_aliases and any(isinstance(event, yaml.AliasEvent) for event in yaml.parse(f, Loader=CoreSchemaLoader)):
                return None
        with open(path, "rb") as f:
            data = yaml.load(f, Loader=CoreSchemaLoader)  # noqa: S506 (a SafeLoader)
        json.dumps(data)  # keys must be strings
        return data
    except (yaml.YAMLError, DuplicateKey, UnicodeDecodeError, TypeError, ValueError, RecursionError):
        return None


def run(*args, stdin=None):
    return subprocess.run([SNNPLAN, *args], capture_output=True, text=True, input=stdin)


def schema(kind):
    result = run("schema", kind)
    assert result.returncode == 0, result.stderr
    document = json.loads(result.stdout)
    jsonschema.Draft202012Validator.check_schema(document)
    return jsonschema.Draft202012Validator(document)


def error_codes(paths):
    """path -> the codes of the errors `snnplan check` reports for it (one run for all)."""
    result = run("check", "--format", "json", *map(str, paths))
    codes = {str(path): set() for path in paths}
    for d in json.loads(result.stdout):
        if d["severity"] == "error" and d["file"] in codes:
            codes[d["file"]].add(d["code"])
    return codes


def main():
    failures = []
    rules, tests, record = schema("rules"), schema("tests"), schema("record")

    shipped = sorted((ROOT / "rules").glob("*.yaml")) + sorted((ROOT / "tests/data/analysis").glob("*.yaml"))
    rule_files = [p for p in shipped if not p.name.endswith(".test.yaml")]
    test_files = [p for p in shipped if p.name.endswith(".test.yaml")]
    assert len(rule_files) >= 10 and len(test_files) >= 2, (rule_files, test_files)
    for path, validator in [(p, rules) for p in rule_files] + [(p, tests) for p in test_files]:
        for error in validator.iter_errors(read_yaml(path)):
            failures.append(f"{path.relative_to(ROOT)}: shipped file refused: {error.message} at {list(error.path)}")

    one = run("recommend", "--model", "spikformer_8_384", "--world-size", "8", "--prefer", "speed",
              "--batch-size", "64", "--format", "json")
    lines = run("recommend", "--batch", "-", stdin='{"model": "x", "world_size": 2, "prefer": "fast", "batch_size": 8}\n')
    for name, text in [("recommend --format json", one.stdout), ("recommend --batch error line", lines.stdout)]:
        for error in record.iter_errors(json.loads(text)):
            failures.append(f"{name}: record schema refuses the CLI's output: {error.message}")
    if record.is_valid({"mode": "dp"}):
        failures.append("record schema accepts a record without its fields")

    # Decision-log lines the CLI writes (an answer, a refusal, a batch with labels and masking,
    # a plan) are what the decision-log schema describes; a line without its id is refused.
    decision_log = schema("decision-log")
    with tempfile.TemporaryDirectory() as scratch:
        log = pathlib.Path(scratch) / "decisions.jsonl"
        env = dict(os.environ, SNNPLAN_DECISION_LOG=str(log), SNNPLAN_DECISION_LOG_LABELS="host=a,job=7",
                   SNNPLAN_DECISION_LOG_MASK="model")
        for args, stdin in [
                (["recommend", "--model", "spikformer", "--world-size", "8", "--prefer", "memory", "--batch-size", "64"], None),
                (["recommend", "--model", "m", "--world-size", "8", "--prefer", "fast", "--batch-size", "64"], None),
                (["recommend", "--batch", "-"], '{"model": "x", "world_size": 2, "prefer": "speed", "batch_size": 8}\n'
                                                '{"model": "x", "world_size": 2, "prefer": "fast", "batch_size": 8}\n'),
                (["plan", "--objective", "memory", "--topology", "dp=4,tp=2", "--batch-size", "64"], None)]:
            subprocess.run([SNNPLAN, *args], capture_output=True, text=True, input=stdin, env=env)
        records = [json.loads(line) for line in log.read_text().splitlines()]
    if len(records) != 5 or not any(r["error"] for r in records) or not all(r.get("masked") for r in records[:4]):
        failures.append(f"decision log: expected 5 records, refusals among them, masked inputs: {records}")
    for record_line in records:
        for error in decision_log.iter_errors(record_line):
            failures.append(f"decision log: the schema refuses a line the CLI wrote: {error.message} at {list(error.path)}")
    if records and decision_log.is_valid({k: v for k, v in records[0].items() if k != "decision_id"}):
        failures.append("decision-log schema accepts a line without decision_id")
    if records and decision_log.is_valid(dict(records[0], format="snnplan-decision/0")):
        failures.append("decision-log schema accepts another format")

    corpus = sorted((ROOT / "tests/data/broken").glob("*.yaml"))
    for directory in ["fuzz/corpus/rule_file", "tests/fuzz-regressions/rule_file"]:
        corpus += sorted(p for p in (ROOT / directory).iterdir() if p.is_file())
    rejected = accepted = skipped = 0
    codes_by_file = error_codes(corpus)
    for path in corpus:
        data = read_yaml(path, without_aliases=True)
        codes = codes_by_file[str(path)]
        if data is None:
            skipped += 1
            continue
        name = path.relative_to(ROOT)
        if codes & KEY_AND_TYPE_ERRORS:
            rejected += 1
            if rules.is_valid(data):
                failures.append(f"{name}: the loader reports {sorted(codes & KEY_AND_TYPE_ERRORS)}, the schema accepts it")
        elif not codes:
            accepted += 1
            for error in rules.iter_errors(data):
                failures.append(f"{name}: loads cleanly, the schema refuses it: {error.message} at {list(error.path)}")

    # Rule-test files: a key or type the test loader refuses, the schema refuses.
    bad_tests = {
        "unknown key": "tests:\n  - name: a\n    input: {x: 1}\n    expect: {y: 1}\n    expext_error: z\n",
        "input not a mapping": "tests:\n  - name: a\n    input: [1]\n    expect: {y: 1}\n",
        "missing input": "tests:\n  - name: a\n    expect: {y: 1}\n",
        "unknown top-level key": "tests: []\nfixtures: {}\n",
    }
    with tempfile.TemporaryDirectory() as scratch:
        for what, text in bad_tests.items():
            path = pathlib.Path(scratch) / "bad.test.yaml"
            path.write_text(text)
            result = run("test", str(ROOT / "rules/snn_distributed.yaml"), str(path))
            if result.returncode != 2:
                failures.append(f"test file with {what}: snnplan test exits {result.returncode}, expected 2")
            if tests.is_valid(read_yaml(path)):
                failures.append(f"test file with {what}: the tests schema accepts it")

    print(f"schema test: {len(rule_files)} rule files and {len(test_files)} test files shipped; corpus of "
          f"{len(corpus)}: {rejected} with key/type errors, {accepted} clean, {skipped} left out")
    if rejected < 10:
        failures.append(f"only {rejected} corpus files with key/type errors were compared (expected 10 or more)")
    for failure in failures:
        print("FAIL", failure)
    return 1 if failures else 0


if __name__ == "__main__":
    SNNPLAN = sys.argv[1]
    ROOT = pathlib.Path(sys.argv[2]).resolve()
    sys.exit(main())
