#!/usr/bin/env python3
"""snnplan.plan_training(): SpikingJelly's current planner (llm/planning.py at 2ec62908) as a
drop-in. Upstream's own five tests (test/activation_based/test_distributed_planning.py) written
again against snnplan with dataclasses like their config; parity of both forms (the flat
request, a config built from it) with upstream's answers in tests/data/planning; the input left
untouched; rules=; bad input with upstream's messages.

  PYTHONPATH=build/python python3 python/tests/test_plan_training.py \\
      --data tests/data/planning/upstream_plan_training.jsonl --rules-dir rules [--real-torch]

--real-torch: the dtypes are PyTorch's own (torch.bfloat16, ...), as upstream's configs hold
them, and the test checks that the planned config holds the same objects; without it they are
given by name ("bfloat16"), which plan_training() takes too.
"""
import argparse
import copy
import dataclasses
import json
import os
import pathlib
import sys
import tempfile
import types
import unittest
from typing import ClassVar

import snnplan

DATA = None
RULES_DIR = None
DTYPES = {name: name for name in ("float32", "bfloat16", "float16")}  # by name unless --real-torch
GIB = 1024**3

NO_TOPOLOGY = "No topology satisfies the model and batch constraints."
NOT_POSITIVE = "world_size and device_memory_bytes must be positive."
BAD_OBJECTIVE = "objective must be 'throughput' or 'memory'."
BAD_FRACTION = "memory_fraction must be in (0, 1]."


def dtype(name):
    return DTYPES[name]


# Upstream's test config: its _Transformer, a frozen kw_only ModelConfig and a TrainingConfig
# whose fields it sets (SpikingJelly's own classes need torch and Megatron).
@dataclasses.dataclass
class _Transformer:
    num_layers: int = 4
    hidden_size: int = 128
    num_attention_heads: int = 4
    num_query_groups: "int | None" = 2
    kv_channels: int = 32
    ffn_hidden_size: int = 512
    gated_linear_unit: bool = True
    normalization: str = "RMSNorm"
    tensor_model_parallel_size: int = 1
    pipeline_model_parallel_size: int = 1
    context_parallel_size: int = 1
    sequence_parallel: bool = False
    expert_model_parallel_size: int = 1
    expert_tensor_parallel_size: int = 1
    microbatch_group_size_per_vp_stage: int = 1
    calculate_per_token_loss: bool = True
    fp16: bool = False
    bf16: bool = True
    params_dtype: object = dataclasses.field(default_factory=lambda: dtype("bfloat16"))
    pipeline_dtype: object = dataclasses.field(default_factory=lambda: dtype("bfloat16"))
    fp8: "str | None" = None
    recompute_granularity: "str | None" = None
    recompute_method: "str | None" = None
    recompute_num_layers: "int | None" = None
    recompute_modules: "list[str] | None" = None


@dataclasses.dataclass(frozen=True, kw_only=True)
class ModelConfig:
    transformer: object
    vocab_size: int
    max_sequence_length: int
    time_steps: int
    share_embeddings_and_output_weights: bool = False
    position_embedding_type: str = "rope"


@dataclasses.dataclass(frozen=True, kw_only=True)
class _ModelConfig(ModelConfig):
    builder: ClassVar[str] = "package.ModelBuilder"


@dataclasses.dataclass(kw_only=True)
class TrainingConfig:
    model: ModelConfig
    optimizer: object
    dataset_builder: str
    sequence_length: int
    micro_batch_size: int
    global_batch_size: int
    train_steps: int
    use_snn_memopt: bool = False


def _config():
    return TrainingConfig(
        model=_ModelConfig(transformer=_Transformer(), vocab_size=1024, max_sequence_length=512, time_steps=4),
        optimizer=types.SimpleNamespace(use_distributed_optimizer=True, fp16=False, bf16=True,
                                        params_dtype=dtype("bfloat16"), lr=1e-4, min_lr=1e-5),
        dataset_builder="package.build_datasets", sequence_length=128, micro_batch_size=1, global_batch_size=4,
        train_steps=10)


