# Type stubs for snnplan.torch (python/snnplan/torch.py): one decision for every rank of a
# torch.distributed job. `group` is a torch.distributed ProcessGroup (or None: the default
# group), typed Any so that checking a caller needs no PyTorch stubs. `timeout` must be None:
# torch's object collectives take no per-call timeout (the process group's applies).
import os
from typing import Any, Dict, Literal, Mapping, Optional, Sequence, Tuple, TypeVar, Union, overload

from . import DistributedFeatureSet, RuleSet, SNNDistributedPlan, SNNDistributedRecommendation, SNNDistributedTopology

__all__ = ("recommend", "plan", "plan_training", "RankDisagreement", "RankExchangeFailed")

class RankDisagreement(RuntimeError):
    kind: str
    groups: Tuple[Tuple[Tuple[int, ...], Any], ...]
    names: Tuple[str, ...]
    def __init__(self, message: str, kind: str, groups: Sequence[Tuple[Tuple[int, ...], Any]],
                 names: Sequence[str] = ...) -> None: ...

class RankExchangeFailed(RuntimeError):
    operation: str
    rank: int
    def __init__(self, message: str, operation: str, rank: int) -> None: ...

def recommend(model: str, world_size: int, prefer: str, batch_size: int, backend: str = ...,
              zero_redundancy_optimizer_available: Optional[bool] = ..., pipelining_available: Optional[bool] = ...,
              fsdp2_available: Optional[bool] = ..., tensor_parallel_available: Optional[bool] = ..., *,
              rules: Optional[RuleSet] = ..., source: Literal["all", "rank0"] = ..., group: Any = ...,
              timeout: None = ...) -> SNNDistributedRecommendation: ...
# snnplan.plan()'s two forms: SpikingJelly's own call ...
@overload
def plan(*, analysis: Any, objective: str, topology: Union[Mapping[str, int], SNNDistributedTopology],
         backend: str, batch_size: int, model_family: Optional[str] = ..., mode: Optional[str] = ...,
         features: Optional[DistributedFeatureSet] = ..., rules: Optional[RuleSet] = ...,
         source: Literal["all", "rank0"] = ..., group: Any = ..., timeout: None = ...) -> SNNDistributedPlan: ...
# ... and the keys of a `snnplan plan --batch` line.
@overload
def plan(objective: str, topology: Union[str, Mapping[str, int]], batch_size: int, *, world_size: Optional[int] = ...,
         backend: str = ..., model_family: str = ..., mode: Optional[str] = ..., tp_roots: Optional[Sequence[str]] = ...,
         tp_candidates: bool = ..., features: Union[None, Mapping[str, bool], DistributedFeatureSet] = ...,
         notes: Optional[Sequence[str]] = ..., rules: Optional[RuleSet] = ..., source: Literal["all", "rank0"] = ...,
         group: Any = ..., timeout: None = ...) -> SNNDistributedPlan: ...
# snnplan.plan_training()'s two forms: a flat request ...
_Config = TypeVar("_Config")  # a TrainingConfig: the result is of its type
# A mapping matches both: mypy calls that an overlap, and the first (the dict) wins, as at run time.
@overload
def plan_training(config: Mapping[str, Any], *, world_size: Optional[int] = ...,  # type: ignore[misc]
                  device_memory_bytes: Optional[int] = ..., objective: str = ..., memory_fraction: float = ...,
                  rules: Union[None, RuleSet, str, "os.PathLike[str]"] = ..., source: Literal["all", "rank0"] = ...,
                  group: Any = ..., timeout: None = ...) -> Dict[str, Any]: ...
# ... and upstream's TrainingConfig.
@overload
def plan_training(config: _Config, *, world_size: int, device_memory_bytes: int,
                  objective: Literal["throughput", "memory"] = ..., memory_fraction: float = ...,
                  rules: Union[None, RuleSet, str, "os.PathLike[str]"] = ..., source: Literal["all", "rank0"] = ...,
                  group: Any = ..., timeout: None = ...) -> _Config: ...
