#!/usr/bin/env python3
"""The snnplan module's API: the recommendation record, errors, RuleSet, threads.

  PYTHONPATH=build/python python3 python/tests/test_api.py --rules-dir rules
"""
import argparse
import os
import dataclasses
import gc
import inspect
import pathlib
import pickle
import sys
import tempfile
import threading
import unittest
import weakref

import snnplan

RULES_DIR = None
_RECOMMEND_INPUTS_PROBED = ("zero_redundancy_optimizer_available", "pipelining_available", "fsdp2_available",
                            "tensor_parallel_available")

# A small rule file of our own (not the default table).
SMALL_RULES = """\
snnplan: 1
inputs:
  world_size: {type: int}
  model: {type: string, default: resnet}
record:
  mode: {type: string, default: none}
  ranks: {type: int, default: 0}
  why: {type: rationale}
start: choose
tables:
  choose:
    - name: single
      when: {world_size: {le: 1}}
      set: {mode: local, ranks: 1}
      because: "single rank for {model}"
    - name: many
      set: {mode: dp, ranks: = world_size}
      because: "{world_size} ranks"
"""

# Line 7, column 10: record field 'ranks' lacks its type.
BROKEN_RULES = SMALL_RULES.replace("ranks: {type: int, default: 0}", "ranks: {default: 0}")

recommend = snnplan.recommend_snn_distributed_strategy


