"""snnplan: which parallel strategy to train a spiking neural network with, from rule tables.

    import snnplan
    rec = snnplan.recommend_snn_distributed_strategy("spikformer", 8, "memory", 64)
    rec.mode, rec.mesh_shape            # 'fsdp2_tp', (4, 2)

recommend_snn_distributed_strategy() is a drop-in for the reference Python function: same
parameters, a frozen dataclass with the same 16 fields (so dataclasses.asdict/replace work),
the same exceptions with the same messages, for loose arguments too (None for backend, ...);
SNN_DISTRIBUTED_PREFERENCES and the four *_AVAILABLE constants as the reference has them.
plan() gives the full distributed plan, as `snnplan plan` does, as a frozen SNNDistributedPlan;
it takes SpikingJelly's own plan() call too (snnplan/_plan.py), with SNNDistributedTopology and
DistributedFeatureSet as upstream has them. The value classes and the exception are plain Python
classes (snnplan/_types.py); the work is done by the C++ library (the extension
snnplan._snnplan) with the GIL released, so evaluations in several Python threads run in
parallel. The two drop-ins keep it for calls that take about a microsecond (the built-in rules
and a batch size below 2**24), where releasing it would cost a tenth of the call; the
reference they replace holds it throughout.
"""
from ._types import Diagnostic, InputInfo, RuleLoadError, SNNDistributedRecommendation
from ._plan import DistributedFeatureSet, SNNDistributedPlan, SNNDistributedTopology, plan
from ._snnplan import RULE_FORMAT_VERSION, RuleSet, __version__
from ._drop_in import (FSDP2_AVAILABLE, PIPELINING_AVAILABLE, SNN_DISTRIBUTED_PREFERENCES, TENSOR_PARALLEL_AVAILABLE,
                       ZERO_REDUNDANCY_OPTIMIZER_AVAILABLE, recommend_snn_distributed_strategy,
                       recommended_pipeline_microbatches)

for _public in (RuleSet, plan, recommend_snn_distributed_strategy, recommended_pipeline_microbatches):
    _public.__module__ = __name__
del _public

__all__ = ("recommend_snn_distributed_strategy", "recommended_pipeline_microbatches", "plan", "RuleSet",
           "RuleLoadError", "SNNDistributedRecommendation", "SNNDistributedPlan", "SNNDistributedTopology",
           "DistributedFeatureSet", "Diagnostic", "InputInfo", "SNN_DISTRIBUTED_PREFERENCES",
           "ZERO_REDUNDANCY_OPTIMIZER_AVAILABLE", "PIPELINING_AVAILABLE", "FSDP2_AVAILABLE", "TENSOR_PARALLEL_AVAILABLE")
