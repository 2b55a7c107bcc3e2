"""What tools/gen_probe_golden.py and test_probe.py share: fake `torch` package trees, the
reference with its PyTorch probes restored, the fixed list of calls, and the child process that
imports snnplan or that reference under a tree and reports what it sees.

The reference (SpikingJelly's planner, seed_planner.txt) sets its four *_AVAILABLE constants by
trying four imports when it is imported; ImportError means unavailable. seed_reference.py is a
runnable copy with those probes dropped (four `X_AVAILABLE = True` lines): restored_reference()
puts the seed's four try/except blocks back (SEED_PROBES, the seed's lines re-indented).

A tree is a directory holding a fake `torch` package (or none) in which each of the four
imports succeeds or raises ImportError in one of the ways a real one can: the module missing,
the module present without the name (an older PyTorch), or the module raising ImportError
itself (directly, or a ModuleNotFoundError from an import of its own). combinations() gives the
16 present/absent assignments with those ways varied across them; a tree may also count the
executions of its modules in a file, or have one module raise something other than ImportError.

This module imports neither snnplan nor torch: the child (child_main) imports the subject.
"""
import dataclasses
import json
import os
import subprocess
import sys
import tempfile
import threading
from pathlib import Path

# The four probes in the reference's order: (key, module, name, constant, drop-in argument).
PROBES = (
    ("fsdp2", "torch.distributed.fsdp", "fully_shard", "FSDP2_AVAILABLE", "fsdp2_available"),
    ("zero", "torch.distributed.optim", "ZeroRedundancyOptimizer", "ZERO_REDUNDANCY_OPTIMIZER_AVAILABLE",
     "zero_redundancy_optimizer_available"),
    ("pipelining", "torch.distributed.pipelining", "PipelineStage", "PIPELINING_AVAILABLE", "pipelining_available"),
    ("tensor_parallel", "torch.distributed.tensor.parallel", "parallelize_module", "TENSOR_PARALLEL_AVAILABLE",
     "tensor_parallel_available"),
)
KEYS = tuple(p[0] for p in PROBES)
CONSTANT = {p[0]: p[3] for p in PROBES}
ARGUMENT = {p[0]: p[4] for p in PROBES}
# The drop-in's availability arguments in their positional order (also TorchAvailability's fields).
ARGUMENTS = ("zero_redundancy_optimizer_available", "pipelining_available", "fsdp2_available",
             "tensor_parallel_available")
KEY_OF_ARGUMENT = {p[4]: p[0] for p in PROBES}

# The seed's probe block (../shared/reference/seed_planner.txt, whose indentation is stripped),
# its lines copied exactly and re-indented.
SEED_PROBES = """\
try:
    from torch.distributed.fsdp import fully_shard
    FSDP2_AVAILABLE = True
except ImportError:
    fully_shard = None
    FSDP2_AVAILABLE = False
try:
    from torch.distributed.optim import ZeroRedundancyOptimizer
    ZERO_REDUNDANCY_OPTIMIZER_AVAILABLE = True
except ImportError:
    ZeroRedundancyOptimizer = None
    ZERO_REDUNDANCY_OPTIMIZER_AVAILABLE = False
try:
    from torch.distributed.pipelining import PipelineStage
    PIPELINING_AVAILABLE = True
except ImportError:
    PipelineStage = None
    PIPELINING_AVAILABLE = False
try:
    from torch.distributed.tensor.parallel import parallelize_module
    TENSOR_PARALLEL_AVAILABLE = True
except ImportError:
    parallelize_module = None
    TENSOR_PARALLEL_AVAILABLE = False
"""
# The lines of seed_reference.py that stand for the probes.
DROPPED_LINES = tuple(f"{p[3]} = True" for p in PROBES)


def check_probe_block(seed_text):
    """Raises ValueError unless SEED_PROBES, its indentation stripped, is a run of the seed's lines."""
    block = [line.strip() for line in SEED_PROBES.splitlines()]
    seed = [line.strip() for line in seed_text.splitlines()]
    for start in range(len(seed) - len(block) + 1):
        if seed[start:start + len(block)] == block:
            return
    raise ValueError("probe_trees.SEED_PROBES is not the seed's probe block (seed_planner.txt)")