class RecommendationTest(unittest.TestCase):
    def test_fields_and_types(self):
        rec = recommend("spikformer_8_384", 8, "memory", 64)
        self.assertIsInstance(rec, snnplan.SNNDistributedRecommendation)
        self.assertTrue(dataclasses.is_dataclass(rec))
        self.assertEqual([f.name for f in dataclasses.fields(rec)], [
            "prefer", "model", "world_size", "mode", "optimizer_sharding", "memopt_level",
            "mesh_shape", "tp_mesh_dim", "dp_mesh_dim", "pp_microbatches",
            "pp_memopt_stage_budget_ratio", "pp_schedule", "pp_virtual_stages", "pp_layout",
            "pp_delay_wgrad", "rationale"])
        self.assertEqual(rec.mode, "fsdp2_tp")
        self.assertEqual(rec.mesh_shape, (4, 2))
        self.assertIsInstance(rec.mesh_shape, tuple)
        self.assertIsInstance(rec.rationale, tuple)
        self.assertIsNone(rec.pp_layout)
        self.assertIsNone(rec.pp_microbatches)
        self.assertIs(type(rec.pp_memopt_stage_budget_ratio), float)
        self.assertIs(rec.pp_delay_wgrad, False)
        self.assertEqual(rec.rationale[0],
                         "prefer='memory' with model='spikformer', world_size=8, backend='inductor'.")

    def test_frozen_equal_hashable_picklable(self):
        a = recommend("spikformer", 8, "capacity", 64)
        b = recommend(model="spikformer", world_size=8, prefer="CAPACITY", batch_size=64)
        self.assertEqual(a, b)
        self.assertEqual(hash(a), hash(b))
        self.assertEqual(len({a, b}), 1)
        self.assertNotEqual(a, recommend("spikformer", 8, "memory", 64))
        with self.assertRaises(dataclasses.FrozenInstanceError):
            a.mode = "dp"
        self.assertEqual(pickle.loads(pickle.dumps(a)), a)
        self.assertEqual(dataclasses.replace(a, mode="dp").mode, "dp")
        self.assertTrue(repr(a).startswith("SNNDistributedRecommendation(prefer='capacity', model='spikformer', "))
        self.assertEqual(a.mode, "pp")
        self.assertEqual((a.pp_microbatches, a.pp_schedule, a.pp_virtual_stages), (64, "interleaved", 2))

    def test_none_flags_are_defaults(self):
        base = recommend("cifar10dvs_vgg", 8, "speed", 64)
        self.assertEqual(base, recommend("cifar10dvs_vgg", 8, "speed", 64, "inductor", None, None, None, None))
        self.assertEqual(base, recommend("cifar10dvs_vgg", 8, "speed", 64, zero_redundancy_optimizer_available=True,
                                         pipelining_available=True, fsdp2_available=True,
                                         tensor_parallel_available=True))
        off = recommend("cifar10dvs_vgg", 8, "speed", 64, tensor_parallel_available=False,
                        zero_redundancy_optimizer_available=False)
        self.assertEqual((off.mode, off.optimizer_sharding), ("dp", "none"))
        # Flags count by truth value, as in the reference.
        self.assertEqual(off, recommend("cifar10dvs_vgg", 8, "speed", 64, tensor_parallel_available=0,
                                        zero_redundancy_optimizer_available=""))

    def test_value_errors(self):
        with self.assertRaises(ValueError) as cm:
            recommend("spikformer", 8, "Fast", 64)
        self.assertEqual(str(cm.exception),
                         "Unsupported prefer='fast'. Expected one of ('speed', 'memory', 'capacity').")
        with self.assertRaises(ValueError) as cm:
            recommend("spikformer", 2, "capacity", 17)  # 4 logical stages, 17 is prime
        self.assertEqual(str(cm.exception), "batch_size (17) must be divisible by at least one microbatch "
                                            "count in [4, 16] for pipeline parallelism.")

    def test_unicode_prefer_lowered_like_python(self):
        for prefer in ["SPÉED", "İ", "ΣΑΣ", "MEMORY\u0130", "ẞ"]:
            with self.assertRaises(ValueError) as cm:
                recommend("m", 8, prefer, 64)
            self.assertEqual(str(cm.exception), f"Unsupported prefer='{prefer.lower()}'. "
                                                "Expected one of ('speed', 'memory', 'capacity').")

    def test_loose_arguments_are_answered_as_the_reference_answers_them(self):
        rec = recommend("m", 8, "speed", None, backend=None)  # batch_size unread on this branch
        self.assertEqual(rec.rationale[0], "prefer='speed' with model='m', world_size=8, backend='None'.")
        self.assertEqual(recommend("m", 8, "memory", "64", 3).rationale[0],
                         "prefer='memory' with model='m', world_size=8, backend='3'.")
        self.assertEqual(recommend("m", 8, "speed", 64, "x", 0).optimizer_sharding, "none")
        single = recommend("m", True, "speed", 64)
        self.assertIs(single.world_size, True)
        self.assertEqual(single.mode, "none")

    def test_wrong_arguments_raise_what_the_reference_raises(self):
        cases = [((1, 8, "speed", 64), {}, AttributeError, "'int' object has no attribute 'startswith'"),
                 (("m", 8, None, 64), {}, AttributeError, "'NoneType' object has no attribute 'lower'"),
                 (("m", "8", "speed", 64), {}, TypeError, "'<=' not supported between instances of 'str' and 'int'"),
                 (("m", 8, "capacity", None), {}, TypeError,
                  "'>=' not supported between instances of 'NoneType' and 'int'"),
                 ((None, 8, "fast", 64), {}, ValueError,
                  "Unsupported prefer='fast'. Expected one of ('speed', 'memory', 'capacity')."),
                 (("m", 8, "speed"), {}, TypeError,
                  "recommend_snn_distributed_strategy() missing 1 required positional argument: 'batch_size'"),
                 (("m", 8, "speed", 64), {"pipeline_available": False}, TypeError,
                  "recommend_snn_distributed_strategy() got an unexpected keyword argument 'pipeline_available'")]
        for args, kwargs, error, message in cases:
            with self.assertRaises(error, msg=repr(args)) as cm:
                recommend(*args, **kwargs)
            self.assertTrue(str(cm.exception).startswith(message), (str(cm.exception), message))
        with self.assertRaises(TypeError):
            recommend("m", 8, "speed", 64, rules="rules.yaml")

    def test_an_argument_that_recommends_while_formatted_does_not_disturb_the_outer_call(self):
        class Nested:
            def __format__(self, spec):
                return recommend("inner_model_with_a_long_name", 8, "memory", 64).mode

        rec = recommend("outer", 8, "speed", 64, Nested())
        self.assertEqual((rec.model, rec.mode), ("outer", "dp"))
        self.assertEqual(rec.rationale[0], "prefer='speed' with model='outer', world_size=8, backend='fsdp2_tp'.")

    def test_what_the_engine_cannot_take_is_refused_clearly(self):
        with self.assertRaises(TypeError) as cm:  # the rules' inputs are ints; the reference takes floats too
            recommend("m", 8.0, "speed", 64)
        self.assertEqual(str(cm.exception), "world_size must be int, not float")
        with self.assertRaises(OverflowError) as cm:
            recommend("m", 2 ** 64, "speed", 64)
        self.assertEqual(str(cm.exception), "world_size = 18446744073709551616 does not fit in a 64-bit integer")
        with self.assertRaises(OverflowError):
            recommend("m", 8, "capacity", 2 ** 70)  # read on this branch
        self.assertEqual(recommend("m", 8, "speed", 2 ** 70).mode, "dp")  # not read on this one
        with self.assertRaises(OverflowError):
            snnplan.recommended_pipeline_microbatches(2 ** 64, 8)

    def test_module_constants_are_the_references(self):
        self.assertEqual(snnplan.SNN_DISTRIBUTED_PREFERENCES, ("speed", "memory", "capacity"))
        for name in ("ZERO_REDUNDANCY_OPTIMIZER_AVAILABLE", "PIPELINING_AVAILABLE", "FSDP2_AVAILABLE",
                     "TENSOR_PARALLEL_AVAILABLE"):
            self.assertIs(getattr(snnplan, name), True, name)

    def test_records_are_real_frozen_dataclasses(self):
        rec = recommend("cifar10dvs_vgg", 8, "capacity", 64)
        self.assertEqual(pickle.loads(pickle.dumps(rec)), rec)
        self.assertEqual(hash(pickle.loads(pickle.dumps(rec))), hash(rec))
        self.assertEqual(dataclasses.replace(rec, mode="x").mode, "x")
        self.assertEqual(list(dataclasses.asdict(rec)), [f.name for f in dataclasses.fields(rec)])
        self.assertEqual(list(vars(rec)), [f.name for f in dataclasses.fields(rec)])
        self.assertTrue(repr(rec).startswith("SNNDistributedRecommendation(prefer='capacity', model='cifar10dvs_vgg'"))
        with self.assertRaises(dataclasses.FrozenInstanceError):
            rec.mode = "dp"
        self.assertEqual(rec, snnplan.SNNDistributedRecommendation(**dataclasses.asdict(rec)))

    def test_a_record_in_a_reference_cycle_is_collected(self):
        # The record's __dict__ is built in C; the garbage collector must still see into it.
        class Model(str):
            pass

        model = Model("spikformer")
        model.record = recommend(model, 8, "memory", 64)
        self.assertIs(model.record.model, model)
        gone = weakref.ref(model.record)
        del model
        gc.collect()
        self.assertIsNone(gone())

    def test_large_values(self):
        big = 2 ** 63 - 1
        self.assertEqual(recommend("m", big, "speed", big).world_size, big)
        rec = recommend("m", -(2 ** 63), "memory", 1)
        self.assertEqual((rec.mode, rec.memopt_level), ("none", 1))

    def test_signature(self):
        params = list(inspect.signature(recommend).parameters)
        self.assertEqual(params, ["model", "world_size", "prefer", "batch_size", "backend",
                                  "zero_redundancy_optimizer_available", "pipelining_available",
                                  "fsdp2_available", "tensor_parallel_available", "rules"])

    def test_the_signatures_and_the_probe_follow_the_table_of_recommend_inputs(self):
        # The Python signatures spell the parameters (inspect and the stubs need them written
        # out); the library's table is what the CLI, the C API and snnplan.torch read.
        import snnplan.torch
        from snnplan import _snnplan, _torch_probe
        for function in (recommend, snnplan.torch.recommend):
            params = list(inspect.signature(function).parameters)
            self.assertEqual(params[:len(_snnplan._RECOMMEND_INPUTS)], list(_snnplan._RECOMMEND_INPUTS))
        self.assertEqual(_snnplan._PROBED_INPUTS, _RECOMMEND_INPUTS_PROBED)
        self.assertEqual(tuple(_torch_probe.NAMES), _snnplan._PROBED_INPUTS)
        # The extension's plan() (a batch line's call; snnplan.plan is upstream's) takes the
        # fields of a plan request, rules aside.
        params = set(inspect.signature(_snnplan.plan).parameters) - {"rules"}
        self.assertEqual(params, set(_snnplan._PLAN_KEYS))

    def test_custom_rules(self):
        rules = snnplan.RuleSet.from_file(pathlib.Path(RULES_DIR) / "snn_distributed.yaml")
        self.assertEqual(recommend("spikformer", 8, "memory", 64, rules=rules),
                         recommend("spikformer", 8, "memory", 64))
        with self.assertRaises(TypeError):  # a rule set of another schema: missing inputs
            recommend("spikformer", 8, "memory", 64, rules=snnplan.RuleSet.from_string(SMALL_RULES))


