"""SpikingJelly's current planner, plan_training(), as a drop-in over the planning rules.

    planned = snnplan.plan_training(config, world_size=8, device_memory_bytes=80 * 1024**3)

Upstream (spikingjelly/activation_based/distributed/llm/planning.py) takes a TrainingConfig and
returns a new one made with dataclasses.replace: the config, its model and its transformer
replaced, the input untouched, the planned fields set as its _candidate() sets them. Here the
config is read duck-typed into the flat request of `snnplan plan-training --batch` (the
planning rules' inputs, rules/snn_llm_planning.yaml), the rules decide through RuleSet, and
the answer is written back the same way. A mapping is taken as that flat request itself and
gets the answer's dict.
"""
import collections.abc as _abc
import dataclasses as _dataclasses
import os as _os
import threading as _threading

from . import _snnplan

PLANNING_RULES = "snn_llm_planning.yaml"

# Where each request key is read from: the run (config), its model (config.model) or the
# transformer (config.model.transformer), as upstream reads them.
_RUN_KEYS = ("sequence_length", "micro_batch_size", "global_batch_size", "use_snn_memopt")
_MODEL_KEYS = ("time_steps", "vocab_size", "max_sequence_length", "position_embedding_type",
               "share_embeddings_and_output_weights")
_TRANSFORMER_KEYS = ("num_layers", "hidden_size", "num_attention_heads", "num_query_groups", "kv_channels",
                     "ffn_hidden_size", "gated_linear_unit", "normalization", "fp16", "bf16", "params_dtype",
                     "pipeline_dtype", "fp8")
# Upstream reads these with getattr(transformer, name, None): a transformer without one has None.
_OPTIONAL_TRANSFORMER_KEYS = ("kv_channels",)
_DTYPE_KEYS = ("params_dtype", "pipeline_dtype")
# The answer's fields upstream's _candidate() sets on the transformer (the rest of the answer
# -- data-parallel size, microbatches, the estimate -- it does not keep); use_snn_memopt is
# the run's.
_PLANNED_TRANSFORMER_FIELDS = ("tensor_model_parallel_size", "pipeline_model_parallel_size", "context_parallel_size",
                               "sequence_parallel", "expert_tensor_parallel_size", "pipeline_dtype",
                               "microbatch_group_size_per_vp_stage", "recompute_granularity", "recompute_method",
                               "recompute_num_layers", "recompute_modules")
_TORCH_PREFIX = "torch."

_default_rules = None
_default_lock = _threading.Lock()


def builtin_rules():
    """The built-in planning rules, made at the first call without rules= (so they record in
    $SNNPLAN_DECISION_LOG as it is then, as the other drop-ins' built-in rules do)."""
    global _default_rules
    if _default_rules is None:
        with _default_lock:
            if _default_rules is None:
                _default_rules = _snnplan.RuleSet.builtin(PLANNING_RULES)
    return _default_rules


def rule_set(rules):
    """rules= as given: None for the built-in planning rules, a RuleSet, or a path to load."""
    if rules is None:
        return builtin_rules()
    if isinstance(rules, _snnplan.RuleSet):
        return rules
    return _snnplan.RuleSet.from_file(_os.fspath(rules))


def _dtype_name(dtype):
    """A torch dtype (torch.bfloat16 prints as 'torch.bfloat16') or its name, as the rules name
    it: 'bfloat16'."""
    if dtype is None:
        return None
    text = dtype if isinstance(dtype, str) else str(dtype)
    return text[len(_TORCH_PREFIX):] if text.startswith(_TORCH_PREFIX) else text


def request(config, *, world_size=None, device_memory_bytes=None, objective="throughput", memory_fraction=0.9):
    """The flat request plan_training() decides: a mapping as it is (the arguments fill in the
    keys it lacks), a config read attribute by attribute."""
    arguments = dict(world_size=world_size, device_memory_bytes=device_memory_bytes, objective=objective,
                     memory_fraction=memory_fraction)
    if isinstance(config, _abc.Mapping):
        flat = dict(config)
        for key, value in arguments.items():
            if value is not None:
                flat.setdefault(key, value)
        return flat
    # None is no "default" to upstream, whose checks see the values as given: an objective that
    # is not one of its two strings (None, a number) is its ValueError, and a memory_fraction
    # that does not compare with 0 (None, a string) its TypeError. The rules read null as the
    # input's default and a number as a wrong type, so such an objective goes to them as its
    # repr (refused with upstream's message), and the fraction is compared here as upstream does.
    if not isinstance(objective, str):
        arguments["objective"] = repr(objective)
    if not isinstance(memory_fraction, (int, float)):
        0 < memory_fraction  # noqa: B015 -- raises upstream's TypeError for what does not compare
    model = config.model
    transformer = model.transformer
    flat = arguments
    flat.update((key, getattr(config, key)) for key in _RUN_KEYS)
    flat.update((key, getattr(model, key)) for key in _MODEL_KEYS)
    for key in _TRANSFORMER_KEYS:
        value = getattr(transformer, key, None) if key in _OPTIONAL_TRANSFORMER_KEYS else getattr(transformer, key)
        flat[key] = _dtype_name(value) if key in _DTYPE_KEYS else value
    return flat


def planned_config(config, answer):
    """Upstream's result: config with the answer's fields set, through dataclasses.replace at
    each level; pipeline_dtype as the object the config gave (a torch dtype stays one)."""
    transformer = config.model.transformer
    given_dtypes = {_dtype_name(getattr(transformer, key)): getattr(transformer, key)
                    for key in reversed(_DTYPE_KEYS)}  # a tie resolves to params_dtype, as upstream copies it
    fields = {name: answer[name] for name in _PLANNED_TRANSFORMER_FIELDS}
    fields["pipeline_dtype"] = given_dtypes.get(fields["pipeline_dtype"])
    planned = _dataclasses.replace(transformer, **fields)
    return _dataclasses.replace(config, model=_dataclasses.replace(config.model, transformer=planned),
                                use_snn_memopt=answer["use_snn_memopt"])


def plan_training(config, *, world_size=None, device_memory_bytes=None, objective="throughput", memory_fraction=0.9,
                  rules=None):
    """plan_training(config, *, world_size, device_memory_bytes, objective='throughput',
    memory_fraction=0.9, rules=None) -- SpikingJelly's call.

    config: upstream's TrainingConfig or any dataclass like it (config.model.transformer.*,
    config.model.vocab_size, ..., config.sequence_length, micro_batch_size, global_batch_size,
    use_snn_memopt; dtypes as torch dtypes or their names). Returns a new config made with
    dataclasses.replace with the planned layout and recompute set as upstream sets them; the
    input is not changed. Raises ValueError with upstream's text when the arguments are invalid
    or nothing fits; AttributeError (Python's) for a config without a fact upstream reads.

    config may also be a mapping: the flat request of a `snnplan plan-training --batch` line
    (the keyword arguments fill in the keys it lacks); the answer is then that line's answer,
    as a dict.

    rules: a RuleSet or a path of planning rules (default: the built-in
    rules/snn_llm_planning.yaml). Decisions are recorded as the rules' are (decision_log=, or
    $SNNPLAN_DECISION_LOG for the built-in rules and a path). TypeError for an input of the
    wrong type or missing (world_size=None with a config).
    """
    flat = request(config, world_size=world_size, device_memory_bytes=device_memory_bytes, objective=objective,
                   memory_fraction=memory_fraction)
    answer = rule_set(rules).evaluate(**flat)
    return answer if isinstance(config, _abc.Mapping) else planned_config(config, answer)