# _config() as a flat request (the harness's base of upstream's tests).
BASE_REQUEST = dict(
    world_size=2, device_memory_bytes=8 * GIB, objective="throughput", memory_fraction=0.9, sequence_length=128,
    micro_batch_size=1, global_batch_size=4, use_snn_memopt=False, time_steps=4, vocab_size=1024,
    max_sequence_length=512, position_embedding_type="rope", share_embeddings_and_output_weights=False, num_layers=4,
    hidden_size=128, num_attention_heads=4, num_query_groups=2, kv_channels=32, ffn_hidden_size=512,
    gated_linear_unit=True, normalization="RMSNorm", fp16=False, bf16=True, params_dtype="bfloat16",
    pipeline_dtype="bfloat16", fp8=None)
SMALL_BUDGET = dict(world_size=2, device_memory_bytes=int(18.25 * 1024**2), memory_fraction=1.0)


def _small_config():
    """The config of upstream's two fallback tests: nothing fits without recompute."""
    config = _config()
    config.sequence_length = 127
    config.model.transformer.hidden_size = 120
    config.model.transformer.ffn_hidden_size = 480
    config.model.transformer.num_attention_heads = 3
    config.model.transformer.num_query_groups = 3
    config.model.transformer.kv_channels = 40
    return config


class UpstreamTests(unittest.TestCase):
    """test_distributed_planning.py's five tests, asserting what they assert."""

    def test_plan_training_returns_train_config_without_mutating_input(self):
        config = _config()
        planned = snnplan.plan_training(config, world_size=2, device_memory_bytes=8 * GIB)
        self.assertIsNot(planned, config)
        self.assertIsNot(planned.model, config.model)
        self.assertIsNot(planned.model.transformer, config.model.transformer)
        self.assertEqual(config.model.transformer.tensor_model_parallel_size, 1)
        self.assertIsNone(planned.model.transformer.recompute_granularity)
        self.assertFalse(planned.use_snn_memopt)

    def test_memory_objective_prefers_snn_memopt_without_mcore_recompute(self):
        planned = snnplan.plan_training(_config(), world_size=2, device_memory_bytes=8 * GIB, objective="memory")
        self.assertTrue(planned.use_snn_memopt)
        self.assertIsNone(planned.model.transformer.recompute_granularity)
        self.assertIsNone(planned.model.transformer.recompute_modules)

    def test_planner_preserves_requested_snn_memopt(self):
        config = _config()
        config.use_snn_memopt = True
        planned = snnplan.plan_training(config, world_size=1, device_memory_bytes=8 * GIB)
        self.assertTrue(planned.use_snn_memopt)

    def test_planner_uses_only_non_overlapping_selective_recompute_as_fallback(self):
        planned = snnplan.plan_training(_small_config(), world_size=2, device_memory_bytes=int(18.25 * 1024**2),
                                        memory_fraction=1.0)
        self.assertTrue(planned.use_snn_memopt)
        self.assertEqual(planned.model.transformer.recompute_granularity, "selective")
        self.assertEqual(planned.model.transformer.recompute_modules, ["core_attn"])

    def test_planner_does_not_assume_fp8_hybrid_memory_savings(self):
        config = _small_config()
        config.model.transformer.fp8 = "hybrid"
        with self.assertRaisesRegex(ValueError, "does not fit|No topology fits"):
            snnplan.plan_training(config, world_size=2, device_memory_bytes=int(18.25 * 1024**2),
                                  memory_fraction=1.0)


# --- parity with upstream's answers ------------------------------------------------------

# The answer's fields upstream's result holds, and the request's keys by where a config holds them
# (plan_training_parity.py's build()).
FIELDS = ("tensor_model_parallel_size", "pipeline_model_parallel_size", "context_parallel_size",
          "data_parallel_size", "num_microbatches", "sequence_parallel", "expert_tensor_parallel_size",
          "pipeline_dtype", "microbatch_group_size_per_vp_stage", "recompute_granularity", "recompute_method",
          "recompute_num_layers", "recompute_modules", "use_snn_memopt")
CONFIG_FIELDS = tuple(name for name in FIELDS if name not in ("data_parallel_size", "num_microbatches"))
TRANSFORMER_KEYS = ("num_layers", "hidden_size", "num_attention_heads", "num_query_groups", "kv_channels",
                    "ffn_hidden_size", "gated_linear_unit", "normalization", "fp16", "bf16", "params_dtype",
                    "pipeline_dtype", "fp8")
