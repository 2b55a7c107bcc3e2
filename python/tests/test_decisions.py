#!/usr/bin/env python3
"""Decision records from Python: RuleSet.decide(), DecisionLog, the decision_log= keyword,
shadow mode, $SNNPLAN_DECISION_LOG for the drop-ins (plan_training too), write failures as warnings, and logs that
`snnplan replay` reads back.

  PYTHONPATH=build/python python3 python/tests/test_decisions.py --cli build/snnplan --rules-dir rules
"""
import argparse
import json
import os
import pathlib
import re
import subprocess
import sys
import tempfile
import threading
import unittest
import warnings

import snnplan

CLI = None
RULES_DIR = None

MEMORY = dict(model="spikformer", world_size=8, prefer="memory", batch_size=64)
MEMORY_RULES = ["recommend/by-preference-memory", "memory/fsdp2-tp"]
# A flat plan_training() request (upstream's test config).
PLANNING_REQUEST = dict(
    world_size=2, device_memory_bytes=8 * 1024**3, objective="throughput", memory_fraction=0.9, sequence_length=128,
    micro_batch_size=1, global_batch_size=4, use_snn_memopt=False, time_steps=4, vocab_size=1024,
    max_sequence_length=512, position_embedding_type="rope", share_embeddings_and_output_weights=False, num_layers=4,
    hidden_size=128, num_attention_heads=4, num_query_groups=2, kv_channels=32, ffn_hidden_size=512,
    gated_linear_unit=True, normalization="RMSNorm", fp16=False, bf16=True, params_dtype="bfloat16",
    pipeline_dtype="bfloat16", fp8=None)
# The fsdp2_tp rationale of the default rules, and the candidate's edit of it.
MEMORY_LINE = "for the strongest memory reduction."
CANDIDATE_LINE = "for the strongest memory reduction!"


def lines_of(path):
    return [json.loads(line) for line in pathlib.Path(path).read_text().splitlines()]


class Directory(unittest.TestCase):
    def setUp(self):
        self._dir = tempfile.TemporaryDirectory()
        self.dir = pathlib.Path(self._dir.name)

    def tearDown(self):
        self._dir.cleanup()


class DecideTest(Directory):
    def test_decide_gives_the_answer_with_its_provenance(self):
        rules = snnplan.RuleSet.builtin(decision_log=False)
        first = rules.decide(**MEMORY)
        second = rules.decide(**MEMORY)
        self.assertEqual(first["format"], "snnplan-decision/1")
        self.assertRegex(first["decision_id"], r"^[0-9a-f]{32}$")
        self.assertNotEqual(first["decision_id"], second["decision_id"])
        self.assertEqual(first["rules_sha256"], rules.sha256)
        self.assertEqual(first["rules_file"], "rules/snn_distributed.yaml")
        self.assertIs(first["builtin"], True)
        self.assertEqual(first["inputs"], MEMORY)
        self.assertEqual(first["rules"], MEMORY_RULES)
        self.assertIsNone(first["error"])
        self.assertEqual(first["answer"], rules.evaluate(**MEMORY))
        self.assertRegex(first["timestamp"], r"^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d\.\d{6}Z$")
        self.assertGreater(first["eval_us"], 0)

    def test_a_refusal_is_the_decisions_error_not_an_exception(self):
        decision = snnplan.RuleSet.builtin(decision_log=False).decide(model="m", world_size=8, prefer="x",
                                                                     batch_size=64)
        self.assertIsNone(decision["answer"])
        self.assertEqual(decision["error"], {
            "kind": "rule_error",
            "message": "Unsupported prefer='x'. Expected one of ('speed', 'memory', 'capacity')."})
        unknown = snnplan.RuleSet.builtin(decision_log=False).decide(modell="m")
        self.assertEqual(unknown["error"]["kind"], "bad_input")
        self.assertIn("did you mean 'model'?", unknown["error"]["message"])


