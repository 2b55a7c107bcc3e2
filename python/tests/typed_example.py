"""Every public name of snnplan used with its declared types: ctest runs `mypy --strict` on this
file (against the package's stubs) and then runs it, so the stubs and the module agree on what a
typed caller writes. Exits 0 when every check holds."""
import dataclasses
import os
import pathlib
import sys
import types
import tempfile
from typing import Any, Dict, List, Optional, Tuple

import snnplan
import snnplan.torch
from snnplan import (FSDP2_AVAILABLE, PIPELINING_AVAILABLE, RULE_FORMAT_VERSION, SNN_DISTRIBUTED_PREFERENCES,
                     TENSOR_PARALLEL_AVAILABLE, ZERO_REDUNDANCY_OPTIMIZER_AVAILABLE, Diagnostic,
                     DecisionLog, DistributedFeatureSet, InputInfo, RuleLoadError, RuleSet, SNNDistributedPlan,
                     SNNDistributedRecommendation, SNNDistributedTopology)


def check(condition: bool, what: str) -> None:
    if not condition:
        raise SystemExit(f"typed_example: {what}")


def recommendations() -> None:
    rec: SNNDistributedRecommendation = snnplan.recommend_snn_distributed_strategy("spikformer", 8, "memory", 64)
    mesh: Optional[Tuple[int, ...]] = rec.mesh_shape
    check(mesh == (4, 2), "fsdp2_tp mesh")
    check(rec.mode == "fsdp2_tp" and rec.memopt_level == 1, "memory preference")
    off = snnplan.recommend_snn_distributed_strategy("vgg", 8, "capacity", 64, "eager", True, False, True, True,
                                                     rules=RuleSet.builtin())
    lines: Tuple[str, ...] = off.rationale
    check(off.mode == "fsdp2_tp" and lines[0].endswith("backend='eager'."), "capacity without pipelining")
    count: int = snnplan.recommended_pipeline_microbatches(64, 8)
    check(count == 32, "microbatches")
    prefers: Tuple[str, str, str] = SNN_DISTRIBUTED_PREFERENCES
    flags: List[bool] = [ZERO_REDUNDANCY_OPTIMIZER_AVAILABLE, PIPELINING_AVAILABLE, FSDP2_AVAILABLE,
                         TENSOR_PARALLEL_AVAILABLE]
    check(prefers == ("speed", "memory", "capacity") and all(flags), "constants")
    check(dataclasses.replace(rec, mode="tp").mode == "tp", "dataclasses.replace")


def plans() -> None:
    features = DistributedFeatureSet(allow_pipeline=False)
    planned: SNNDistributedPlan = snnplan.plan("memory", "dp=4,tp=2", 64, world_size=8, backend="inductor",
                                               model_family="generic", mode=None, tp_roots=["blocks"],
                                               tp_candidates=True, features=features, notes=["typed"],
                                               rules=None)
    topology: SNNDistributedTopology = planned.topology
    check(topology.world_size == 8 and planned.notes == ("typed",), "plan")
    again = snnplan.plan("speed", {"dp": 8}, 32, features={"allow_pipeline": True})
    check(again.topology.mesh_shape == (8,), "plan with a dict topology")
    # SpikingJelly's own call: an analysis object and an SNNDistributedTopology.
    built = SNNDistributedTopology.from_mapping({"tp": 2, "dp": 4})
    check(built.ordered_dim_names == ("dp", "tp") and dict(built.dims) == {"tp": 2, "dp": 4}, "from_mapping")
    analysis = types.SimpleNamespace(notes=("a",), tensor_parallel_candidate_names=("blocks.0",),
                                     tensor_parallel_roots=("blocks",))
    upstream: SNNDistributedPlan = snnplan.plan(analysis=analysis, objective="memory", topology=built,
                                                backend="inductor", batch_size=64)
    check(upstream.topology.world_size == 8 and upstream.notes == ("a",), "upstream's plan() call")


