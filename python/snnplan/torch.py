"""One decision for every rank of a torch.distributed job.

Every rank of a training job runs the launcher. When the rule files differ between nodes (an
edit rolled out halfway, a stale cache, another SNNPLAN_RULES), the ranks would choose different
strategies and the job would hang in its first collective. recommend(), plan() and
plan_training() here are snnplan's three calls made once for the whole process group:

    import snnplan.torch
    rec = snnplan.torch.recommend("spikformer", 8, "memory", 64)   # after init_process_group()
    planned = snnplan.torch.plan("memory", "dp=4,tp=2", 64)        # both forms of snnplan.plan()
    config = snnplan.torch.plan_training(config, world_size=8, device_memory_bytes=80 * 2**30)

source="all" (the default): every rank decides locally, then the ranks exchange a digest
(all_gather_object over `group`): the rule set's SHA-256 and file name, the inputs (availability
arguments left at None resolved to the package's constants, snnplan.FSDP2_AVAILABLE, ..., which
the call reads too, so ranks with different PyTorch builds are caught) and the answer (its
fields, or the exception's type and message). When they agree every rank returns its answer,
the same everywhere (or raises the exception the local call raised, the same everywhere);
otherwise every rank raises the same RankDisagreement, which names the ranks and what differs:
the rule set first, then a failed PyTorch probe, then the inputs, then the answer.
source="rank0": the group's rank 0 decides and broadcasts (broadcast_object_list); the others
return its answer or raise the exception it got (rebuilt: same type and message).

Outside an initialised process group (torch.distributed never imported, not available, or not
initialised) both return the local answer. This module imports no PyTorch: a process group can
only have been initialised through torch.distributed, so it is looked up in sys.modules.

A collective that fails (a rank died: gloo raises on a closed connection or at the group's
timeout) raises RankExchangeFailed, chained from torch's error. torch.distributed's object
collectives take no per-call timeout (torch 1.13 to 2.x), so the process group's applies:
init_process_group(timeout=...) or new_group(timeout=...) for a group of its own; `timeout`
must be left at None. With NCCL the objects travel on the current CUDA device
(torch.cuda.set_device first), as torch's object collectives require.
"""
import collections.abc as _abc
import dataclasses as _dataclasses
import inspect as _inspect
import sys as _sys

import snnplan as _snnplan
from . import _drop_in, _training
from . import _snnplan as _native

__all__ = ("recommend", "plan", "plan_training", "RankDisagreement", "RankExchangeFailed")

# Every text this module shows, in one place.
_TEXTS = {
    "rules": "snnplan.torch: the ranks would decide with different rule sets: {groups}",
    "rules_group": "{ranks} {use} {files} {revision}",
    "builtin": "built-in {file}",
    "revision": "sha256:{sha256}",
    "revision_unknown": "of snnplan {version} (no sha256: not a rule set)",
    "probe": ("snnplan.torch: probing PyTorch (snnplan.availability()) for the availability arguments left at "
              "None failed on some ranks: {groups}"),
    "probe_failed": "{ranks}: {error}",
    "probe_fine": "{ranks}: no error",
    "inputs": "snnplan.torch: the ranks were given different inputs ({names}): {groups}",
    "inputs_group": "{ranks} {give} {values}",
    "answer": "snnplan.torch: the ranks got different answers from the same rules and inputs ({names}): {groups}",
    "answer_group": "{ranks} {get} {values}",
    "answer_raised": "{ranks} {raise_} {error}",
    "answer_returned": "{ranks} {get} an answer ({values})",
    "exception": "the exception",
    "unreadable": "<the arguments could not be read>",
    "separator": " ; ",
    "exchange": ("snnplan.torch: the decision exchange over the process group failed on rank {rank} "
                 "({operation}, source={source!r}): {error} -- a rank may have died or not reached the exchange "
                 "(the process group's timeout applies)"),
    "from_rank0": "snnplan.torch: raised on rank {rank}, which decided for the group (source='rank0')",
    "rank0_unknown": "snnplan.torch: rank {rank}, which decided for the group (source='rank0'), raised {error}",
    "source": "snnplan.torch: source must be 'all' or 'rank0', got {source!r}",
    "timeout": ("snnplan.torch: timeout={timeout!r} is not supported: torch.distributed's object collectives "
                "(all_gather_object, broadcast_object_list) take no per-call timeout, the process group's applies "
                "(init_process_group(timeout=...), or new_group(timeout=...) for a group of its own)"),
    "not_member": "snnplan.torch: this process (rank {rank}) is not a member of the group given",
}


