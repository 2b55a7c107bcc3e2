# Type stubs for the package snnplan (PEP 561: py.typed beside them). ctest checks them with
# stubtest against the built module and with `mypy --strict` on python/tests/typed_example.py,
# which uses every public name; change the three together.
import os
from dataclasses import dataclass
from typing import (Any, Dict, Iterable, List, Literal, Mapping, NamedTuple, Optional, Sequence, Tuple, TypeVar, Union,
                    overload)

__version__: str
RULE_FORMAT_VERSION: int

SNN_DISTRIBUTED_PREFERENCES: Tuple[str, str, str]
ZERO_REDUNDANCY_OPTIMIZER_AVAILABLE: bool
PIPELINING_AVAILABLE: bool
FSDP2_AVAILABLE: bool
TENSOR_PARALLEL_AVAILABLE: bool

__all__ = ("recommend_snn_distributed_strategy", "recommended_pipeline_microbatches", "plan", "plan_training",
           "run_tests", "RuleSet",
           "DecisionLog",
           "RuleLoadError", "SNNDistributedRecommendation", "SNNDistributedPlan", "SNNDistributedTopology",
           "DistributedFeatureSet", "Diagnostic", "InputInfo", "SNN_DISTRIBUTED_PREFERENCES", "availability",
           "TorchAvailability",
           "ZERO_REDUNDANCY_OPTIMIZER_AVAILABLE", "PIPELINING_AVAILABLE", "FSDP2_AVAILABLE", "TENSOR_PARALLEL_AVAILABLE")

class TorchAvailability(NamedTuple):
    zero_redundancy_optimizer_available: bool
    pipelining_available: bool
    fsdp2_available: bool
    tensor_parallel_available: bool

def availability() -> TorchAvailability: ...

@dataclass(frozen=True)
class SNNDistributedRecommendation:
    prefer: str
    model: str
    world_size: int
    mode: str
    optimizer_sharding: str = ...
    memopt_level: int = ...
    mesh_shape: Optional[Tuple[int, ...]] = ...
    tp_mesh_dim: int = ...
    dp_mesh_dim: Optional[int] = ...
    pp_microbatches: Optional[int] = ...
    pp_memopt_stage_budget_ratio: float = ...
    pp_schedule: str = ...
    pp_virtual_stages: int = ...
    pp_layout: Optional[Tuple[int, ...]] = ...
    pp_delay_wgrad: bool = ...
    rationale: Tuple[str, ...] = ...

@dataclass(frozen=True)
class SNNDistributedTopology:
    world_size: int
    dims: Mapping[str, int]
    def __post_init__(self) -> None: ...
    @property
    def ordered_dim_names(self) -> Tuple[str, ...]: ...
    @property
    def mesh_shape(self) -> Tuple[int, ...]: ...
    @classmethod
    def from_mapping(cls, dims: Mapping[str, Union[int, float]], *,
                     world_size: Optional[Union[int, float]] = ...) -> SNNDistributedTopology: ...

@dataclass(frozen=True)
class DistributedFeatureSet:
    allow_experimental_conv_tp: bool = ...
    allow_experimental_spikformer_tp: bool = ...
    allow_pipeline: bool = ...
    allow_zero_optimizer: bool = ...

@dataclass(frozen=True)
class SNNDistributedPlan:
    mode: str
    objective: str
    topology: SNNDistributedTopology
    model_family: str
    backend: str
    batch_size: int
    optimizer_strategy: str
    memopt_level: int
    rationale: Tuple[str, ...]
    notes: Tuple[str, ...]
    tensor_parallel_roots: Optional[Tuple[str, ...]] = ...
    mesh_shape: Optional[Tuple[int, ...]] = ...
    tp_mesh_dim: int = ...
    dp_mesh_dim: Optional[int] = ...
    pp_microbatches: Optional[int] = ...
    pp_schedule: str = ...
    pp_virtual_stages: int = ...
    pp_layout: Optional[Tuple[int, ...]] = ...
    pp_delay_wgrad: bool = ...
    experimental_features: DistributedFeatureSet = ...

@dataclass(frozen=True)
class Diagnostic:
    severity: str
    file: str
    line: int
    column: int
    code: str
    message: str

@dataclass(frozen=True)
class InputInfo:
    name: str
    type: str
    required: bool

class RuleLoadError(ValueError):
    diagnostics: List[Diagnostic]
    file: str
    line: int
    column: int
    message: str
    def __init__(self, text: str, diagnostics: Iterable[Diagnostic] = ...) -> None: ...

_Path = Union[str, "os.PathLike[str]"]
# A decision log: a DecisionLog, a path to open one at, or (decision_log=) None for
# $SNNPLAN_DECISION_LOG and False for none.
_Log = Union["DecisionLog", _Path]