class MicrobatchesTest(unittest.TestCase):
    def test_values(self):
        self.assertEqual(snnplan.recommended_pipeline_microbatches(64, 8), 32)
        self.assertEqual(snnplan.recommended_pipeline_microbatches(batch_size=7, num_stages=2), 7)
        self.assertEqual(snnplan.recommended_pipeline_microbatches(8, 8), 8)

    def test_errors(self):
        cases = {
            (0, 1): "batch_size must be positive, but got 0.",
            (4, -1): "num_stages must be positive, but got -1.",
            (5, 8): "batch_size (5) must be >= num_stages (8) for pipeline parallelism with the current "
                    "microbatch splitting implementation.",
            (17, 3): "batch_size (17) must be divisible by at least one microbatch count in [3, 12] for "
                     "pipeline parallelism.",
        }
        for (b, s), message in cases.items():
            with self.assertRaises(ValueError) as cm:
                snnplan.recommended_pipeline_microbatches(b, s)
            self.assertEqual(str(cm.exception), message)
        with self.assertRaises(TypeError):
            snnplan.recommended_pipeline_microbatches(64.0, 8)
        with self.assertRaises(OverflowError):  # the reference answers 32: beyond the engine's 64 bits
            snnplan.recommended_pipeline_microbatches(2 ** 70, 8)
        with self.assertRaises(ValueError) as cm:  # the reference's order: batch_size is refused first
            snnplan.recommended_pipeline_microbatches(False, None)
        self.assertEqual(str(cm.exception), "batch_size must be positive, but got False.")


