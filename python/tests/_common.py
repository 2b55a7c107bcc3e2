"""Helpers shared by the Python tests of the snnplan module (plain unittest, no pytest)."""
import dataclasses
import json

import snnplan

FIELDS = [
    "prefer", "model", "world_size", "mode", "optimizer_sharding", "memopt_level",
    "mesh_shape", "tp_mesh_dim", "dp_mesh_dim", "pp_microbatches",
    "pp_memopt_stage_budget_ratio", "pp_schedule", "pp_virtual_stages", "pp_layout",
    "pp_delay_wgrad", "rationale",
]
FLAGS = ["zero_redundancy_optimizer_available", "pipelining_available",
         "fsdp2_available", "tensor_parallel_available"]


def outcome(function, case):
    """("ok", record) or ("error", exception type name, message) for function(**case)."""
    try:
        return ("ok", function(**case))
    except ValueError as err:
        return ("error", "ValueError", str(err))


def as_json(record):
    """The record as golden data writes it: tuples as lists, fields in declaration order."""
    out = {}
    for f in dataclasses.fields(record):
        value = getattr(record, f.name)
        out[f.name] = list(value) if isinstance(value, tuple) else value
    return out


def signature(value):
    """Value and exact Python types, recursively (so 1 != True and (1,) != [1] here)."""
    if isinstance(value, (tuple, list)):
        return (type(value).__name__, tuple(signature(v) for v in value))
    return (type(value).__name__, value)


def load_jsonl(path):
    with open(path, encoding="utf-8") as f:
        return [json.loads(line) for line in f if line.strip()]


def check_golden_recommend(path, report):
    """Compares the module with golden recommend.jsonl; returns (cases, mismatches)."""
    bad = 0
    cases = load_jsonl(path)
    for entry in cases:
        case, want = entry["input"], entry["expected"]
        got = outcome(snnplan.recommend_snn_distributed_strategy, case)
        if got[0] == "ok":
            rec = got[1]
            ok = ("error" not in want and json.dumps(as_json(rec)) == json.dumps(want)
                  and all(isinstance(getattr(rec, k), tuple) for k in ("rationale",))
                  and all(getattr(rec, k) is None or isinstance(getattr(rec, k), tuple)
                          for k in ("mesh_shape", "pp_layout")))
            shown = as_json(rec)
        else:
            ok = want == {"error": got[2]}
            shown = {"error": got[2]}
        if not ok:
            bad += 1
            if bad <= 5:
                report(f"golden mismatch: {json.dumps(case, ensure_ascii=False)}\n"
                       f"  want: {json.dumps(want, ensure_ascii=False)}\n"
                       f"  got:  {json.dumps(shown, ensure_ascii=False)}")
    return len(cases), bad


def check_golden_microbatches(path, report):
    bad = 0
    cases = load_jsonl(path)
    for entry in cases:
        try:
            got = {"expected": snnplan.recommended_pipeline_microbatches(entry["batch_size"], entry["num_stages"])}
        except ValueError as err:
            got = {"error": str(err)}
        want = {k: entry[k] for k in ("expected", "error") if k in entry}
        if got != want:
            bad += 1
            if bad <= 5:
                report(f"microbatches mismatch: {entry}: got {got}")
    return len(cases), bad
