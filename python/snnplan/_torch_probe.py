"""The reference's four PyTorch probes, defined once.

SpikingJelly's planner sets FSDP2_AVAILABLE, ZERO_REDUNDANCY_OPTIMIZER_AVAILABLE,
PIPELINING_AVAILABLE and TENSOR_PARALLEL_AVAILABLE by trying four imports when it is imported:
an ImportError (ModuleNotFoundError included) means unavailable; any other exception is not
caught. probe() makes the same four imports in the reference's order with the same meaning.

This file imports nothing else of snnplan, because it is used twice: the package calls probe()
(snnplan/_drop_in.py, once, at the first call that needs a probed value), and
`snnplan recommend --probe-torch[=PYTHON]` runs this file's text (embedded in the binary at
build time) with that interpreter, which need not have snnplan installed; run as a program it
prints one JSON object: the four values under the drop-in's argument names, "python" (the
interpreter that ran it) and "torch" (PyTorch's version, or null without one).
"""


def probe():
    """(zero_redundancy_optimizer_available, pipelining_available, fsdp2_available,
    tensor_parallel_available), the order of the drop-in's arguments; probed in the reference's
    order (FSDP2, ZeRO, pipelining, tensor parallel)."""
    try:
        from torch.distributed.fsdp import fully_shard  # noqa: F401
        fsdp2 = True
    except ImportError:
        fsdp2 = False
    try:
        from torch.distributed.optim import ZeroRedundancyOptimizer  # noqa: F401
        zero = True
    except ImportError:
        zero = False
    try:
        from torch.distributed.pipelining import PipelineStage  # noqa: F401
        pipelining = True
    except ImportError:
        pipelining = False
    try:
        from torch.distributed.tensor.parallel import parallelize_module  # noqa: F401
        tensor_parallel = True
    except ImportError:
        tensor_parallel = False
    return zero, pipelining, fsdp2, tensor_parallel


NAMES = ("zero_redundancy_optimizer_available", "pipelining_available", "fsdp2_available",
         "tensor_parallel_available")

if __name__ == "__main__":
    import json
    import sys

    found = dict(zip(NAMES, probe()))
    torch = sys.modules.get("torch")
    found["torch"] = None if torch is None else str(getattr(torch, "__version__", "unknown"))
    found["python"] = sys.executable
    print(json.dumps(found))