MODEL_KEYS = ("vocab_size", "max_sequence_length", "time_steps", "share_embeddings_and_output_weights",
              "position_embedding_type")
RUN_KEYS = ("sequence_length", "micro_batch_size", "global_batch_size", "use_snn_memopt")
ARGUMENTS = ("world_size", "device_memory_bytes", "objective", "memory_fraction")


def cases():
    with open(DATA, encoding="utf-8") as lines:
        return [json.loads(line) for line in lines if line.strip()]


def config_of(request):
    transformer = {key: request[key] for key in TRANSFORMER_KEYS}
    for key in ("params_dtype", "pipeline_dtype"):
        transformer[key] = dtype(transformer[key])
    model = _ModelConfig(transformer=_Transformer(**transformer), **{key: request[key] for key in MODEL_KEYS})
    return TrainingConfig(model=model, optimizer=None, dataset_builder="package.build_datasets", train_steps=1,
                          **{key: request[key] for key in RUN_KEYS})


def outcome(call):
    try:
        return call()
    except ValueError as error:
        return {"error": str(error)}


class ParityTest(unittest.TestCase):
    def test_the_flat_request_gets_upstreams_answer(self):
        for number, case in enumerate(cases()):
            want = case["answer"]
            got = outcome(lambda: snnplan.plan_training(case["request"]))
            with self.subTest(case=number):
                if "error" in want:
                    self.assertEqual(got, want)
                    continue
                self.assertNotIn("error", got)
                for name in FIELDS:
                    self.assertEqual((got[name], type(got[name])), (want[name], type(want[name])), name)
                want_estimate = want["memory_estimate_bytes"]
                self.assertLessEqual(abs(got["memory_estimate_bytes"] - want_estimate),
                                     1e-12 * max(abs(want_estimate), 1.0))

    def test_a_config_gets_upstreams_planned_config(self):
        for number, case in enumerate(cases()):
            request, want = case["request"], case["answer"]
            config = config_of(request)
            got = outcome(lambda: snnplan.plan_training(config, **{key: request[key] for key in ARGUMENTS}))
            with self.subTest(case=number):
                if "error" in want:
                    self.assertEqual(got, want)
                    continue
                self.assertIsInstance(got, TrainingConfig)
                transformer = got.model.transformer
                planned = {name: getattr(got if name == "use_snn_memopt" else transformer, name)
                           for name in CONFIG_FIELDS}
                expected = {name: want[name] for name in CONFIG_FIELDS}
                expected["pipeline_dtype"] = dtype(want["pipeline_dtype"])
                self.assertEqual(planned, expected)
                # What upstream's _candidate() leaves alone stays as it was.
                for key in TRANSFORMER_KEYS:
                    if key != "pipeline_dtype":
                        self.assertIs(getattr(transformer, key), getattr(config.model.transformer, key))
                self.assertEqual(dataclasses.replace(got, use_snn_memopt=request["use_snn_memopt"],
                                                     model=config.model), config)


