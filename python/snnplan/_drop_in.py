"""The reference's two functions and its module constants.

The public functions are the extension's (python/drop_in.cpp): they read a plain call's
arguments themselves, without a Python frame, which is what makes them faster than the Python
they replace. Any other call (missing, unknown or repeated arguments, too many) they hand to
the functions below, which have the reference's signatures, so that Python binds what it can
and raises its own errors ("got an unexpected keyword argument 'pipeline_available'", "missing
1 required positional argument: 'batch_size'") for the rest.
"""
from . import _snnplan, _types

SNN_DISTRIBUTED_PREFERENCES = ("speed", "memory", "capacity")
# The reference probes PyTorch for these; a current PyTorch has all four, and the rule file's
# defaults (true) say the same.
ZERO_REDUNDANCY_OPTIMIZER_AVAILABLE = True
PIPELINING_AVAILABLE = True
FSDP2_AVAILABLE = True
TENSOR_PARALLEL_AVAILABLE = True


def recommend_snn_distributed_strategy(model, world_size, prefer, batch_size, backend="inductor",
                                       zero_redundancy_optimizer_available=None, pipelining_available=None,
                                       fsdp2_available=None, tensor_parallel_available=None, *, rules=None):
    """The signature unusual calls of snnplan.recommend_snn_distributed_strategy are bound with."""
    return _snnplan._recommend(model, world_size, prefer, batch_size, backend, zero_redundancy_optimizer_available,
                               pipelining_available, fsdp2_available, tensor_parallel_available, rules)


def recommended_pipeline_microbatches(batch_size, num_stages):
    """The signature unusual calls of snnplan.recommended_pipeline_microbatches are bound with."""
    return _snnplan._microbatches(batch_size, num_stages)


_snnplan._init_drop_in(_types.SNNDistributedRecommendation, SNN_DISTRIBUTED_PREFERENCES,
                       recommend_snn_distributed_strategy, recommended_pipeline_microbatches)
recommend_snn_distributed_strategy = _snnplan.recommend_snn_distributed_strategy  # noqa: F811
recommended_pipeline_microbatches = _snnplan.recommended_pipeline_microbatches  # noqa: F811