class LogTest(Directory):
    def test_a_logged_rule_set_appends_one_line_per_decision_of_every_entry_point(self):
        path = self.dir / "d.jsonl"
        rules = snnplan.RuleSet.builtin(decision_log=False).with_decision_log(path, labels={"job": "42"})
        self.assertTrue(rules.observed)
        self.assertFalse(snnplan.RuleSet.builtin(decision_log=False).observed)
        self.assertEqual(rules.evaluate(**MEMORY)["mode"], "fsdp2_tp")
        rules.decide(**MEMORY)
        record = snnplan.recommend_snn_distributed_strategy("spikformer", 8, "memory", 64, rules=rules,
                                                           fsdp2_available=True, tensor_parallel_available=True,
                                                           zero_redundancy_optimizer_available=True,
                                                           pipelining_available=True)
        self.assertEqual(record.mode, "fsdp2_tp")
        with self.assertRaisesRegex(ValueError, "Unsupported prefer='bogus'"):
            snnplan.recommend_snn_distributed_strategy("spikformer", 8, "bogus", 64, rules=rules)
        lines = lines_of(path)
        self.assertEqual(len(lines), 4)
        self.assertEqual({line["labels"]["job"] for line in lines}, {"42"})
        self.assertEqual(lines[2]["inputs"], dict(MEMORY, backend="inductor", zero_redundancy_optimizer_available=True,
                                                  pipelining_available=True, fsdp2_available=True,
                                                  tensor_parallel_available=True))
        self.assertEqual(lines[2]["rules"], MEMORY_RULES)
        self.assertEqual(lines[3]["error"]["kind"], "rule_error")
        self.assertEqual(len({line["decision_id"] for line in lines}), 4)

    def test_plan_rules_log_the_plans_decisions(self):
        path = self.dir / "plans.jsonl"
        rules = snnplan.RuleSet.from_file(os.path.join(RULES_DIR, "snn_plan.yaml"), decision_log=path)
        plan = snnplan.plan("memory", {"dp": 4, "tp": 2}, 64, rules=rules)
        self.assertEqual(plan.mode, "fsdp2_tp")
        [line] = lines_of(path)
        self.assertEqual(line["rules_file"], os.path.join(RULES_DIR, "snn_plan.yaml"))
        self.assertEqual(line["rules_sha256"], rules.sha256)
        self.assertEqual(line["answer"]["mode"], "fsdp2_tp")

    def test_inputs_are_dropped_or_masked_as_asked(self):
        log = snnplan.DecisionLog(self.dir / "m.jsonl", drop_inputs=["batch_size"], mask_inputs=("model",))
        rules = snnplan.RuleSet.builtin(decision_log=log)
        rules.evaluate(**MEMORY)
        [line] = lines_of(log.path)
        self.assertEqual(line["inputs"], {"model": "<masked>", "world_size": 8, "prefer": "memory"})
        self.assertEqual(line["masked"], ["model", "batch_size"])
        self.assertEqual(line["answer"]["model"], "spikformer")  # the answer is not masked

    def test_a_decision_log_object_is_shared_and_the_path_form_takes_options(self):
        log = snnplan.DecisionLog(str(self.dir / "shared.jsonl"), labels={"rank": "0"})
        self.assertEqual(repr(log), f"<snnplan.DecisionLog {str(self.dir / 'shared.jsonl')!r}>")
        one = snnplan.RuleSet.builtin(decision_log=False).with_decision_log(log)
        two = snnplan.RuleSet.from_file(os.path.join(RULES_DIR, "snn_distributed.yaml"), decision_log=log)
        one.evaluate(**MEMORY)
        two.evaluate(**MEMORY)
        self.assertEqual([line["labels"] for line in lines_of(log.path)], [{"rank": "0"}, {"rank": "0"}])
        with self.assertRaisesRegex(TypeError, "a DecisionLog's own"):
            one.with_decision_log(log, labels={"x": "y"})
        with self.assertRaisesRegex(TypeError, "labels must map str to str"):
            snnplan.DecisionLog(self.dir / "x.jsonl", labels={"job": 42})
        with self.assertRaisesRegex(TypeError, "mask_inputs must be an iterable of input names"):
            snnplan.DecisionLog(self.dir / "x.jsonl", mask_inputs="model")
        with self.assertRaises(FileNotFoundError) as caught:
            snnplan.DecisionLog(self.dir / "missing" / "x.jsonl")
        self.assertEqual(caught.exception.filename, str(self.dir / "missing" / "x.jsonl"))

    def test_threads_sharing_a_log_write_whole_lines(self):
        path = self.dir / "threads.jsonl"
        rules = snnplan.RuleSet.builtin(decision_log=path)

        def work(rank):
            for k in range(200):
                rules.evaluate(model=f"m{rank}", world_size=k % 16 + 1, prefer="speed", batch_size=64)
                snnplan.recommend_snn_distributed_strategy(f"m{rank}", 8, "capacity", 64, rules=rules)

        threads = [threading.Thread(target=work, args=(rank,)) for rank in range(8)]
        for t in threads:
            t.start()
        for t in threads:
            t.join()
        lines = lines_of(path)  # every line is one whole JSON record
        self.assertEqual(len(lines), 8 * 200 * 2)
        self.assertEqual(len({line["decision_id"] for line in lines}), len(lines))

    def test_a_failing_write_is_one_warning_and_the_decision_stands(self):
        log = snnplan.DecisionLog("/dev/full")
        rules = snnplan.RuleSet.builtin(decision_log=log)
        with warnings.catch_warnings(record=True) as caught:
            warnings.simplefilter("always")
            self.assertEqual(rules.evaluate(**MEMORY)["mode"], "fsdp2_tp")
            self.assertEqual(snnplan.recommend_snn_distributed_strategy("spikformer", 8, "speed", 64, rules=rules,
                                                                       fsdp2_available=False).mode, "dp")
            rules.decide(**MEMORY)
        self.assertEqual([w.category for w in caught], [RuntimeWarning])
        self.assertEqual(str(caught[0].message),
                         "snnplan: cannot write decision log /dev/full: No space left on device (the decision "
                         "stands; further failures are counted, not reported)")
        self.assertEqual(caught[0].filename, __file__)  # the caller's line, not the package's
        self.assertEqual(log.failed_writes, 3)

    def test_a_warning_filter_that_raises_does_not_fail_the_decision(self):
        rules = snnplan.RuleSet.builtin(decision_log=snnplan.DecisionLog("/dev/full"))
        unraisable = []
        old_hook = sys.unraisablehook
        sys.unraisablehook = unraisable.append
        try:
            with warnings.catch_warnings():
                warnings.simplefilter("error")
                self.assertEqual(rules.evaluate(**MEMORY)["mode"], "fsdp2_tp")
        finally:
            sys.unraisablehook = old_hook
        self.assertEqual([type(u.exc_value) for u in unraisable], [RuntimeWarning])