class InputTest(unittest.TestCase):
    def test_the_input_is_not_mutated(self):
        for config, arguments in ((_config(), dict(world_size=2, device_memory_bytes=8 * GIB)),
                                  (_small_config(), SMALL_BUDGET)):
            before = copy.deepcopy(config)
            transformer, model = config.model.transformer, config.model
            planned = snnplan.plan_training(config, **arguments)
            self.assertEqual(config, before)
            self.assertIs(config.model, model)
            self.assertIs(config.model.transformer, transformer)
            self.assertIs(planned.optimizer, config.optimizer)  # replace() copies nothing else
        request = dict(BASE_REQUEST)
        before = dict(request)
        snnplan.plan_training(request)
        self.assertEqual(request, before)

    def test_a_frozen_transformer_and_a_missing_kv_channels(self):
        # Megatron's TransformerConfig may lack kv_channels; upstream reads it with getattr(..., None).
        @dataclasses.dataclass(frozen=True)
        class Transformer:
            num_layers: int = 4
            hidden_size: int = 128
            num_attention_heads: int = 4
            num_query_groups: "int | None" = None
            ffn_hidden_size: int = 512
            gated_linear_unit: bool = False
            normalization: str = "LayerNorm"
            fp16: bool = False
            bf16: bool = False
            params_dtype: object = dataclasses.field(default_factory=lambda: dtype("float32"))
            pipeline_dtype: object = None
            fp8: "str | None" = None
            tensor_model_parallel_size: int = 1
            pipeline_model_parallel_size: int = 1
            context_parallel_size: int = 1
            sequence_parallel: bool = False
            expert_tensor_parallel_size: int = 1
            microbatch_group_size_per_vp_stage: int = 1
            recompute_granularity: "str | None" = None
            recompute_method: "str | None" = None
            recompute_num_layers: "int | None" = None
            recompute_modules: "list[str] | None" = None

        config = _config()
        config = dataclasses.replace(config, model=dataclasses.replace(config.model, transformer=Transformer()))
        planned = snnplan.plan_training(config, world_size=4, device_memory_bytes=8 * GIB)
        flat = snnplan.plan_training(dict(
            BASE_REQUEST, world_size=4, num_query_groups=None, kv_channels=None, gated_linear_unit=False,
            normalization="LayerNorm", bf16=False, params_dtype="float32", pipeline_dtype=None))
        self.assertIsInstance(planned.model.transformer, Transformer)
        self.assertEqual(planned.model.transformer.tensor_model_parallel_size, flat["tensor_model_parallel_size"])
        self.assertEqual(planned.model.transformer.pipeline_dtype,
                         None if flat["pipeline_model_parallel_size"] == 1 else dtype("float32"))

    def test_dtypes_come_back_as_given(self):
        """pipeline_dtype: the transformer's own (pp == 1) or its params_dtype (pp > 1), as the
        object the config holds."""
        seen = set()
        for case in cases():
            request, want = case["request"], case["answer"]
            if "error" in want or request["params_dtype"] == request["pipeline_dtype"]:
                continue
            config = config_of(request)
            planned = snnplan.plan_training(config, **{key: request[key] for key in ARGUMENTS})
            stages = planned.model.transformer.pipeline_model_parallel_size
            source = "params_dtype" if stages > 1 else "pipeline_dtype"
            self.assertIs(planned.model.transformer.pipeline_dtype, getattr(config.model.transformer, source))
            seen.add(stages > 1)
        self.assertEqual(seen, {False, True})

    def test_bad_input_gets_upstreams_message(self):
        for arguments, message in ((dict(world_size=-1, device_memory_bytes=8 * GIB), NOT_POSITIVE),
                                   (dict(world_size=2, device_memory_bytes=0), NOT_POSITIVE),
                                   (dict(world_size=2, device_memory_bytes=8 * GIB, objective="speed"), BAD_OBJECTIVE),
                                   (dict(world_size=2, device_memory_bytes=8 * GIB, memory_fraction=1.5), BAD_FRACTION),
                                   (dict(world_size=2, device_memory_bytes=8 * GIB, objective=None), BAD_OBJECTIVE),
                                   (dict(world_size=2, device_memory_bytes=8 * GIB, objective=1), BAD_OBJECTIVE),
                                   (dict(world_size=7, device_memory_bytes=8 * GIB), NO_TOPOLOGY)):
            with self.subTest(**arguments):
                with self.assertRaises(ValueError) as raised:
                    snnplan.plan_training(_config(), **arguments)
                self.assertEqual(str(raised.exception), message)
                if not isinstance(arguments.get("objective", ""), str):
                    continue  # a flat request's null is the input's default, as on a batch line
                flat = dict(BASE_REQUEST, **arguments)
                self.assertEqual(outcome(lambda: snnplan.plan_training(flat)), {"error": message})

    def test_what_upstream_cannot_take_either(self):
        with self.assertRaisesRegex(TypeError, "world_size"):
            snnplan.plan_training(_config(), device_memory_bytes=8 * GIB)
        for fraction in (None, "0.9"):
            with self.assertRaises(TypeError) as raised:  # upstream's own, from `0 < memory_fraction`
                snnplan.plan_training(_config(), world_size=2, device_memory_bytes=8 * GIB, memory_fraction=fraction)
            self.assertEqual(str(raised.exception),
                             "'<' not supported between instances of 'int' and '%s'" % type(fraction).__name__)
        with self.assertRaisesRegex(ValueError, "does not fit in a 64-bit integer"):
            snnplan.plan_training(_config(), world_size=2, device_memory_bytes=2**64)
        config = _config()
        fields = dataclasses.asdict(config.model.transformer)
        del fields["fp8"]
        config.model = dataclasses.replace(config.model, transformer=types.SimpleNamespace(**fields))
        with self.assertRaisesRegex(AttributeError, "fp8"):
            snnplan.plan_training(config, world_size=2, device_memory_bytes=8 * GIB)