def restored_reference(reference_text):
    """seed_reference.py's text with its four `X_AVAILABLE = True` lines replaced by the seed's
    probes (at the place of the first of them)."""
    lines = reference_text.split("\n")
    where = [i for i, line in enumerate(lines) if line in DROPPED_LINES]
    if sorted(lines[i] for i in where) != sorted(DROPPED_LINES):
        raise ValueError(f"seed_reference.py does not have each of {DROPPED_LINES} once on a line of its own")
    block = ["# The seed's PyTorch probes, restored by python/tests/probe_trees.py."]
    block += SEED_PROBES.rstrip("\n").split("\n")
    out = []
    for i, line in enumerate(lines):
        if i == where[0]:
            out.extend(block)
        if i not in where:
            out.append(line)
    return "\n".join(out)


# ---------------------------------------------------------------------------------------------
# Trees

# How an absent import fails.
FAILURES = ("no_module", "no_name", "raises_import_error", "raises_module_not_found")
# How a present name is provided: an attribute of the module, or a submodule of that name
# (`from package import name` imports package.name when the package has no such attribute).
PRESENCES = ("attribute", "submodule")
FAKE_VERSION = "0.0.0+fake.probe"

_DEFINITIONS = {
    "fully_shard": "def fully_shard(module, **kwargs):\n    raise NotImplementedError('a fake')\n",
    "ZeroRedundancyOptimizer": "class ZeroRedundancyOptimizer:\n    pass\n",
    "PipelineStage": "class PipelineStage:\n    pass\n",
    "parallelize_module": "def parallelize_module(module, *args, **kwargs):\n    raise NotImplementedError('a fake')\n",
}


def combinations():
    """The 16 trees: combination i has import j (PROBES order) present when bit 3-j of i is set.
    The k-th absence of import j fails the FAILURES[(k + j) % 4] way and its k-th presence is a
    PRESENCES[(k + j) % 2], so that every way occurs for every import; combination 0 has no
    torch package at all."""
    absences = dict.fromkeys(KEYS, 0)
    presences = dict.fromkeys(KEYS, 0)
    out = []
    for index in range(16):
        present = {key: bool(index >> (3 - j) & 1) for j, key in enumerate(KEYS)}
        tree = {}
        for j, key in enumerate(KEYS):
            if present[key]:
                tree[key] = PRESENCES[(presences[key] + j) % len(PRESENCES)]
                presences[key] += 1
            else:
                tree[key] = FAILURES[(absences[key] + j) % len(FAILURES)]
                absences[key] += 1
        out.append({"name": f"c{index:02d}", "present": present, "torch": index != 0, "tree": tree})
    return out


def combination_for(present):
    """The combination whose four values are `present` ({key: bool})."""
    for combination in combinations():
        if combination["present"] == present:
            return combination
    raise KeyError(present)


def build_tree(root, tree, torch=True, counter=None):
    """Writes the fake torch package under root (a directory to put on PYTHONPATH).

    tree: {key: way} for the four probes, a way being one of PRESENCES, FAILURES or
    "raise:TYPE:MESSAGE" (the module raises the builtin exception TYPE(MESSAGE)); torch=False
    writes no package at all; counter: a file each module of the tree appends its name to
    whenever it is executed."""
    root = Path(root)
    root.mkdir(parents=True, exist_ok=True)
    if not torch:
        return root

    def write(module, body):
        path = root.joinpath(*module.split(".")) / "__init__.py"
        path.parent.mkdir(parents=True, exist_ok=True)
        head = f'"""A fake {module} (python/tests/probe_trees.py)."""\n'
        if counter is not None:
            head += f"with open({str(counter)!r}, 'a') as _counter:\n    _counter.write(__name__ + '\\n')\n"
        path.write_text(head + body, encoding="utf-8")

    write("torch", f"__version__ = {FAKE_VERSION!r}\n")
    write("torch.distributed", "")
    for key, module, name, _constant, _argument in PROBES:
        way = tree[key]
        if module == "torch.distributed.tensor.parallel":
            write("torch.distributed.tensor", "")
        if way == "attribute":
            write(module, _DEFINITIONS[name])
        elif way == "submodule":
            write(module, "")
            write(f"{module}.{name}", _DEFINITIONS[name])
        elif way == "no_module":
            pass
        elif way == "no_name":
            write(module, "# as in an older PyTorch: the module, without the name probed\nOTHER = None\n")
        elif way == "raises_import_error":
            write(module, f"raise ImportError({f'fake torch: {module} cannot be imported here'!r})\n")
        elif way == "raises_module_not_found":
            write(module, f"import _snnplan_fake_missing_dependency_of_{key}  # noqa: F401\n")
        elif way.startswith("raise:"):
            _, kind, message = way.split(":", 2)
            write(module, f"raise {kind}({message!r})\n")
        else:
            raise ValueError(f"unknown way {way!r}")
    return root


