#!/usr/bin/env python3
"""snnplan.plan(): the plan record, agreement with `snnplan plan` (flags and --batch) and with
the golden plans, errors, rule sets and threads.

  PYTHONPATH=build/python python3 python/tests/test_plan.py --cli build/snnplan \\
      --golden-dir tests/data/plan --rules-dir rules
"""
import argparse
import dataclasses
import inspect
import json
import pathlib
import pickle
import subprocess
import sys
import threading
import unittest

import snnplan

CLI = None
GOLDEN_DIR = None
RULES_DIR = None

PLAN_FIELDS = [
    "mode", "objective", "topology", "model_family", "backend", "batch_size",
    "optimizer_strategy", "memopt_level", "rationale", "notes", "tensor_parallel_roots",
    "mesh_shape", "tp_mesh_dim", "dp_mesh_dim", "pp_microbatches", "pp_schedule",
    "pp_virtual_stages", "pp_layout", "pp_delay_wgrad", "experimental_features",
]


def plan_as_json(p):
    """The plan as `snnplan plan` prints it: topology nested, tuples as lists, None as null."""
    out = {}
    for name in PLAN_FIELDS:
        value = getattr(p, name)
        if name == "topology":
            value = {"world_size": value.world_size, "dims": dict(value.dims),
                     "mesh_shape": list(value.mesh_shape)}
        elif name == "experimental_features":
            value = dataclasses.asdict(value)
        elif isinstance(value, tuple):
            value = list(value)
        out[name] = value
    return out


def outcome(**kwargs):
    """("ok", the plan as JSON) or ("error", message) for snnplan.plan(**kwargs): upstream's
    exception classes (TypeError, ValueError, NotImplementedError) alike, as the CLI prints them."""
    try:
        return ("ok", plan_as_json(snnplan.plan(**kwargs)))
    except (TypeError, ValueError, NotImplementedError) as err:
        return ("error", str(err))


def cli_argv(kwargs):
    """The `snnplan plan` flags for plan(**kwargs): the keyword arguments mirror the flags."""
    argv = ["plan"]
    for name, value in kwargs.items():
        flag = "--" + name.replace("_", "-")
        if name == "tp_roots":
            argv += [flag, ",".join(value)]
        elif name == "tp_candidates":
            argv += [flag, "yes" if value else "no"]
        elif name == "features":
            for feature, flag_value in value.items():
                argv += ["--feature", f"{feature}={str(flag_value).lower()}"]
        elif name == "notes":
            for note in value:
                argv += ["--note", note]
        else:
            argv += [flag, str(value)]
    return argv


def cli_outcome(kwargs):
    """("ok", JSON) or ("error", message) from the CLI given the same input as flags."""
    run = subprocess.run([CLI] + cli_argv(kwargs) + ["--format", "json"], capture_output=True, text=True,
                         check=False)
    if run.returncode == 0:
        return ("ok", json.loads(run.stdout))
    lines = run.stderr.splitlines()
    assert run.returncode in (1, 2) and len(lines) == 1 and lines[0].startswith("error: "), run
    return ("error", lines[0][len("error: "):])


def cli_batch(objects):
    """The CLI's output lines for `snnplan plan --batch -` on these objects, one JSON line each."""
    text = "".join(json.dumps(o) + "\n" for o in objects)
    run = subprocess.run([CLI, "plan", "--batch", "-"], input=text, capture_output=True, text=True, check=False)
    lines = [json.loads(line) for line in run.stdout.splitlines()]
    assert len(lines) == len(objects), run
    return lines


def golden():
    with open(pathlib.Path(GOLDEN_DIR) / "plan.jsonl", encoding="utf-8") as f:
        return [json.loads(line) for line in f if line.strip()]