@dataclasses.dataclass(frozen=True)
class Transformer:
    num_layers: int = 4
    hidden_size: int = 128
    num_attention_heads: int = 4
    num_query_groups: Optional[int] = 2
    kv_channels: Optional[int] = 32
    ffn_hidden_size: int = 512
    gated_linear_unit: bool = True
    normalization: str = "RMSNorm"
    fp16: bool = False
    bf16: bool = True
    params_dtype: str = "bfloat16"
    pipeline_dtype: Optional[str] = "bfloat16"
    fp8: Optional[str] = None
    tensor_model_parallel_size: int = 1
    pipeline_model_parallel_size: int = 1
    context_parallel_size: int = 1
    sequence_parallel: bool = False
    expert_tensor_parallel_size: int = 1
    microbatch_group_size_per_vp_stage: int = 1
    recompute_granularity: Optional[str] = None
    recompute_method: Optional[str] = None
    recompute_num_layers: Optional[int] = None
    recompute_modules: Optional[List[str]] = None


@dataclasses.dataclass(frozen=True)
class Model:
    transformer: Transformer = Transformer()
    vocab_size: int = 1024
    max_sequence_length: int = 512
    time_steps: int = 4
    share_embeddings_and_output_weights: bool = False
    position_embedding_type: str = "rope"


@dataclasses.dataclass(frozen=True)
class TrainingConfig:
    model: Model = Model()
    sequence_length: int = 128
    micro_batch_size: int = 1
    global_batch_size: int = 4
    use_snn_memopt: bool = False


def training_plans() -> None:
    config = TrainingConfig()
    planned: TrainingConfig = snnplan.plan_training(config, world_size=2, device_memory_bytes=8 * 1024**3,
                                                    objective="memory", memory_fraction=0.9, rules=None)
    check(planned.use_snn_memopt and planned.model.transformer.recompute_modules is None, "plan_training")
    flat = {field.name: getattr(config.model.transformer, field.name)
            for field in dataclasses.fields(Transformer)[:13]}
    flat.update(vocab_size=1024, max_sequence_length=512, time_steps=4, sequence_length=128, micro_batch_size=1,
                global_batch_size=4)
    answer: Dict[str, Any] = snnplan.plan_training(flat, world_size=2, device_memory_bytes=8 * 1024**3,
                                                   objective="memory", rules=RuleSet.builtin("snn_llm_planning.yaml"))
    check(answer["tensor_model_parallel_size"] == planned.model.transformer.tensor_model_parallel_size,
          "plan_training of a flat request")
    same: TrainingConfig = snnplan.torch.plan_training(config, world_size=2, device_memory_bytes=8 * 1024**3,
                                                       objective="memory", source="all")
    check(same == planned, "snnplan.torch.plan_training")


def rule_sets() -> None:
    rules = RuleSet.from_string("snnplan: 1\ninputs: {x: {type: int}}\nrecord: {y: {type: int, init: = x}}\n"
                                "start: t\ntables: {t: [{name: r, set: {}}]}\n", name="small.yaml")
    record: Dict[str, Any] = rules.evaluate(x=3)
    check(record == {"y": 3}, "evaluate")
    infos: List[InputInfo] = rules.inputs
    check([(i.name, i.type, i.required) for i in infos] == [("x", "int", True)], "inputs")
    warnings: List[Diagnostic] = rules.warnings
    check(isinstance(warnings, list) and rules.file_name == "small.yaml", "warnings and file_name")
    with tempfile.TemporaryDirectory() as scratch:
        path = os.path.join(scratch, "broken.yaml")
        with open(path, "w", encoding="utf-8") as out:
            out.write("snnplan: 1\nbogus: 1\n")
        try:
            RuleSet.from_file(path, rule_roots=[scratch])
            check(False, "a broken file loads")
        except RuleLoadError as error:
            first: Diagnostic = error.diagnostics[0]
            check(error.line >= 1 and first.severity == "error" and error.file == path, "RuleLoadError")
            check(isinstance(error.message, str) and error.column >= 0, "RuleLoadError fields")
    check(RULE_FORMAT_VERSION >= 1 and isinstance(snnplan.__version__, str), "versions")