class RevisionTest(unittest.TestCase):
    def test_the_revision_is_the_files_hash_or_what_version_prints(self):
        import hashlib
        version = subprocess.run([CLI, "--version"], capture_output=True, text=True, check=True).stdout
        printed = dict(re.findall(r"built-in rules (\S+) sha256:[0-9a-f]{64}(?: revision:([0-9a-f]{64}))?", version))
        file_hashes = dict(re.findall(r"built-in rules (\S+) sha256:([0-9a-f]{64})", version))
        distributed = snnplan.RuleSet.builtin(decision_log=False)
        self.assertEqual(distributed.sha256,
                         hashlib.sha256(pathlib.Path(RULES_DIR, "snn_distributed.yaml").read_bytes()).hexdigest())
        self.assertEqual(distributed.sha256, file_hashes["snn_distributed.yaml"])
        self.assertEqual(printed["snn_distributed.yaml"], "")  # no uses: its hash is its revision
        plan_rules = snnplan.RuleSet.builtin_plan(decision_log=False)
        self.assertEqual(file_hashes["snn_plan.yaml"],
                         hashlib.sha256(pathlib.Path(RULES_DIR, "snn_plan.yaml").read_bytes()).hexdigest())
        self.assertEqual(plan_rules.sha256, printed["snn_plan.yaml"])  # with uses: the revision
        self.assertNotEqual(plan_rules.sha256, file_hashes["snn_plan.yaml"])


class GivenInputsTest(Directory):
    def test_the_drop_in_records_arguments_as_given_where_the_engine_took_another_form(self):
        path = self.dir / "given.jsonl"
        rules = snnplan.RuleSet.builtin(decision_log=path)
        f = snnplan.recommend_snn_distributed_strategy
        self.assertEqual(f("spikformer", 8, "speed", None, rules=rules).mode, "dp")  # batch_size not read
        f("spikformer", 8, "speed", 64.0, rules=rules)
        f("spikformer", True, "MEMORY", 64, rules=rules)
        lines = lines_of(path)
        self.assertEqual([line["inputs"]["batch_size"] for line in lines], [None, 64.0, 64])
        self.assertIs(lines[2]["inputs"]["world_size"], True)
        self.assertEqual(lines[2]["inputs"]["prefer"], "MEMORY")
        self.assertEqual(lines[2]["answer"]["world_size"], 1)  # what the rules were given
        self.assertEqual([line["answer"]["mode"] for line in lines[:2]], ["dp", "dp"])