class RuleSetTest(unittest.TestCase):
    def test_builtin_and_file(self):
        builtin = snnplan.RuleSet.builtin()
        from_file = snnplan.RuleSet.from_file(str(pathlib.Path(RULES_DIR) / "snn_distributed.yaml"))
        self.assertEqual(builtin.file_name, "rules/snn_distributed.yaml")
        self.assertIn("snn_distributed.yaml", repr(from_file))
        inputs = dict(model="spikformer", world_size=8, prefer="memory", batch_size=64)
        got = builtin.evaluate(**inputs)
        self.assertIsInstance(got, dict)
        self.assertEqual(got, from_file.evaluate(**inputs))
        self.assertEqual(list(got)[:4], ["prefer", "model", "world_size", "mode"])
        self.assertEqual(got["mesh_shape"], [4, 2])
        self.assertEqual(got, {k: list(v) if isinstance(v, tuple) else v
                               for k, v in dataclasses.asdict(recommend(**inputs)).items()})
        names = [(i.name, i.type, i.required) for i in builtin.inputs]
        self.assertIn(("world_size", "int", True), names)
        self.assertIn(("backend", "string", False), names)
        self.assertEqual(builtin.warnings, [])
        info = {i.name: i for i in builtin.inputs}
        self.assertEqual((info["prefer"].default, info["prefer"].one_of), (None, ("speed", "memory", "capacity")))
        self.assertEqual((info["backend"].default, info["backend"].one_of), ("inductor", ()))

    def test_inputs_carry_description_default_and_allowed_values(self):
        planning = {i.name: i for i in snnplan.RuleSet.builtin("snn_llm_planning.yaml").inputs}
        self.assertEqual(planning["world_size"],
                         snnplan.InputInfo("world_size", "int", True, None, (), "GPUs in the run (ranks across every node)"))
        self.assertEqual(planning["memory_fraction"].default, 0.9)
        self.assertEqual(planning["pipeline_dtype"].one_of, ("float32", "bfloat16", "float16"))
        self.assertIsNone(planning["pipeline_dtype"].default)
        self.assertFalse(planning["pipeline_dtype"].required)

    def test_from_string(self):
        rules = snnplan.RuleSet.from_string(SMALL_RULES, name="small.yaml")
        self.assertEqual(rules.file_name, "small.yaml")
        self.assertEqual(snnplan.RuleSet.from_string(SMALL_RULES).file_name, "<string>")
        self.assertEqual(rules.evaluate(world_size=1),
                         {"mode": "local", "ranks": 1, "why": ["single rank for resnet"]})
        self.assertEqual(rules.evaluate(world_size=4, model=None)["why"], ["4 ranks"])

    def test_evaluate_errors(self):
        rules = snnplan.RuleSet.builtin()
        good = dict(model="spikformer", world_size=8, prefer="memory", batch_size=64)
        with self.assertRaises(ValueError) as cm:
            rules.evaluate(**dict(good, prefer="bogus"))
        self.assertEqual(str(cm.exception),
                         "Unsupported prefer='bogus'. Expected one of ('speed', 'memory', 'capacity').")
        with self.assertRaises(TypeError) as cm:
            rules.evaluate(**dict(good, world_sise=8))
        self.assertIn("world_sise", str(cm.exception))
        with self.assertRaises(TypeError):
            rules.evaluate(model="m", prefer="speed", batch_size=1)  # world_size missing
        with self.assertRaises(TypeError):
            rules.evaluate(**dict(good, world_size="8"))
        with self.assertRaises(TypeError):
            rules.evaluate(**dict(good, world_size={"a": 1}))
        with self.assertRaises(ValueError):
            rules.evaluate(**dict(good, world_size=-2 ** 64))

    def test_load_error_from_string(self):
        with self.assertRaises(snnplan.RuleLoadError) as cm:
            snnplan.RuleSet.from_string(BROKEN_RULES, "broken.yaml")
        err = cm.exception
        self.assertIsInstance(err, ValueError)
        self.assertEqual((err.file, err.line, err.column), ("broken.yaml", 7, 10))
        self.assertEqual(err.message, "missing required key 'type' in record field 'ranks'")
        self.assertEqual(str(err), "broken.yaml:7:10: missing required key 'type' in record field 'ranks'")
        self.assertGreaterEqual(len(err.diagnostics), 1)
        first = err.diagnostics[0]
        self.assertIsInstance(first, snnplan.Diagnostic)
        self.assertEqual((first.severity, first.code, first.line), ("error", "missing-key", 7))
        again = pickle.loads(pickle.dumps(err))
        self.assertEqual((again.file, again.line, again.column, str(again)), (err.file, err.line, err.column, str(err)))

    def test_load_error_from_file(self):
        with tempfile.TemporaryDirectory() as tmp:
            path = pathlib.Path(tmp) / "broken.yaml"
            path.write_text(BROKEN_RULES, encoding="utf-8")
            with self.assertRaises(snnplan.RuleLoadError) as cm:
                snnplan.RuleSet.from_file(path)
            self.assertEqual((cm.exception.file, cm.exception.line, cm.exception.column), (str(path), 7, 10))
            missing = str(pathlib.Path(tmp) / "missing.yaml")
            with self.assertRaises(snnplan.RuleLoadError) as cm:
                snnplan.RuleSet.from_file(missing)
            self.assertEqual((cm.exception.file, cm.exception.line, cm.exception.column), (missing, 0, 0))
        with self.assertRaises(TypeError):
            snnplan.RuleSet.from_file(42)

    def test_uses_stays_inside_the_rule_roots(self):
        used = ("snnplan: 1\ninputs:\n  x: {type: int}\nrecord:\n  out: {type: int, init: = x * 2}\n"
                "start: main\ntables:\n  main:\n    - name: all\n      set: {}\n")
        user = ("snnplan: 1\nuses:\n  other: ../outside/used.yaml\ninputs:\n  x: {type: int}\n"
                "let:\n  r: {call: other, with: {x: = x}}\nrecord:\n  out: {type: int, init: = r.out}\n"
                "start: main\ntables:\n  main:\n    - name: all\n      set: {}\n")
        with tempfile.TemporaryDirectory() as tmp:
            base = pathlib.Path(tmp)
            (base / "root").mkdir()
            (base / "outside").mkdir()
            (base / "outside" / "used.yaml").write_text(used, encoding="utf-8")
            path = base / "root" / "user.yaml"
            path.write_text(user, encoding="utf-8")
            with self.assertRaises(snnplan.RuleLoadError) as cm:
                snnplan.RuleSet.from_file(path)
            self.assertIn("is outside the rule root", str(cm.exception))
            self.assertEqual((cm.exception.line, cm.exception.column), (3, 10))
            rules = snnplan.RuleSet.from_file(path, rule_roots=[base / "outside"])
            self.assertEqual(rules.evaluate(x=21)["out"], 42)


