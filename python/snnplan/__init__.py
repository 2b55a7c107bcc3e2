"""snnplan: which parallel strategy to train a spiking neural network with, from rule tables.

    import snnplan
    rec = snnplan.recommend_snn_distributed_strategy("spikformer", 8, "memory", 64)
    rec.mode, rec.mesh_shape            # 'fsdp2_tp', (4, 2)

recommend_snn_distributed_strategy() is a drop-in for the reference Python function: same
parameters, a frozen dataclass with the same 16 fields (so dataclasses.asdict/replace work),
the same exceptions with the same messages, for loose arguments too (None for backend, ...);
SNN_DISTRIBUTED_PREFERENCES and the four *_AVAILABLE constants as the reference has them, probed
from PyTorch with the reference's four imports, lazily (import snnplan imports no PyTorch; the
first read of a constant, availability() or a call leaving an availability argument at None
does); availability() returns the four probed values.
run_tests() runs rule-test files against a RuleSet, as `snnplan test` does, and returns its
JSON report as a dict (docs/testing.md).
plan() gives the full distributed plan, as `snnplan plan` does, as a frozen SNNDistributedPlan;
it takes SpikingJelly's own plan() call too (snnplan/_plan.py), with SNNDistributedTopology and
DistributedFeatureSet as upstream has them. plan_training() is SpikingJelly's current planner
(llm/planning.py): a TrainingConfig in, the planned copy out, decided by the built-in
rules/snn_llm_planning.yaml (snnplan/_training.py). The value classes and the exception are plain Python
classes (snnplan/_types.py); the work is done by the C++ library (the extension
snnplan._snnplan) with the GIL released, so evaluations in several Python threads run in
parallel. The two drop-ins keep it for calls that take about a microsecond (the built-in rules
and a batch size below 2**24), where releasing it would cost a tenth of the call; the
reference they replace holds it throughout.
Decisions can be recorded: RuleSet.decide() gives an answer with its provenance (decision id,
the rule file's sha256, the fired rules); a DecisionLog (or $SNNPLAN_DECISION_LOG, as for the
CLI) appends one JSON line per decision, and RuleSet.with_shadow() compares a candidate rule
file on live calls (snnplan replay reads the logs).
"""
from ._types import Diagnostic, InputInfo, RuleLoadError, SNNDistributedRecommendation
from ._plan import DistributedFeatureSet, SNNDistributedPlan, SNNDistributedTopology, plan
from ._training import plan_training
from ._snnplan import RULE_FORMAT_VERSION, DecisionLog, RuleSet, __version__, run_tests
from ._drop_in import (SNN_DISTRIBUTED_PREFERENCES, TorchAvailability, availability, recommend_snn_distributed_strategy,
                       recommended_pipeline_microbatches)
from . import _drop_in


def __getattr__(name):
    """The four *_AVAILABLE constants, probed from PyTorch at the first read (PEP 562): after it
    they are plain attributes of the package and this is not called for them again."""
    if name in _drop_in.AVAILABILITY_CONSTANTS:
        _drop_in._publish_constants()
        return globals()[name]
    raise AttributeError(f"module {__name__!r} has no attribute {name!r}")


for _public in (RuleSet, DecisionLog, plan, plan_training, run_tests, recommend_snn_distributed_strategy, recommended_pipeline_microbatches, availability,
                TorchAvailability):
    _public.__module__ = __name__
del _public

__all__ = ("recommend_snn_distributed_strategy", "recommended_pipeline_microbatches", "plan", "plan_training",
           "run_tests", "RuleSet",
           "DecisionLog",
           "RuleLoadError", "SNNDistributedRecommendation", "SNNDistributedPlan", "SNNDistributedTopology",
           "DistributedFeatureSet", "Diagnostic", "InputInfo", "SNN_DISTRIBUTED_PREFERENCES", "availability",
           "TorchAvailability",
           "ZERO_REDUNDANCY_OPTIMIZER_AVAILABLE", "PIPELINING_AVAILABLE", "FSDP2_AVAILABLE", "TENSOR_PARALLEL_AVAILABLE")
