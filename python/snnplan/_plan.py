"""The plan part of snnplan: upstream's classes and call, so code written against SpikingJelly's
`spikingjelly.activation_based.distributed` (at the seed's commit) runs unchanged.

    plan = snnplan.plan(analysis=analysis, objective="speed", topology={"dp": 2},
                        backend="inductor", batch_size=8,
                        features=snnplan.DistributedFeatureSet(allow_zero_optimizer=False))

plan() takes upstream's keyword-only call (`analysis` is any object with `notes`,
`tensor_parallel_candidate_names` and `tensor_parallel_roots`, SpikingJelly's own
SNNDistributedAnalysis included; `topology` a mapping or an SNNDistributedTopology) and also
the keys of a `snnplan plan --batch` line (plan(**json.loads(line))). Both are one request to
the C++ plan (snnplan._snnplan), which checks and decides in upstream's order with upstream's
texts; the exceptions are upstream's classes.
"""
import dataclasses as _dataclasses
from types import MappingProxyType as _MappingProxyType
import collections.abc as _abc
from typing import Optional as _Optional, Tuple as _Tuple

# The extension is imported where it is used: it looks these classes up when it loads.


@_dataclasses.dataclass(frozen=True)
class SNNDistributedTopology:
    """Upstream's SNNDistributedTopology: world_size and dims (a read-only mapping in the order
    given), checked on construction with upstream's TypeError/ValueError texts."""
    world_size: int
    dims: _abc.Mapping[str, int]

    def __post_init__(self):
        dims = _MappingProxyType(dict(self.dims))
        object.__setattr__(self, "dims", dims)
        # The checks are the C++ Topology's (upstream's order and texts); it also orders the names.
        from . import _snnplan
        object.__setattr__(self, "_ordered_dim_names", _snnplan.topology_fields(self.world_size, dims))

    @property
    def ordered_dim_names(self) -> _Tuple[str, ...]:
        """dp, tp, pp, vpp first (those present), then the others in the order given."""
        # Set by __post_init__ outside the dataclass fields (so fields(), asdict() and == see
        # upstream's two), hence unknown to type checkers.
        return self._ordered_dim_names  # type: ignore[attr-defined]

    @property
    def mesh_shape(self) -> _Tuple[int, ...]:
        return tuple(int(self.dims[name]) for name in self.ordered_dim_names)

    @classmethod
    def from_mapping(cls, dims: _abc.Mapping[str, int], *, world_size: _Optional[int] = None) -> "SNNDistributedTopology":
        """Sizes (and world_size) may be ints or whole-number floats; world_size defaults to
        their product."""
        from . import _snnplan
        world, checked = _snnplan.topology_from_mapping(dims, world_size)
        return cls(world_size=world, dims=checked)

    def __str__(self):
        return ",".join(f"{name}={size}" for name, size in self.dims.items())

    def __reduce__(self):  # a mappingproxy does not pickle; the dict it shows does
        return (type(self), (self.world_size, dict(self.dims)))


@_dataclasses.dataclass(frozen=True)
class DistributedFeatureSet:
    """Upstream's DistributedFeatureSet at the seed's commit: which optional features a plan may use."""
    allow_experimental_conv_tp: bool = False
    allow_experimental_spikformer_tp: bool = False
    allow_pipeline: bool = True
    allow_zero_optimizer: bool = True


@_dataclasses.dataclass(frozen=True)
class SNNDistributedPlan:
    """Upstream's SNNDistributedPlan, field for field."""
    mode: str
    objective: str
    topology: SNNDistributedTopology
    model_family: str
    backend: str
    batch_size: int
    optimizer_strategy: str
    memopt_level: int
    rationale: _Tuple[str, ...]
    notes: _Tuple[str, ...]
    tensor_parallel_roots: _Optional[_Tuple[str, ...]] = None
    mesh_shape: _Optional[_Tuple[int, ...]] = None
    tp_mesh_dim: int = 0
    dp_mesh_dim: _Optional[int] = None
    pp_microbatches: _Optional[int] = None
    pp_schedule: str = "1f1b"
    pp_virtual_stages: int = 1
    pp_layout: _Optional[_Tuple[int, ...]] = None
    pp_delay_wgrad: bool = False
    experimental_features: DistributedFeatureSet = DistributedFeatureSet()


# Upstream raises NotImplementedError for a pp override; the plan rules word that refusal and
# the C++ side reports every refusal of the rules alike, so it is recognised by its text.
_PIPELINE_REFUSAL = "Pipeline parallelism ('pp') is not supported"
_MISSING = object()


def plan(*args, analysis=_MISSING, **kwargs):
    """plan(*, analysis, objective, topology, backend, batch_size, model_family=None, mode=None,
    features=None, rules=None) -- upstream's call -- or plan(objective, topology, batch_size, *,
    world_size=None, backend='inductor', model_family='generic', mode=None, tp_roots=None,
    tp_candidates=True, features=None, notes=None, rules=None) -- a `snnplan plan --batch` line.

    Returns a frozen SNNDistributedPlan. Raises upstream's exceptions with upstream's texts:
    ValueError (objective, mode, topology values, fsdp2_tp without dp and tp, tensor parallelism
    without candidates), TypeError (topology types, an undeclared feature flag),
    NotImplementedError (a pp override). rules: a RuleSet of plan rules (default: the built-in
    rules/snn_plan.yaml).
    """
    from . import _snnplan
    if analysis is _MISSING:
        args_and_request = (args, kwargs)
    else:
        if args:
            raise TypeError(f"plan() takes 0 positional arguments but {len(args)} were given")
        args_and_request = ((), _upstream_request(analysis, **kwargs))
    try:
        return _snnplan.plan(*args_and_request[0], **args_and_request[1])
    except ValueError as err:
        if str(err).startswith(_PIPELINE_REFUSAL):
            raise NotImplementedError(str(err)) from None
        raise


def _upstream_request(analysis, *, objective, topology, backend, batch_size, model_family=None, mode=None,
                      features=None, rules=None):
    """Upstream's arguments as a `plan --batch` request (docs/plan.md)."""
    roots = analysis.tensor_parallel_roots
    request = dict(objective=objective, backend=backend, batch_size=batch_size, model_family=model_family,
                   mode=mode, features=features, rules=rules, notes=list(analysis.notes),
                   tp_candidates=bool(analysis.tensor_parallel_candidate_names),
                   tp_roots=None if roots is None else list(roots))
    if isinstance(topology, SNNDistributedTopology):  # built and checked already
        request.update(topology=dict(topology.dims), world_size=topology.world_size)
    else:  # checked after the objective, as upstream's plan() does
        request["topology"] = topology
    return request


for _cls in (SNNDistributedTopology, DistributedFeatureSet, SNNDistributedPlan):
    _cls.__module__ = "snnplan"
del _cls