class RankDisagreement(RuntimeError):
    """The ranks of the process group would not decide alike; raised on every rank, same text.

    kind: "rules", "probe", "inputs" or "answer" (the first of these that differs).
    groups: ((ranks, value), ...), ranks (global, ascending) sharing a value, ordered by their
    first rank. value: for "rules" (file names, sha256 or None), for "probe" the error text or
    None, for "inputs"/"answer" a dict of the differing names to their text (an answer that
    raised: {"exception": "ValueError: ..."}).
    names: the differing input or field names ("inputs", "answer"); () otherwise.
    """

    def __init__(self, message, kind, groups, names=()):
        super().__init__(message)
        self.kind = kind
        self.groups = tuple(groups)
        self.names = tuple(names)


class RankExchangeFailed(RuntimeError):
    """The collective exchanging the decision failed (raised from torch's error).

    operation: "all_gather_object" or "broadcast_object_list"; rank: this process's global rank."""

    def __init__(self, message, operation, rank):
        super().__init__(message)
        self.operation = operation
        self.rank = rank


# The inputs of a recommend request and the probed availabilities among them, in the order of
# recommend()'s arguments: the library's table of them.
_RECOMMEND_NAMES = _native._RECOMMEND_INPUTS
_FLAGS = _native._PROBED_INPUTS
_SOURCES = ("all", "rank0")
_MISSING = object()


def recommend(model, world_size, prefer, batch_size, backend="inductor", zero_redundancy_optimizer_available=None,
              pipelining_available=None, fsdp2_available=None, tensor_parallel_available=None, *, rules=None,
              source="all", group=None, timeout=None):
    """snnplan.recommend_snn_distributed_strategy(...) decided once for the process group (see
    the module's text); outside one, that call's answer."""
    flags = (zero_redundancy_optimizer_available, pipelining_available, fsdp2_available, tensor_parallel_available)
    arguments = (model, world_size, prefer, batch_size, backend) + flags

    def local():
        return _snnplan.recommend_snn_distributed_strategy(*arguments, rules=rules)

    def describe():
        inputs = [(name, _text(value)) for name, value in zip(_RECOMMEND_NAMES, arguments)]
        probe_error = None
        if any(flag is None for flag in flags):
            # What the call reads for a None: the package's constant (probed at its first read).
            try:
                probed = [getattr(_snnplan, constant) for constant in _drop_in.AVAILABILITY_CONSTANTS]
            except Exception as error:  # the probe's own error; the local call raised it too
                probe_error = _error_text(error)
            else:
                offset = len(arguments) - len(flags)
                for index, flag in enumerate(flags):
                    if flag is None:
                        inputs[offset + index] = (_FLAGS[index], _text(probed[index]))
        return _rules_identity(rules, _snnplan.RuleSet.builtin), tuple(inputs), probe_error

    return _decide(local, describe, source, group, timeout)


def _batch_form(objective, topology, batch_size, *, world_size=None, backend="inductor", model_family="generic",
                mode=None, tp_roots=None, tp_candidates=True, features=None, notes=None):
    """snnplan.plan()'s `plan --batch` form, to name the arguments of a call."""


def _upstream_form(*, analysis, objective, topology, backend, batch_size, model_family=None, mode=None,
                   features=None):
    """snnplan.plan()'s upstream form, to name the arguments of a call."""


def plan(*args, rules=None, source="all", group=None, timeout=None, **kwargs):
    """snnplan.plan(...) (either of its forms) decided once for the process group (see the
    module's text); outside one, that call's answer. rules: a RuleSet of plan rules."""

    def local():
        return _snnplan.plan(*args, rules=rules, **kwargs)

    def describe():
        return _rules_identity(rules, _snnplan.RuleSet.builtin_plan), _plan_inputs(args, kwargs), None

    return _decide(local, describe, source, group, timeout)