class ThreadsTest(unittest.TestCase):
    def test_many_threads_one_rule_set(self):
        rules = snnplan.RuleSet.builtin()
        cases = [dict(model=m, world_size=w, prefer=p, batch_size=b)
                 for m in ("spikformer", "cifar10dvs_vgg", "x") for w in (1, 2, 6, 8, 64)
                 for p in ("speed", "memory", "capacity") for b in (1, 17, 64, 1024)]

        def run(case):
            try:
                return ("ok", rules.evaluate(**case), recommend(**case))
            except ValueError as err:
                return ("error", str(err))

        expected = [run(c) for c in cases]
        failures = []

        def worker(offset):
            for k in range(len(cases) * 3):
                i = (k + offset) % len(cases)
                if run(cases[i]) != expected[i]:
                    failures.append(cases[i])

        threads = [threading.Thread(target=worker, args=(t * 7,)) for t in range(8)]
        for t in threads:
            t.start()
        for t in threads:
            t.join()
        self.assertEqual(failures, [])


class PackageTest(unittest.TestCase):
    def test_value_classes_are_python_files_and_the_extension_a_submodule(self):
        import snnplan._snnplan as extension
        import snnplan._types as types
        self.assertTrue(types.__file__.endswith(os.path.join("snnplan", "_types.py")))
        import snnplan._plan as plan_types
        for module, classes in ((types, (snnplan.SNNDistributedRecommendation, snnplan.Diagnostic, snnplan.InputInfo,
                                         snnplan.RuleLoadError)),
                                (plan_types, (snnplan.SNNDistributedPlan, snnplan.SNNDistributedTopology,
                                              snnplan.DistributedFeatureSet))):
            for cls in classes:
                self.assertIs(getattr(module, cls.__name__), cls)
                self.assertEqual(cls.__module__, "snnplan")
        self.assertIs(snnplan.RuleSet, extension.RuleSet)
        self.assertIs(snnplan.plan, plan_types.plan)  # upstream's call and the batch line's, over extension.plan
        self.assertEqual(snnplan.__version__, extension.__version__)
        constants = ["SNN_DISTRIBUTED_PREFERENCES", "ZERO_REDUNDANCY_OPTIMIZER_AVAILABLE", "PIPELINING_AVAILABLE",
                     "FSDP2_AVAILABLE", "TENSOR_PARALLEL_AVAILABLE"]
        for name in set(snnplan.__all__) - set(constants):
            self.assertEqual(getattr(snnplan, name).__module__, "snnplan", name)
        self.assertEqual(sorted(snnplan.__all__), sorted(
            ["recommend_snn_distributed_strategy", "recommended_pipeline_microbatches", "plan", "plan_training",
             "run_tests", "RuleSet",
             "DecisionLog", "RuleLoadError", "SNNDistributedRecommendation", "SNNDistributedPlan", "SNNDistributedTopology",
             "DistributedFeatureSet", "Diagnostic", "InputInfo", "availability", "TorchAvailability"] + constants))


if __name__ == "__main__":
    parser = argparse.ArgumentParser()
    parser.add_argument("--rules-dir", required=True)
    args, rest = parser.parse_known_args()
    RULES_DIR = args.rules_dir
    unittest.main(argv=[sys.argv[0]] + rest, verbosity=2)