def rule_tests() -> None:
    rules = RuleSet.from_string("snnplan: 1\ninputs: {x: {type: int}}\nrecord: {y: {type: int, init: = x}}\n"
                                "start: t\ntables: {t: [{name: r, set: {}}]}\n", name="small.yaml")
    with tempfile.TemporaryDirectory() as scratch:
        path = os.path.join(scratch, "small.test.yaml")
        with open(path, "w", encoding="utf-8") as out:
            out.write("tests:\n  - name: y is x\n    input: {x: 3}\n    expect: {y: 3}\n")
        report: Dict[str, Any] = snnplan.run_tests(rules, path, mutate=False)
        check(report["passed"] == 1 and report["failed"] == 0, "run_tests")
        again: Dict[str, Any] = snnplan.run_tests(rules, [pathlib.Path(path)], mutate=True)
        check(again["coverage"]["rule"]["percent"] == 100.0 and "mutation" in again, "run_tests with a list of paths")


def one_decision() -> None:
    # snnplan.torch outside a process group (none here): the local answers.
    flags = (True, True, True, True)
    agreed: SNNDistributedRecommendation = snnplan.torch.recommend("spikformer", 8, "memory", 64, "inductor", *flags,
                                                                   rules=None, source="all", group=None)
    check(agreed == snnplan.recommend_snn_distributed_strategy("spikformer", 8, "memory", 64, "inductor", *flags),
          "snnplan.torch.recommend")
    try:
        planned: SNNDistributedPlan = snnplan.torch.plan("memory", "dp=4,tp=2", 64, world_size=8, source="rank0")
        analysis = types.SimpleNamespace(notes=(), tensor_parallel_candidate_names=(), tensor_parallel_roots=None)
        upstream: SNNDistributedPlan = snnplan.torch.plan(analysis=analysis, objective="speed", topology={"dp": 8},
                                                          backend="inductor", batch_size=64, timeout=None)
        check(planned.mode == "fsdp2_tp" and upstream.mode == "dp", "snnplan.torch.plan")
    except snnplan.torch.RankDisagreement as error:
        differing: Tuple[str, ...] = error.names
        check(False, f"{error.kind}: {differing}")
    except snnplan.torch.RankExchangeFailed as failed:
        check(False, f"{failed.operation} on rank {failed.rank}")


def decision_records() -> None:
    with tempfile.TemporaryDirectory() as scratch:
        log = DecisionLog(os.path.join(scratch, "decisions.jsonl"), labels={"job": "1"}, drop_inputs=["model"],
                          mask_inputs=())
        rules: RuleSet = RuleSet.builtin(decision_log=False).with_decision_log(log)
        decision: Dict[str, Any] = rules.decide(model="spikformer", world_size=8, prefer="memory", batch_size=64)
        check(decision["rules_sha256"] == rules.sha256 and rules.observed, "decide")
        shadowed: RuleSet = RuleSet.builtin(decision_log=log).with_shadow(rules, os.path.join(scratch, "s.jsonl"),
                                                                          labels={"job": "1"})
        check(shadowed.evaluate(model="m", world_size=1, prefer="speed", batch_size=8)["mode"] == "none",
              "with_shadow")
        plan_rules: RuleSet = RuleSet.builtin_plan(decision_log=False)
        check(plan_rules.file_name == "rules/snn_plan.yaml" and len(plan_rules.sha256) == 64, "builtin_plan")
        failed: int = log.failed_writes
        check(failed == 0 and log.path.endswith("decisions.jsonl"), "DecisionLog")


if __name__ == "__main__":
    recommendations()
    plans()
    training_plans()
    rule_sets()
    rule_tests()
    one_decision()
    decision_records()
    sys.exit(0)