def plan_training(config, *, world_size=None, device_memory_bytes=None, objective="throughput", memory_fraction=0.9,
                  rules=None, source="all", group=None, timeout=None):
    """snnplan.plan_training(...) decided once for the process group (see the module's text);
    outside one, that call's answer. The ranks compare the flat request read from the config
    (dtypes by name) and rules= loaded (a path: the file's sha256)."""
    arguments = dict(world_size=world_size, device_memory_bytes=device_memory_bytes, objective=objective,
                     memory_fraction=memory_fraction)
    loaded = []  # rules= as a RuleSet, once the local call has made it (a path is loaded once)

    def local():
        loaded.append(_training.rule_set(rules))
        return _snnplan.plan_training(config, rules=loaded[0], **arguments)

    def describe():
        identity = _rules_identity(rules if rules is None or not loaded else loaded[0],
                                   _training.builtin_rules)
        flat = _training.request(config, **arguments)
        return identity, tuple((name, _text(value)) for name, value in flat.items()), None

    return _decide(local, describe, source, group, timeout)


def _plan_inputs(args, kwargs):
    """The arguments as (name, text) pairs, defaults filled in; the analysis as what plan()
    reads of it. A call that does not bind (the local call raised TypeError): as given."""
    form = _upstream_form if "analysis" in kwargs else _batch_form
    try:
        bound = _inspect.signature(form).bind(*args, **kwargs)
    except TypeError:
        return (tuple((f"argument {index + 1}", _text(value)) for index, value in enumerate(args))
                + tuple((name, _text(kwargs[name])) for name in sorted(kwargs)))
    bound.apply_defaults()
    inputs = []
    for name, value in bound.arguments.items():
        if name == "analysis":
            for attribute in ("notes", "tensor_parallel_candidate_names", "tensor_parallel_roots"):
                read = getattr(value, attribute, _MISSING)
                if attribute == "tensor_parallel_candidate_names" and read is not _MISSING:
                    read = bool(read)  # all plan() reads of it
                inputs.append((f"analysis.{attribute}", "<missing>" if read is _MISSING else _text(read)))
        else:
            inputs.append((name, _text(value)))
    return tuple(inputs)


def _decide(local, describe, source, group, timeout):
    if timeout is not None:
        raise ValueError(_TEXTS["timeout"].format(timeout=timeout))
    if source not in _SOURCES:
        raise ValueError(_TEXTS["source"].format(source=source))
    dist = _process_group_module()
    if dist is None:
        return local()
    rank = dist.get_rank()
    if dist.get_rank(group) < 0:
        raise ValueError(_TEXTS["not_member"].format(rank=rank))
    if source == "rank0":
        return _from_rank0(dist, local, group, rank)

    answer = error = None
    try:
        answer = local()
    except Exception as raised:
        error = raised
    try:
        rules, inputs, probe_error = describe()
    except Exception as unreadable:  # still take part in the exchange, or the others would wait
        rules, inputs, probe_error = ((_TEXTS["unreadable"],), None, _snnplan.__version__), (
            (_TEXTS["unreadable"], _error_text(unreadable)),), None
    digest = {"rank": rank, "rules": rules, "probe": probe_error, "inputs": inputs,
              "answer": ("raised", _error_text(error)) if error is not None else ("ok", _fields(answer))}
    gathered = [None] * dist.get_world_size(group)
    _exchange(dist.all_gather_object, (gathered, digest), group, rank, "all")
    disagreement = _disagreement(gathered)
    if disagreement is not None:
        raise disagreement
    if error is not None:
        raise error
    return answer


def _from_rank0(dist, local, group, rank):
    source_rank = _global_rank(dist, group, 0)
    box = [None]
    error = None
    if rank == source_rank:
        try:
            answer = local()
            box[0] = ("ok", answer)
        except Exception as raised:
            error = raised
            box[0] = ("raised", _exception_payload(raised))
    _exchange(dist.broadcast_object_list, (box,), group, rank, "rank0", src=source_rank)
    if rank == source_rank:
        if error is not None:
            raise error
        return answer
    kind, value = box[0]
    if kind == "ok":
        return value
    raise _rebuilt_exception(value, source_rank)


def _process_group_module():
    """torch.distributed when this process has an initialised default process group, else None."""
    dist = _sys.modules.get("torch.distributed")
    if dist is None:
        return None
    is_available = getattr(dist, "is_available", None)
    is_initialized = getattr(dist, "is_initialized", None)
    if not callable(is_available) or not callable(is_initialized):  # not PyTorch's (a stand-in)
        return None
    if not is_available() or not is_initialized():
        return None
    return dist