# Trees whose one module raises something other than ImportError: the reference's import fails
# with that exception, and so does snnplan's first call that needs a probed value.
RAISING = (
    {"name": "fsdp2_value_error",
     "tree": {"fsdp2": "raise:ValueError:fake torch: mutable default <class 'torch.distributed._shard."
                       "sharded_tensor.metadata.TensorProperties'> for field tensor_properties is not "
                       "allowed: use default_factory",
              "zero": "attribute", "pipelining": "attribute", "tensor_parallel": "attribute"}},
    {"name": "zero_attribute_error",
     "tree": {"fsdp2": "no_name", "zero": "raise:AttributeError:module 'torch._C' has no attribute "
                                          "'_distributed_c10d'",
              "pipelining": "no_module", "tensor_parallel": "attribute"}},
    {"name": "tensor_parallel_runtime_error",
     "tree": {"fsdp2": "submodule", "zero": "raises_import_error", "pipelining": "attribute",
              "tensor_parallel": "raise:RuntimeError:fake torch: tensor parallel needs a newer driver"}},
)

# Trees for "the probe runs once": modules that raise ImportError are executed again by every
# import of them, so a second probe would show in the counter file.
COUNTED = (
    {"name": "all_raise_import_error",
     "tree": {"fsdp2": "raises_import_error", "zero": "raises_import_error", "pipelining": "raises_import_error",
              "tensor_parallel": "raises_import_error"}},
    {"name": "mixed",
     "tree": {"fsdp2": "attribute", "zero": "raises_module_not_found", "pipelining": "raises_import_error",
              "tensor_parallel": "no_name"}},
)


# ---------------------------------------------------------------------------------------------
# Calls

def _call(model, world_size, prefer, batch_size, *positional, backend=None, **flags):
    """One call as {"args": [...], "kwargs": {...}}; flags by their short keys (fsdp2=..., zero=...)."""
    kwargs = {ARGUMENT[key]: value for key, value in flags.items()}
    if backend is not None:
        kwargs["backend"] = backend
    return {"args": [model, world_size, prefer, batch_size, *positional], "kwargs": kwargs}