class ShadowTest(Directory):
    def test_shadow_mode_returns_the_active_answer_and_logs_each_disagreement(self):
        text = pathlib.Path(RULES_DIR, "snn_distributed.yaml").read_text()
        self.assertIn(MEMORY_LINE, text)
        candidate = snnplan.RuleSet.from_string(text.replace(MEMORY_LINE, CANDIDATE_LINE), "candidate.yaml")
        path = self.dir / "shadow.jsonl"
        active = snnplan.RuleSet.builtin(decision_log=False)
        shadowed = active.with_shadow(candidate, path, labels={"job": "7"})
        self.assertTrue(shadowed.observed)
        answer = shadowed.evaluate(**MEMORY)
        self.assertEqual(answer, active.evaluate(**MEMORY))
        self.assertIn(MEMORY_LINE, answer["rationale"][1])
        record = snnplan.recommend_snn_distributed_strategy("spikformer", 8, "memory", 64, rules=shadowed,
                                                           fsdp2_available=True, tensor_parallel_available=True)
        self.assertIn(MEMORY_LINE, record.rationale[1])
        shadowed.evaluate(model="m", world_size=1, prefer="speed", batch_size=8)  # the two agree: no line
        lines = lines_of(path)
        self.assertEqual(len(lines), 2)
        for line in lines:
            self.assertEqual(line["labels"], {"job": "7"})
            self.assertEqual(line["rules_sha256"], active.sha256)
            self.assertEqual(line["shadow"]["rules_sha256"], candidate.sha256)
            self.assertEqual(line["shadow"]["rules_file"], "candidate.yaml")
            self.assertIn(CANDIDATE_LINE, line["shadow"]["answer"]["rationale"][1])
            self.assertEqual(line["shadow"]["rules"], MEMORY_RULES)