def _global_rank(dist, group, group_rank):
    if group is None or group is getattr(getattr(dist, "group", None), "WORLD", None):
        return group_rank
    to_global = getattr(dist, "get_global_rank", None) or dist.distributed_c10d._get_global_rank  # torch < 2.0
    return to_global(group, group_rank)


def _exchange(operation, args, group, rank, source, **kwargs):
    try:
        operation(*args, group=group, **kwargs)
    except Exception as error:
        message = _TEXTS["exchange"].format(rank=rank, operation=operation.__name__, source=source,
                                            error=_error_text(error))
        raise RankExchangeFailed(message, operation.__name__, rank) from error


# --- digests -------------------------------------------------------------------------------

def _text(value):
    try:
        return repr(value)
    except Exception as error:
        return f"<{type(value).__qualname__} whose repr raised {_error_text(error)}>"


def _type_name(error):
    cls = type(error)
    return cls.__qualname__ if cls.__module__ == "builtins" else f"{cls.__module__}.{cls.__qualname__}"


def _error_text(error):
    return f"{_type_name(error)}: {error}"


def _rules_identity(rules, builtin):
    """(file names, sha256 or None, version): what ranks compare their rule sets by (the sha256;
    the version only where the sha256 cannot be read: rules= that is no RuleSet)."""
    try:
        rule_set = rules if rules is not None else builtin()
        name = rule_set.file_name
        if rules is None:
            name = _TEXTS["builtin"].format(file=name)
        return ((name,), rule_set.sha256, None)
    except Exception:  # not a RuleSet: the local call raised for it
        return ((_text(rules),), None, _snnplan.__version__)


def _plain(value):
    """A picklable, comparable copy: dataclasses and mappings as dicts, sequences kept."""
    if _dataclasses.is_dataclass(value) and not isinstance(value, type):
        return {field.name: _plain(getattr(value, field.name)) for field in _dataclasses.fields(value)}
    if isinstance(value, _abc.Mapping):
        return {key: _plain(item) for key, item in value.items()}
    if isinstance(value, (tuple, list)):
        return type(value)(_plain(item) for item in value)
    if value is None or isinstance(value, (bool, int, float, str)):
        return value
    return _text(value)


def _fields(answer):
    """The answer's fields (dataclasses.asdict would fail on a plan: its topology's dims are a
    mappingproxy)."""
    plain = _plain(answer)
    return plain if isinstance(plain, dict) else {"answer": plain}


def _exception_payload(error):
    args = error.args if all(isinstance(arg, (str, int, float, bool, type(None))) for arg in error.args) else (
        str(error),)
    return (type(error).__module__, type(error).__qualname__, args, str(error),
            [note for note in getattr(error, "__notes__", ()) if isinstance(note, str)])


def _rebuilt_exception(payload, source_rank):
    module, qualname, args, message, notes = payload
    cls = _sys.modules.get(module)
    for part in qualname.split("."):
        cls = getattr(cls, part, None)
    error = None
    if isinstance(cls, type) and issubclass(cls, Exception):
        try:
            error = cls(*args)
        except Exception:
            error = None
    if error is None or str(error) != message:
        error = RuntimeError(_TEXTS["rank0_unknown"].format(rank=source_rank, error=f"{module}.{qualname}: {message}"))
    if hasattr(error, "add_note"):  # Python 3.11+
        for note in notes:
            error.add_note(note)
        error.add_note(_TEXTS["from_rank0"].format(rank=source_rank))
    return error


# --- the message ---------------------------------------------------------------------------

def _rank_list(ranks):
    """'rank 3' or 'ranks 0,2,5-9' (runs of three or more as a range)."""
    parts = []
    start = previous = None
    for rank in list(ranks) + [None]:
        if previous is not None and rank == previous + 1:
            previous = rank
            continue
        if start is not None:
            parts.append(str(start) if start == previous else
                         f"{start},{previous}" if previous == start + 1 else f"{start}-{previous}")
        start = previous = rank
    return ("rank " if len(ranks) == 1 else "ranks ") + ",".join(parts)


def _verb(ranks, plural):
    """The verb for the ranks: 'use' for several, 'uses' for one ('raise': 'raises')."""
    return plural if len(ranks) > 1 else plural + "s"


