"""The reference's two functions and its module constants.

The public functions are the extension's (python/drop_in.cpp): they read a plain call's
arguments themselves, without a Python frame, which is what makes them faster than the Python
they replace. Any other call (missing, unknown or repeated arguments, too many) they hand to
the functions below, which have the reference's signatures, so that Python binds what it can
and raises its own errors ("got an unexpected keyword argument 'pipeline_available'", "missing
1 required positional argument: 'batch_size'") for the rest.

The four *_AVAILABLE constants are the package's (snnplan/__init__.py), probed from PyTorch as
the reference probes it (_torch_probe.py), but lazily: `import snnplan` imports no PyTorch. The
probe runs once, at the first read of a constant, the first call of availability(), or the first
recommendation with an availability argument left at None, which takes the package's constant of
that name at call time, as the reference reads its module's (so a launcher that sets
snnplan.FSDP2_AVAILABLE = False is heard). An explicit True/False argument always wins.
"""
import sys
import threading
import typing

from . import _snnplan, _torch_probe, _types

SNN_DISTRIBUTED_PREFERENCES = ("speed", "memory", "capacity")
# The package's constants in the order of the drop-in's arguments (and of TorchAvailability).
AVAILABILITY_CONSTANTS = ("ZERO_REDUNDANCY_OPTIMIZER_AVAILABLE", "PIPELINING_AVAILABLE", "FSDP2_AVAILABLE",
                          "TENSOR_PARALLEL_AVAILABLE")


class TorchAvailability(typing.NamedTuple):
    """What this process's PyTorch offers, probed as the reference probes it; the field names are
    the drop-in's arguments, so recommend_snn_distributed_strategy(..., **availability()._asdict())
    is the same call as leaving them at None."""
    zero_redundancy_optimizer_available: bool
    pipelining_available: bool
    fsdp2_available: bool
    tensor_parallel_available: bool


_probed = None
# Reentrant: importing PyTorch may run code that asks again (it then probes a second time).
_probe_lock = threading.RLock()


def availability():
    """The four probed values, as a TorchAvailability; PyTorch is probed at the first call only."""
    global _probed
    if _probed is None:
        with _probe_lock:
            if _probed is None:
                try:
                    _probed = TorchAvailability(*_torch_probe.probe())
                except Exception as error:  # not an ImportError: the reference's import fails so too
                    if hasattr(error, "add_note"):  # Python 3.11+
                        error.add_note("snnplan: raised while probing PyTorch as the reference does (its "
                                       "four imports); pass the four *_available arguments to decide "
                                       "without the probe")
                    raise
    return _probed


def _publish_constants():
    """Probes (once) and sets the package's four constants where they are not set yet: what a
    first read of one (the package's __getattr__) and the extension, for a None argument, call."""
    namespace = sys.modules[__package__].__dict__
    for name, value in zip(AVAILABILITY_CONSTANTS, availability()):
        namespace.setdefault(name, value)


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
                       recommend_snn_distributed_strategy, recommended_pipeline_microbatches,
                       sys.modules[__package__].__dict__, AVAILABILITY_CONSTANTS, _publish_constants)
recommend_snn_distributed_strategy = _snnplan.recommend_snn_distributed_strategy  # noqa: F811
recommended_pipeline_microbatches = _snnplan.recommended_pipeline_microbatches  # noqa: F811