S, C, R = "spikformer_8_384", "cifar10dvs_vgg", "resnet18"
# Every branch of the reference: each prefer (and its case, and refused ones), the three model
# families, world sizes 1, 2, 4, 6, 8, 16, batch sizes that split into microbatches, that are
# smaller than the stages and that do not split; availability arguments left out (None), given
# as None, positionally, and mixed with explicit values (truth values too).
CALLS = [
    _call(S, 1, "speed", 64), _call(S, 1, "memory", 64), _call(S, 1, "capacity", 64),
    _call(C, 2, "speed", 64), _call(C, 4, "speed", 64), _call(C, 6, "speed", 64), _call(C, 8, "speed", 64),
    _call(C, 16, "speed", 64), _call(S, 8, "speed", 64), _call(R, 4, "speed", 64),
    _call(S, 2, "memory", 64), _call(S, 4, "memory", 64), _call(S, 6, "memory", 64), _call(S, 8, "memory", 64),
    _call(S, 16, "memory", 64), _call(C, 8, "memory", 64), _call(R, 6, "memory", 64),
    _call(S, 2, "capacity", 64), _call(S, 2, "capacity", 3), _call(S, 2, "capacity", 1),
    _call(S, 2, "capacity", 17), _call(S, 4, "capacity", 37), _call(S, 4, "capacity", 6),
    _call(S, 6, "capacity", 48), _call(S, 8, "capacity", 64), _call(S, 16, "capacity", 16),
    _call(S, 16, "capacity", 8), _call(C, 8, "capacity", 64), _call(C, 4, "capacity", 2),
    _call(R, 6, "capacity", 37), _call(R, 16, "capacity", 40), _call(R, 6, "capacity", 5),
    _call(C, 8, "SPEED", 64), _call("spikformer_4_256", 4, "Capacity", 32),
    _call(S, 8, "fast", 64), _call(R, 4, "", 8), _call(S, 8, "memory", 64, backend="eager"),
    _call(C, 8, "speed", 64, "inductor", None, None, None, None),
    _call(S, 4, "capacity", 1, "inductor", None, None, None, None),
    _call(S, 4, "memory", 64, fsdp2=None, tensor_parallel=None, zero=None, pipelining=None),
    # mixed: explicit values and None
    _call(C, 8, "speed", 64, fsdp2=False), _call(S, 8, "memory", 64, fsdp2=False),
    _call(S, 4, "capacity", 2, fsdp2=False), _call(S, 6, "memory", 64, tensor_parallel=True),
    _call(S, 8, "capacity", 64, pipelining=False), _call(S, 4, "capacity", 32, pipelining=True),
    _call(R, 4, "speed", 64, zero=False), _call(S, 2, "memory", 64, zero=True),
    _call(S, 8, "memory", 64, fsdp2=True, tensor_parallel=False),
    _call(S, 4, "capacity", 1, fsdp2=True, tensor_parallel=False),
    _call(C, 6, "capacity", 48, pipelining=False, tensor_parallel=True),
    _call(S, 2, "capacity", 1, zero=False, pipelining=True), _call(S, 2, "capacity", 17, pipelining=True),
    _call(C, 8, "speed", 64, tensor_parallel=1, fsdp2=0), _call(C, 4, "memory", 64, zero="", fsdp2=None),
    _call(S, 8, "capacity", 64, "inductor", False, None, True, None),
    _call(S, 8, "memory", 64, zero=True, pipelining=True, fsdp2=True, tensor_parallel=True),
    _call(S, 8, "capacity", 64, zero=False, pipelining=False, fsdp2=False, tensor_parallel=False),
]

# Four calls with each of the 16 explicit assignments of the four arguments: their outcomes
# must not depend on the tree (an explicit argument wins over the probe).
EXPLICIT_CALLS = [
    _call(model, world_size, prefer, batch_size,
          **{key: bool(bits >> (3 - j) & 1) for j, key in enumerate(KEYS)})
    for model, world_size, prefer, batch_size in ((C, 8, "speed", 64), (S, 8, "memory", 64), (S, 8, "capacity", 64),
                                                 (R, 4, "capacity", 1))
    for bits in range(16)
]


def leaves_none(call):
    """Whether the call leaves an availability argument at None (so it needs a probed value)."""
    given = dict(zip(ARGUMENTS, call["args"][5:]))
    given.update({k: v for k, v in call["kwargs"].items() if k in ARGUMENTS})
    return any(given.get(name) is None for name in ARGUMENTS)


def with_values(call, present):
    """The call as kwargs with each availability argument left at None given present[key]."""
    names = ("model", "world_size", "prefer", "batch_size", "backend") + ARGUMENTS
    kwargs = dict(zip(names, call["args"]))
    kwargs.update(call["kwargs"])
    for name in ARGUMENTS:
        if kwargs.get(name) is None:
            kwargs[name] = present[KEY_OF_ARGUMENT[name]]
    return kwargs


# ---------------------------------------------------------------------------------------------
# The child

def error_of(error):
    out = {"type": type(error).__name__, "message": str(error)}
    notes = getattr(error, "__notes__", None)
    if notes:
        out["notes"] = list(notes)
    return out


def without_notes(outcome):
    """An outcome with the notes of its error (snnplan's, which the reference has not) left out."""
    if isinstance(outcome, dict) and "error" in outcome and "notes" in outcome["error"]:
        return {"error": {k: v for k, v in outcome["error"].items() if k != "notes"}}
    return outcome


def record_json(record):
    return {f.name: (list(v) if isinstance(v := getattr(record, f.name), tuple) else v)
            for f in dataclasses.fields(record)}


def _outcome(function):
    try:
        return {"value": function()}
    except Exception as error:  # noqa: BLE001 (every exception is an outcome)
        return {"error": error_of(error)}


def _call_outcome(subject, call):
    try:
        record = subject.recommend_snn_distributed_strategy(*call["args"], **call["kwargs"])
    except Exception as error:  # noqa: BLE001
        return {"error": error_of(error)}
    return {"record": record_json(record)}