def _grouped(digests, key):
    """[(ranks, [digests])] of equal key(digest), ordered by first rank."""
    groups = []
    for digest in sorted(digests, key=lambda d: d["rank"]):
        value = key(digest)
        for ranks, members, seen in groups:
            if seen == value:
                ranks.append(digest["rank"])
                members.append(digest)
                break
        else:
            groups.append(([digest["rank"]], [digest], value))
    return [(tuple(ranks), members) for ranks, members, _ in groups]


def _differing(values):
    """Names whose value is not the same in every group, in first-seen order."""
    names = []
    for group_values in values:
        for name in group_values:
            if name not in names and any(other.get(name, _MISSING) != group_values[name] for other in values):
                names.append(name)
    return names


def _disagreement(digests):
    join = _TEXTS["separator"].join

    def rules_key(digest):
        _, sha256, version = digest["rules"]
        return sha256 if sha256 is not None else (digest["rules"][0], version)

    groups = _grouped(digests, rules_key)
    if len(groups) > 1:
        shown, parts = [], []
        for ranks, members in groups:
            files = tuple(dict.fromkeys(name for member in members for name in member["rules"][0]))
            _, sha256, version = members[0]["rules"]
            revision = (_TEXTS["revision"].format(sha256=sha256) if sha256 is not None
                        else _TEXTS["revision_unknown"].format(version=version))
            shown.append((ranks, (files, sha256)))
            parts.append(_TEXTS["rules_group"].format(ranks=_rank_list(ranks), use=_verb(ranks, "use"),
                                                      files=", ".join(files), revision=revision))
        return RankDisagreement(_TEXTS["rules"].format(groups=join(parts)), "rules", shown)

    groups = _grouped(digests, lambda digest: digest["probe"])
    if len(groups) > 1:
        shown, parts = [], []
        for ranks, members in groups:
            error = members[0]["probe"]
            shown.append((ranks, error))
            parts.append(_TEXTS["probe_failed" if error is not None else "probe_fine"].format(
                ranks=_rank_list(ranks), error=error))
        return RankDisagreement(_TEXTS["probe"].format(groups=join(parts)), "probe", shown)

    groups = _grouped(digests, lambda digest: digest["inputs"])
    if len(groups) > 1:
        values = [dict(members[0]["inputs"]) for _, members in groups]
        names = _differing(values)
        shown, parts = [], []
        for (ranks, _), given in zip(groups, values):
            differing = {name: given.get(name, "<not given>") for name in names}
            shown.append((ranks, differing))
            parts.append(_TEXTS["inputs_group"].format(
                ranks=_rank_list(ranks), give=_verb(ranks, "give"),
                values=", ".join(f"{name}={text}" for name, text in differing.items())))
        return RankDisagreement(_TEXTS["inputs"].format(names=", ".join(names), groups=join(parts)), "inputs",
                                shown, names)

    groups = _grouped(digests, lambda digest: digest["answer"])
    if len(groups) > 1:
        exception = _TEXTS["exception"]
        answers = [members[0]["answer"] for _, members in groups]
        names = _differing([value for kind, value in answers if kind == "ok"])
        if any(kind == "raised" for kind, _ in answers):
            names.insert(0, exception)
        shown, parts = [], []
        for (ranks, _), (kind, value) in zip(groups, answers):
            if kind == "raised":
                shown.append((ranks, {exception: value}))
                parts.append(_TEXTS["answer_raised"].format(ranks=_rank_list(ranks), raise_=_verb(ranks, "raise"),
                                                            error=value))
                continue
            differing = {name: _text(value[name]) for name in names if name in value}
            text = "answer_group"
            if not differing:  # the one group that returned, against groups that raised
                differing = {name: _text(item) for name, item in value.items() if name == "mode"} or {
                    name: _text(item) for name, item in value.items()}
                text = "answer_returned"
            shown.append((ranks, differing))
            parts.append(_TEXTS[text].format(
                ranks=_rank_list(ranks), get=_verb(ranks, "get"),
                values=", ".join(f"{name}={item}" for name, item in differing.items())))
        return RankDisagreement(_TEXTS["answer"].format(names=", ".join(names), groups=join(parts)), "answer",
                                shown, names)
    return None