class EnvironmentTest(Directory):
    """$SNNPLAN_DECISION_LOG is read at the first call, as the CLI reads it: in a child process."""

    def run_child(self, code, **env):
        full_env = dict(os.environ, **env)
        done = subprocess.run([sys.executable, "-c", code], env=full_env, capture_output=True, text=True, timeout=120)
        self.assertEqual(done.returncode, 0, done.stderr)
        return done

    def test_the_drop_ins_and_rule_sets_log_where_the_environment_says(self):
        path = self.dir / "env.jsonl"
        self.run_child(
            "import snnplan\n"
            "snnplan.recommend_snn_distributed_strategy('spikformer', 8, 'memory', 64, fsdp2_available=True,"
            " tensor_parallel_available=True, zero_redundancy_optimizer_available=True, pipelining_available=True)\n"
            "snnplan.RuleSet.builtin().evaluate(model='spikformer', world_size=8, prefer='speed', batch_size=64)\n"
            "snnplan.RuleSet.builtin(decision_log=False).evaluate(model='x', world_size=8, prefer='speed',"
            " batch_size=64)\n"
            "snnplan.plan('memory', {'dp': 4, 'tp': 2}, 64)\n",
            SNNPLAN_DECISION_LOG=str(path), SNNPLAN_DECISION_LOG_LABELS="host=n1,job=9")
        lines = lines_of(path)
        self.assertEqual([line["rules_file"] for line in lines],
                         ["rules/snn_distributed.yaml", "rules/snn_distributed.yaml", "rules/snn_plan.yaml"])
        self.assertEqual({json.dumps(line["labels"]) for line in lines}, {'{"host": "n1", "job": "9"}'})
        self.assertEqual(lines[0]["answer"]["mode"], "fsdp2_tp")

        # What the Python side logged, `snnplan replay` re-evaluates: the same answers today.
        done = subprocess.run([CLI, "replay", str(path)], capture_output=True, text=True)
        self.assertEqual(done.returncode, 0, done.stdout + done.stderr)
        self.assertIn("3 unchanged, 0 changed, 0 not replayable", done.stdout)

    def test_plan_training_logs_where_the_environment_says(self):
        path = self.dir / "plans.jsonl"
        planning = os.path.join(RULES_DIR, "snn_llm_planning.yaml")
        self.run_child(
            "import snnplan\n"
            f"request = {PLANNING_REQUEST!r}\n"
            "snnplan.plan_training(request)\n"
            f"snnplan.plan_training(request, rules={planning!r})\n"
            "try:\n"
            "    snnplan.plan_training(dict(request, world_size=-1))\n"
            "except ValueError:\n"
            "    pass\n",
            SNNPLAN_DECISION_LOG=str(path))
        lines = lines_of(path)
        self.assertEqual([line["rules_file"] for line in lines],
                         ["rules/snn_llm_planning.yaml", planning, "rules/snn_llm_planning.yaml"])
        self.assertEqual(lines[0]["inputs"], PLANNING_REQUEST)
        self.assertEqual(lines[0]["answer"], lines[1]["answer"])
        self.assertEqual(lines[2]["error"], {"kind": "rule_error",
                                             "message": "world_size and device_memory_bytes must be positive."})
        done = subprocess.run([CLI, "replay", str(path)], capture_output=True, text=True)
        self.assertEqual(done.returncode, 0, done.stdout + done.stderr)
        self.assertIn("3 unchanged, 0 changed, 0 not replayable", done.stdout)

    def test_without_the_variable_nothing_is_logged(self):
        done = self.run_child("import snnplan\n"
                              "print(snnplan.RuleSet.builtin().observed)\n"
                              "snnplan.recommend_snn_distributed_strategy('m', 8, 'memory', 64)\n",
                              SNNPLAN_DECISION_LOG="")
        self.assertEqual(done.stdout, "False\n")

    def test_decision_log_false_turns_the_variable_off_for_one_rule_set(self):
        path = self.dir / "env.jsonl"
        done = self.run_child("import snnplan\n"
                              "r = snnplan.RuleSet.builtin(decision_log=False)\n"
                              "print(r.observed, snnplan.RuleSet.builtin().observed)\n"
                              "r.evaluate(model='m', world_size=8, prefer='memory', batch_size=64)\n",
                              SNNPLAN_DECISION_LOG=str(path))
        self.assertEqual(done.stdout, "False True\n")
        self.assertEqual(path.read_text(), "")  # opened by builtin(), nothing recorded by r

    def test_the_variable_is_read_at_the_first_rule_set_made_with_it(self):
        path = self.dir / "late.jsonl"
        done = self.run_child("import os, snnplan\n"
                              f"os.environ['SNNPLAN_DECISION_LOG'] = {str(path)!r}\n"
                              "snnplan.recommend_snn_distributed_strategy('m', 8, 'memory', 64)\n"
                              "print(snnplan.RuleSet.builtin().observed)\n",
                              SNNPLAN_DECISION_LOG="")
        self.assertEqual(done.stdout, "True\n")
        self.assertEqual(len(lines_of(path)), 1)

    def test_a_failing_write_to_the_environments_log_is_a_python_warning(self):
        done = self.run_child("import warnings, snnplan\n"
                              "with warnings.catch_warnings(record=True) as caught:\n"
                              "    warnings.simplefilter('always')\n"
                              "    snnplan.recommend_snn_distributed_strategy('m', 8, 'memory', 64)\n"
                              "    snnplan.RuleSet.builtin().evaluate(model='m', world_size=8, prefer='memory',"
                              " batch_size=64)\n"
                              "print([(w.category.__name__, str(w.message)) for w in caught])\n",
                              SNNPLAN_DECISION_LOG="/dev/full")
        self.assertEqual(done.stdout, "[('RuntimeWarning', 'snnplan: cannot write decision log /dev/full: No space left "
                                      "on device (the decision stands; further failures are counted, not "
                                      "reported)')]\n")
        self.assertEqual(done.stderr, "")


def main():
    global CLI, RULES_DIR
    parser = argparse.ArgumentParser()
    parser.add_argument("--cli", required=True)
    parser.add_argument("--rules-dir", required=True)
    args, rest = parser.parse_known_args()
    CLI, RULES_DIR = args.cli, os.path.abspath(args.rules_dir)
    unittest.main(argv=[sys.argv[0]] + rest, verbosity=2)


if __name__ == "__main__":
    main()