# Inputs as keyword arguments, each also given to the CLI as flags (cli_argv): plans and refusals.
FLAG_CASES = [
    dict(objective="memory", topology="dp=4,tp=2", batch_size=64, model_family="cifar10dvs_vgg"),
    dict(objective="speed", topology="dp=4,tp=2", batch_size=64, model_family="cifar10dvs_vgg",
         tp_roots=["features", "classifier"]),
    dict(objective="Speed", topology="dp=8", batch_size=64, features={"allow_zero_optimizer": False},
         notes=["3 conv layers can be sharded", "second note"]),
    dict(objective="speed", topology="dp=8", batch_size=64,
         features={"allow_experimental_conv_tp": True, "allow_pipeline": False}),
    dict(objective="capacity", topology="dp=2,tp=2", batch_size=64, backend="eager"),
    dict(objective="capacity", topology="dp=2,tp=2", batch_size=2),
    dict(objective="speed", topology="vpp=2,x=1,pp=2,dp=2", world_size=8, batch_size=64),
    dict(objective="memory", topology="ep=2,tp=2,dp=2", batch_size=64, mode="DP"),
    dict(objective="speed", topology="dp=4,tp=2", batch_size=64, mode="tp", tp_roots=["blocks"]),
    dict(objective="speed", topology="dp=4", batch_size=64, mode="fsdp2", tp_candidates=False),
    dict(objective="memory", topology=" dp = 4 , tp = 2 ", batch_size=64),
    dict(objective="memory", topology="dp=1", batch_size=8, model_family="spikformer_8_384"),
    # refusals by the rules (exit 1)
    dict(objective="fast", topology="dp=4", batch_size=64),
    dict(objective="capacity", topology="pp=4", batch_size=64, mode="PP"),
    dict(objective="speed", topology="dp=4", batch_size=64, mode="hybrid"),
    dict(objective="speed", topology="tp=4", batch_size=64, mode="tp", tp_candidates=False),
    # bad input (exit 2)
    dict(objective="memory", topology="dp=4,,tp=2", batch_size=64),
    dict(objective="memory", topology="dp=0", batch_size=64),
    dict(objective="memory", topology="dp=four", batch_size=64),
    dict(objective="memory", topology="dp=4,dp=2", batch_size=64),
    dict(objective="memory", topology="dp=99999999999999999999", batch_size=64),
    dict(objective="memory", topology="dp=4,tp=2", world_size=16, batch_size=64),
    dict(objective="memory", topology="dp=4", world_size=0, batch_size=64),
    dict(objective="memory", topology="dp=4", batch_size=64, features={"allow_pipelin": True}),
]

# `snnplan plan --batch` lines beyond the golden ones: the JSON form's bad topologies and features.
EXTRA_BATCH_LINES = [
    {"objective": "memory", "topology": {"dp": 0}, "batch_size": 64},
    {"objective": "memory", "topology": {"dp": 4.5}, "batch_size": 64},
    {"objective": "memory", "topology": {"dp": True}, "batch_size": 64},
    {"objective": "memory", "topology": {"dp": "4"}, "batch_size": 64},
    {"objective": "memory", "topology": {"dp": None}, "batch_size": 64},
    {"objective": "memory", "topology": {"": 4}, "batch_size": 64},
    {"objective": "memory", "topology": {}, "batch_size": 64},
    {"objective": "memory", "topology": {"dp": 4, "tp": 2}, "world_size": 16, "batch_size": 64},
    {"objective": "memory", "topology": {"dp": 4}, "world_size": 2.5, "batch_size": 64},
    {"objective": "memory", "topology": {"dp": 4}, "batch_size": 64, "features": {"allow_zero_optimiser": False}},
    {"objective": "memory", "topology": {"dp": 4, "tp": 2}, "batch_size": 64, "backend": None, "mode": None,
     "model_family": None, "features": None, "tp_roots": None, "tp_candidates": None, "notes": None},
    {"objective": "capacity", "topology": {"tp": 2, "dp": 2}, "batch_size": 64, "notes": ["a", "b"],
     "tp_roots": [], "world_size": 4},
]


