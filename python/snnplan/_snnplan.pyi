# The compiled extension (python/snnplan_module.cpp, python/drop_in.cpp). Its public names are
# re-exported by the package (see __init__.pyi); the underscored ones are the package's own.
import os
from typing import Any, Callable, Dict, Iterable, List, Mapping, Optional, Sequence, Tuple, Union

from . import DistributedFeatureSet, SNNDistributedPlan, SNNDistributedRecommendation
from . import DecisionLog as DecisionLog
from . import RuleSet as RuleSet

__version__: str
RULE_FORMAT_VERSION: int
_RECOMMEND_INPUTS: Tuple[str, ...]
_PROBED_INPUTS: Tuple[str, ...]
_PLAN_KEYS: Tuple[str, ...]

def recommend_snn_distributed_strategy(model: str, world_size: int, prefer: str, batch_size: int,
                                       backend: str = ..., zero_redundancy_optimizer_available: Optional[bool] = ...,
                                       pipelining_available: Optional[bool] = ..., fsdp2_available: Optional[bool] = ...,
                                       tensor_parallel_available: Optional[bool] = ..., *,
                                       rules: Optional[RuleSet] = ...) -> SNNDistributedRecommendation: ...
def recommended_pipeline_microbatches(batch_size: int, num_stages: int) -> int: ...
def plan(objective: str, topology: Union[str, Mapping[str, int]], batch_size: int, *, world_size: Optional[int] = ...,
         backend: str = ..., model_family: str = ..., mode: Optional[str] = ..., tp_roots: Optional[Sequence[str]] = ...,
         tp_candidates: bool = ..., features: Union[None, Mapping[str, bool], DistributedFeatureSet] = ...,
         notes: Optional[Sequence[str]] = ..., rules: Optional[RuleSet] = ...) -> SNNDistributedPlan: ...

def run_tests(rules: Optional[RuleSet], tests: Union[str, "os.PathLike[str]", Iterable[Union[str, "os.PathLike[str]"]]], *,
              mutate: bool = ...) -> Dict[str, Any]: ...

def topology_fields(world_size: Any, dims: Mapping[str, Any]) -> Tuple[str, ...]: ...
def topology_from_mapping(dims: Any, world_size: Any = ...) -> Tuple[int, Dict[str, int]]: ...

def _recommend(*args: Any) -> SNNDistributedRecommendation: ...
def _microbatches(*args: Any) -> int: ...
def _init_drop_in(record_class: type, preferences: Tuple[str, ...], recommend_signature: Callable[..., Any],
                  microbatches_signature: Callable[..., Any], constants: Dict[str, Any],
                  constant_names: Tuple[str, ...], publish_constants: Callable[[], None]) -> None: ...
def _run_cli(argv: List[str]) -> int: ...