class DecisionLog:
    def __init__(self, path: _Path, *, labels: Optional[Mapping[str, str]] = ...,
                 drop_inputs: Optional[Iterable[str]] = ..., mask_inputs: Optional[Iterable[str]] = ...) -> None: ...
    @property
    def path(self) -> str: ...
    @property
    def failed_writes(self) -> int: ...

class RuleSet:
    @staticmethod
    def from_file(
        path: _Path,
        *,
        rule_roots: Optional[Iterable[_Path]] = ...,
        decision_log: Union[None, Literal[False], _Log] = ...,
    ) -> RuleSet: ...
    @staticmethod
    def from_string(text: str, name: str = ..., *, decision_log: Union[None, Literal[False], _Log] = ...) -> RuleSet: ...
    @staticmethod
    def builtin(name: Optional[str] = ..., *, decision_log: Union[None, Literal[False], _Log] = ...) -> RuleSet: ...
    @staticmethod
    def builtin_plan(*, decision_log: Union[None, Literal[False], _Log] = ...) -> RuleSet: ...
    def evaluate(self, /, **inputs: Any) -> Dict[str, Any]: ...
    def decide(self, /, **inputs: Any) -> Dict[str, Any]: ...
    def with_decision_log(self, log: _Log, *, labels: Optional[Mapping[str, str]] = ...,
                          drop_inputs: Optional[Iterable[str]] = ...,
                          mask_inputs: Optional[Iterable[str]] = ...) -> RuleSet: ...
    def with_shadow(self, candidate: RuleSet, log: _Log, *, labels: Optional[Mapping[str, str]] = ...,
                    drop_inputs: Optional[Iterable[str]] = ..., mask_inputs: Optional[Iterable[str]] = ...) -> RuleSet: ...
    @property
    def observed(self) -> bool: ...
    @property
    def file_name(self) -> str: ...
    @property
    def sha256(self) -> str: ...
    @property
    def inputs(self) -> List[InputInfo]: ...
    @property
    def warnings(self) -> List[Diagnostic]: ...

def recommend_snn_distributed_strategy(model: str, world_size: int, prefer: str, batch_size: int,
                                       backend: str = ..., zero_redundancy_optimizer_available: Optional[bool] = ...,
                                       pipelining_available: Optional[bool] = ..., fsdp2_available: Optional[bool] = ...,
                                       tensor_parallel_available: Optional[bool] = ..., *,
                                       rules: Optional[RuleSet] = ...) -> SNNDistributedRecommendation: ...
def recommended_pipeline_microbatches(batch_size: int, num_stages: int) -> int: ...
# SpikingJelly's own call (analysis: any object with notes, tensor_parallel_candidate_names and
# tensor_parallel_roots) ...
@overload
def plan(*, analysis: Any, objective: str, topology: Union[Mapping[str, int], SNNDistributedTopology],
         backend: str, batch_size: int, model_family: Optional[str] = ..., mode: Optional[str] = ...,
         features: Optional[DistributedFeatureSet] = ..., rules: Optional[RuleSet] = ...) -> SNNDistributedPlan: ...
# ... and the keys of a `snnplan plan --batch` line.
@overload
def plan(objective: str, topology: Union[str, Mapping[str, int]], batch_size: int, *, world_size: Optional[int] = ...,
         backend: str = ..., model_family: str = ..., mode: Optional[str] = ..., tp_roots: Optional[Sequence[str]] = ...,
         tp_candidates: bool = ..., features: Union[None, Mapping[str, bool], DistributedFeatureSet] = ...,
         notes: Optional[Sequence[str]] = ..., rules: Optional[RuleSet] = ...) -> SNNDistributedPlan: ...
# Rule tests (docs/testing.md): the report `snnplan test --format json` writes, as a dict.
def run_tests(rules: Optional[RuleSet], tests: Union[_Path, Iterable[_Path]], *, mutate: bool = ...) -> Dict[str, Any]: ...
# SpikingJelly's current planner (llm/planning.py): a flat `snnplan plan-training --batch`
# request (the arguments fill in the keys it lacks) gets that line's answer as a dict ...
_Config = TypeVar("_Config")  # a TrainingConfig: the result is of its type
# A mapping matches both: mypy calls that an overlap, and the first (the dict) wins, as at run time.
@overload
def plan_training(config: Mapping[str, Any], *, world_size: Optional[int] = ...,  # type: ignore[misc]
                  device_memory_bytes: Optional[int] = ..., objective: str = ..., memory_fraction: float = ...,
                  rules: Union[None, RuleSet, _Path] = ...) -> Dict[str, Any]: ...
# ... and upstream's TrainingConfig (any dataclass like it) the planned copy, of its own type.
@overload
def plan_training(config: _Config, *, world_size: int, device_memory_bytes: int,
                  objective: Literal["throughput", "memory"] = ..., memory_fraction: float = ...,
                  rules: Union[None, RuleSet, _Path] = ...) -> _Config: ...