class PlanRecordTest(unittest.TestCase):
    def test_the_memory_plan_on_dp4_tp2_has_the_hand_checked_fields(self):
        p = snnplan.plan("memory", "dp=4,tp=2", 64, model_family="cifar10dvs_vgg")
        self.assertIsInstance(p, snnplan.SNNDistributedPlan)
        self.assertEqual([f.name for f in dataclasses.fields(p)], PLAN_FIELDS)
        self.assertEqual((p.mode, p.objective, p.model_family, p.backend, p.batch_size),
                         ("fsdp2_tp", "memory", "cifar10dvs_vgg", "inductor", 64))
        self.assertEqual((p.optimizer_strategy, p.memopt_level), ("none", 1))
        self.assertEqual((p.mesh_shape, p.tp_mesh_dim, p.dp_mesh_dim), ((4, 2), 1, 0))
        self.assertIsInstance(p.mesh_shape, tuple)
        self.assertEqual((p.pp_microbatches, p.pp_schedule, p.pp_virtual_stages, p.pp_layout, p.pp_delay_wgrad),
                         (None, "1f1b", 1, None, False))
        self.assertEqual(p.rationale, (
            "prefer='memory' with model='cifar10dvs_vgg', world_size=8, backend='inductor'.",
            "Combine FSDP2 and TP to shard both parameters and activations, and enable memopt level 1 "
            "for the strongest memory reduction."))
        self.assertEqual((p.notes, p.tensor_parallel_roots), ((), None))
        self.assertEqual(p.topology, snnplan.SNNDistributedTopology(8, {"dp": 4, "tp": 2}))
        self.assertEqual(p.topology.mesh_shape, (4, 2))
        self.assertEqual(str(p.topology), "dp=4,tp=2")
        self.assertEqual(p.experimental_features, snnplan.DistributedFeatureSet())
        self.assertEqual(dataclasses.asdict(p.experimental_features), {
            "allow_experimental_conv_tp": False, "allow_experimental_spikformer_tp": False,
            "allow_pipeline": True, "allow_zero_optimizer": True})

    def test_a_plan_is_frozen_picklable_and_the_same_for_every_topology_form(self):
        p = snnplan.plan("memory", "dp=4,tp=2", 64)
        self.assertEqual(p, snnplan.plan(objective="MEMORY", topology={"dp": 4, "tp": 2}, batch_size=64))
        self.assertEqual(p, snnplan.plan("memory", str(p.topology), 64, world_size=8))
        self.assertEqual(p, snnplan.plan("memory", {"dp": 4.0, "tp": 2}, 64, world_size=8.0))  # as in JSON
        with self.assertRaises(TypeError):  # as upstream's: its topology's dims are a mappingproxy
            hash(p)
        with self.assertRaises(dataclasses.FrozenInstanceError):
            p.mode = "dp"
        self.assertEqual(pickle.loads(pickle.dumps(p)), p)
        self.assertEqual(dataclasses.replace(p, mode="dp").mode, "dp")

    def test_feature_flags_notes_and_roots_are_carried_into_the_plan(self):
        p = snnplan.plan("speed", "dp=8", 64, features={"allow_zero_optimizer": False},
                         notes=["from the analysis"], tp_roots=("features", "classifier"))
        self.assertEqual((p.mode, p.optimizer_strategy), ("dp", "none"))
        self.assertEqual(p.notes, ("from the analysis", "Zero optimizer was disabled by DistributedFeatureSet; "
                                                        "planner fell back to optimizer_strategy='none'."))
        self.assertEqual(p.tensor_parallel_roots, ("features", "classifier"))
        self.assertEqual(p.experimental_features, snnplan.DistributedFeatureSet(allow_zero_optimizer=False))
        # A DistributedFeatureSet works as well as a dict.
        self.assertEqual(p, snnplan.plan("speed", "dp=8", 64,
                                         features=snnplan.DistributedFeatureSet(allow_zero_optimizer=False),
                                         notes=["from the analysis"], tp_roots=["features", "classifier"]))
        with_zero = snnplan.plan("speed", "dp=8", 64)
        self.assertEqual((with_zero.optimizer_strategy, with_zero.notes), ("zero", ()))

    def test_dimensions_are_meshed_dp_tp_pp_vpp_first_then_in_given_order(self):
        p = snnplan.plan("speed", "vpp=2,x=1,pp=2,dp=2", 64, world_size=8)
        self.assertEqual(list(p.topology.dims.items()), [("vpp", 2), ("x", 1), ("pp", 2), ("dp", 2)])
        self.assertEqual(p.topology.mesh_shape, (2, 2, 2, 1))
        self.assertEqual(p.topology.world_size, 8)

    def test_none_means_the_default_as_null_does_in_a_batch_line(self):
        self.assertEqual(snnplan.plan("memory", "dp=4,tp=2", 64),
                         snnplan.plan("memory", "dp=4,tp=2", 64, world_size=None, backend=None, model_family=None,
                                      mode=None, tp_roots=None, tp_candidates=None, features=None, notes=None,
                                      rules=None))

    def test_the_signature_mirrors_the_batch_line_keys(self):
        import snnplan._snnplan as extension  # snnplan.plan takes upstream's call too (test_upstream_planner.py)
        self.assertEqual(list(inspect.signature(extension.plan).parameters), [
            "objective", "topology", "batch_size", "world_size", "backend", "model_family", "mode", "tp_roots",
            "tp_candidates", "features", "notes", "rules"])
        for name in ("SNNDistributedPlan", "SNNDistributedTopology", "DistributedFeatureSet", "plan"):
            self.assertIn(name, snnplan.__all__)