def _load_subject(job):
    if job["subject"] == "none":
        return None
    if job["subject"] == "snnplan":
        import snnplan
        return snnplan
    import importlib.util
    spec = importlib.util.spec_from_file_location("seed_reference_probed", job["reference"])
    module = importlib.util.module_from_spec(spec)
    sys.modules[spec.name] = module  # its dataclass looks its module up there
    try:
        spec.loader.exec_module(module)
    except BaseException:
        del sys.modules[spec.name]
        raise
    return module


def _step(subject, step, job):
    do = step["do"]
    if do == "torch_loaded":
        return "torch" in sys.modules
    if do == "availability":
        return _outcome(lambda: subject.availability()._asdict())
    if do == "constants":
        return {name: _outcome(lambda name=name: getattr(subject, name)) for name in (p[3] for p in PROBES)}
    if do == "calls":
        return [_call_outcome(subject, call) for call in step["calls"]]
    if do == "get":
        return _outcome(lambda: getattr(subject, step["name"]))
    if do == "set":
        setattr(subject, step["name"], step["value"])
        return None
    if do == "threads":  # from n threads at once: availability(), a call or a constant's read
        barrier = threading.Barrier(step["n"])
        results = [None] * step["n"]
        what = {"availability": lambda: _outcome(lambda: subject.availability()._asdict()),
                "call": lambda: _call_outcome(subject, CALLS[6]),
                "constant": lambda: _outcome(lambda: subject.FSDP2_AVAILABLE)}[step["what"]]

        def run(k):
            barrier.wait()
            results[k] = what()
        threads = [threading.Thread(target=run, args=(k,)) for k in range(step["n"])]
        for thread in threads:
            thread.start()
        for thread in threads:
            thread.join()
        return results
    if do == "counter":
        path = Path(job["counter"])
        return path.read_text(encoding="utf-8").splitlines() if path.exists() else []
    if do == "versions":
        torch = sys.modules.get("torch")
        if torch is None:
            try:
                import torch
            except ImportError:
                torch = None
        try:
            from importlib import metadata
            distribution = metadata.version("torch")
        except Exception:  # noqa: BLE001 (no metadata: a fake tree)
            distribution = None
        return {"python": sys.version.split()[0], "python_executable": sys.executable,
                "torch": None if torch is None else str(getattr(torch, "__version__", None)),
                "torch_distribution": distribution}
    raise ValueError(f"unknown step {do!r}")


def child_main():
    """Runs the job given as JSON in sys.argv[1]: imports the subject, then its steps; prints
    one JSON list, the import's result first. After a failed import the steps are skipped."""
    job = json.loads(sys.argv[1])
    try:
        subject = _load_subject(job)
        results = [{"ok": True, "torch_loaded": "torch" in sys.modules}]
    except Exception as error:  # noqa: BLE001
        print(json.dumps([{"error": error_of(error)}] + [{"skipped": True}] * len(job["steps"])))
        return
    for step in job["steps"]:
        results.append(_step(subject, step, job))
    print(json.dumps(results))


def run_child(python, job, pythonpath, isolated=True, timeout=300):
    """Runs child_main with `python`, PYTHONPATH=pythonpath (a list) and, isolated, without the
    site module (-S: no site-packages, so that only the tree provides torch); returns its list."""
    here = os.path.dirname(os.path.abspath(__file__))
    boot = f"import sys; sys.path.append({here!r}); import probe_trees; probe_trees.child_main()"
    env = {k: v for k, v in os.environ.items() if k not in ("PYTHONPATH", "PYTHONHOME", "PYTHONSTARTUP")}
    env["PYTHONPATH"] = os.pathsep.join(str(p) for p in pythonpath)
    env["PYTHONDONTWRITEBYTECODE"] = "1"
    command = [python] + (["-S"] if isolated else []) + ["-c", boot, json.dumps(job)]
    # -c puts the working directory first on sys.path: an empty one.
    with tempfile.TemporaryDirectory(prefix="snnplan-probe-cwd-") as cwd:
        ran = subprocess.run(command, env=env, cwd=cwd, capture_output=True, text=True, timeout=timeout)
    if ran.returncode != 0 or not ran.stdout.strip():
        raise RuntimeError(f"child {command[:2]} for {job['subject']} failed (exit {ran.returncode}):\n"
                           f"{ran.stderr[-4000:]}")
    return json.loads(ran.stdout.strip().splitlines()[-1])