class RulesTest(unittest.TestCase):
    def test_rules_by_path_or_rule_set(self):
        path = os.path.join(RULES_DIR, "snn_llm_planning.yaml")
        builtin = snnplan.RuleSet.builtin("snn_llm_planning.yaml", decision_log=False)
        self.assertEqual(builtin.file_name, "rules/snn_llm_planning.yaml")
        self.assertEqual(builtin.sha256, snnplan.RuleSet.from_file(path).sha256)
        request = BASE_REQUEST
        want = snnplan.plan_training(request)
        for rules in (path, pathlib.Path(path), builtin):
            self.assertEqual(snnplan.plan_training(request, rules=rules), want)
        with tempfile.TemporaryDirectory() as scratch:
            # Another memory model: no allocator slack, so the small config fits without recompute.
            text = pathlib.Path(path).read_text(encoding="utf-8")
            slack = 'full_activation_overhead: "1.05"'
            self.assertEqual(text.count(slack), 1)
            edited = pathlib.Path(scratch) / "planning.yaml"
            edited.write_text(text.replace(slack, 'full_activation_overhead: "0.5"'), encoding="utf-8")
            self.assertEqual(snnplan.plan_training(_small_config(), **SMALL_BUDGET).model.transformer
                             .recompute_granularity, "selective")
            self.assertIsNone(snnplan.plan_training(_small_config(), rules=edited, **SMALL_BUDGET).model.transformer
                              .recompute_granularity)

    def test_an_unknown_builtin_name(self):
        with self.assertRaises(ValueError) as raised:
            snnplan.RuleSet.builtin("snn_planning.yaml")
        self.assertRegex(str(raised.exception),
                         r"^no built-in rule file 'snn_planning.yaml' \(there are: .*snn_llm_planning.yaml.*\)$")

    def test_a_decision_log_records_the_flat_request(self):
        with tempfile.TemporaryDirectory() as scratch:
            path = pathlib.Path(scratch) / "plans.jsonl"
            rules = snnplan.RuleSet.builtin("snn_llm_planning.yaml", decision_log=path)
            planned = snnplan.plan_training(_config(), world_size=2, device_memory_bytes=8 * GIB, rules=rules)
            [line] = [json.loads(text) for text in path.read_text(encoding="utf-8").splitlines()]
        self.assertEqual(line["rules_file"], "rules/snn_llm_planning.yaml")
        self.assertIs(line["builtin"], True)
        self.assertEqual(line["inputs"]["params_dtype"], "bfloat16")
        self.assertEqual(line["inputs"]["world_size"], 2)
        self.assertEqual(line["answer"]["tensor_model_parallel_size"],
                         planned.model.transformer.tensor_model_parallel_size)


class TorchTest(unittest.TestCase):
    def test_outside_a_process_group_the_local_answer(self):
        import snnplan.torch
        request = BASE_REQUEST
        self.assertEqual(snnplan.torch.plan_training(request, source="rank0"), snnplan.plan_training(request))
        planned = snnplan.torch.plan_training(_config(), world_size=2, device_memory_bytes=8 * GIB)
        self.assertEqual(planned, snnplan.plan_training(_config(), world_size=2, device_memory_bytes=8 * GIB))


def main():
    global DATA, RULES_DIR
    parser = argparse.ArgumentParser()
    parser.add_argument("--data", required=True)
    parser.add_argument("--rules-dir", required=True)
    parser.add_argument("--real-torch", action="store_true")
    args, rest = parser.parse_known_args()
    DATA, RULES_DIR = args.data, os.path.abspath(args.rules_dir)
    if args.real_torch:
        import torch
        if not isinstance(getattr(torch, "bfloat16", None), torch.dtype):
            raise SystemExit(f"test_plan_training --real-torch: {torch.__file__} is not PyTorch")
        DTYPES.update((name, getattr(torch, name)) for name in DTYPES)
    unittest.main(argv=[sys.argv[0]] + rest, verbosity=2)


if __name__ == "__main__":
    main()