class CliAgreementTest(unittest.TestCase):
    def test_each_flag_case_gives_the_cli_plan_or_the_cli_message(self):
        errors = 0
        for case in FLAG_CASES:
            with self.subTest(case=case):
                want = cli_outcome(case)
                self.assertEqual(outcome(**case), want)
                errors += want[0] == "error"
        self.assertEqual(errors, 12)  # the refusals and bad inputs above really are errors

    def test_every_batch_line_gives_the_cli_output_line(self):
        lines = [g["input"] for g in golden()] + EXTRA_BATCH_LINES
        for line, printed in zip(lines, cli_batch(lines)):
            with self.subTest(line=line):
                printed.pop("line", None)  # only the CLI numbers its bad lines
                got = outcome(**line)
                self.assertEqual(got, ("error", printed["error"]) if "error" in printed else ("ok", printed))

    def test_the_golden_plans_are_reproduced(self):
        cases = golden()
        self.assertEqual(len(cases), 28)
        for case in cases:
            with self.subTest(input=case["input"]):
                want = case["expected"]
                got = outcome(**case["input"])
                self.assertEqual(got, ("error", want["error"]) if "error" in want else ("ok", want))
                # The JSON text matches too: field order, nested order, types.
                if got[0] == "ok":
                    self.assertEqual(json.dumps(got[1]), json.dumps(want))


class ErrorTest(unittest.TestCase):
    def assert_value_error(self, message, error=ValueError, **kwargs):
        with self.assertRaises(error) as cm:
            snnplan.plan(**kwargs)
        self.assertIs(type(cm.exception), error)
        self.assertEqual(str(cm.exception), message)

    def test_refusals_and_bad_values_raise_value_error_with_the_cli_message(self):
        self.assert_value_error("Unsupported objective='fast'. Expected one of ('speed', 'memory', 'capacity').",
                                objective="fast", topology="dp=4", batch_size=64)
        self.assert_value_error("Pipeline parallelism ('pp') is not supported by the unified analyze/plan/apply API. "
                                "Please use the dedicated pipeline configuration path directly.", NotImplementedError,
                                objective="capacity", topology="pp=4", batch_size=64, mode="pp")
        self.assert_value_error("mode='fsdp2_tp' requires at least one tensor-parallel candidate, but analysis found "
                                "none.",
                                objective="memory", topology="dp=4,tp=2", batch_size=64, tp_candidates=False)
        self.assert_value_error("cannot parse topology 'dp=4,,tp=2': entry 2 is empty (expected "
                                "NAME=SIZE,NAME=SIZE,..., e.g. dp=4,tp=2)",
                                objective="memory", topology="dp=4,,tp=2", batch_size=64)
        self.assert_value_error("world_size must be positive, but got 0.",
                                objective="memory", topology={"dp": 0}, batch_size=64)
        self.assert_value_error("Topology dims {'dp': 4, 'tp': 2} multiply to 8, but world_size=16.",
                                objective="memory", topology="dp=4,tp=2", world_size=16, batch_size=64)
        self.assert_value_error("dims must not be empty.", objective="memory", topology={}, batch_size=64)
        self.assert_value_error("DistributedFeatureSet.__init__() got an unexpected keyword argument 'allow_pipelin'",
                                TypeError, objective="memory", topology="dp=4", batch_size=64,
                                features={"allow_pipelin": True})
        # A topology beyond 64 bits gets upstream's later refusals (memory recommends fsdp2_tp,
        # which needs dp and tp) and the 64-bit error only where upstream would plan.
        self.assert_value_error("Hybrid 'fsdp2_tp' mode requires both 'dp' and 'tp' dimensions in the topology.",
                                objective="memory", topology={"dp": 2 ** 70}, batch_size=64)
        self.assert_value_error("Topology dims {'dp': 1180591620717411303424} give world_size=1180591620717411303424, "
                                "beyond the 64-bit world sizes snnplan plans for.",
                                objective="memory", topology={"dp": 2 ** 70}, mode="dp", batch_size=64)
        self.assert_value_error("Topology dimension 'dp' must be an integer, but got float.", TypeError,
                                objective="memory", topology={"dp": 4.5}, batch_size=64)
        self.assert_value_error("batch_size = -1180591620717411303424 does not fit in a 64-bit integer",
                                objective="memory", topology="dp=4", batch_size=-2 ** 70)

    def test_arguments_of_the_wrong_type_raise_type_error(self):
        good = dict(objective="memory", topology="dp=4", batch_size=64)
        for bad in [dict(objective=1), dict(topology=42), dict(topology=["dp=4"]), dict(batch_size="64"),
                    dict(batch_size=64.0), dict(world_size="4"), dict(backend=1),
                    dict(model_family=b"x"), dict(mode=1), dict(tp_roots="a,b"), dict(tp_roots=[1]),
                    dict(tp_candidates="no"), dict(tp_candidates=0), dict(features=["allow_pipeline"]),
                    dict(features={"allow_pipeline": 1}), dict(notes="a note"), dict(rules="rules/snn_plan.yaml"),
                    dict(topology={"dp": [4]}), dict(topology={4: 4})]:
            with self.subTest(bad=bad), self.assertRaises(TypeError):
                snnplan.plan(**dict(good, **bad))
        with self.assertRaises(TypeError):
            snnplan.plan("memory", "dp=4")  # batch_size missing
        with self.assertRaises(TypeError):
            snnplan.plan("memory", "dp=4", 64, "inductor")  # the options are keyword-only

    def test_plan_rules_from_a_file_give_the_same_plans_and_other_rules_are_refused(self):
        rules = snnplan.RuleSet.from_file(pathlib.Path(RULES_DIR) / "snn_plan.yaml")
        for case in FLAG_CASES[:4]:
            with self.subTest(case=case):
                self.assertEqual(snnplan.plan(**case, rules=rules), snnplan.plan(**case))
        with self.assertRaises(TypeError) as cm:
            snnplan.plan("memory", "dp=4", 64, rules=snnplan.RuleSet.builtin())
        self.assertEqual(str(cm.exception), "unknown input 'objective'")  # as `snnplan plan --rules` says


class ThreadsTest(unittest.TestCase):
    def test_many_threads_planning_at_once_get_the_single_threaded_answers(self):
        expected = [outcome(**case) for case in FLAG_CASES]
        failures = []

        def worker(offset):
            for k in range(len(FLAG_CASES) * 4):
                i = (k + offset) % len(FLAG_CASES)
                if outcome(**FLAG_CASES[i]) != expected[i]:
                    failures.append(FLAG_CASES[i])

        threads = [threading.Thread(target=worker, args=(t * 5,)) for t in range(8)]
        for t in threads:
            t.start()
        for t in threads:
            t.join()
        self.assertEqual(failures, [])


if __name__ == "__main__":
    parser = argparse.ArgumentParser()
    parser.add_argument("--cli", required=True, help="the snnplan executable")
    parser.add_argument("--golden-dir", required=True, help="tests/data/plan")
    parser.add_argument("--rules-dir", required=True)
    args, rest = parser.parse_known_args()
    CLI, GOLDEN_DIR, RULES_DIR = args.cli, args.golden_dir, args.rules_dir
    unittest.main(argv=[sys.argv[0]] + rest, verbosity=2)
