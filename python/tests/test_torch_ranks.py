#!/usr/bin/env python3
"""snnplan.torch: one decision for every rank of a torch.distributed job, tested with real
process groups (gloo, a FileStore rendezvous, world sizes 2 and 4) of processes this test spawns.

  PYTHONPATH=build/python /usr/bin/python3 python/tests/test_torch_ranks.py --rules-dir rules

Needs an interpreter with PyTorch (Debian's python3-torch) and the built package on PYTHONPATH.
Each case starts its ranks as fresh processes of this file (--worker CASE): each initialises the
group (timeout 10 s), makes one call, and writes what it returned or raised (type, message,
notes, RankDisagreement/RankExchangeFailed attributes, the cause's type, seconds taken) to
rank<N>.json; the parent waits for all (a rank that has not finished after 90 s is a hang and
fails the case) and asserts the exact outcome of every rank. A rank that exits before the
exchange makes gloo fail at once (connection closed); one that is alive but late, at the
group's timeout. The availability arguments are
passed explicitly (on Debian's torch 1.13 with Python 3.11 the real probe raises ValueError, as
the reference's import would), except in the cases about the probe, which replace
snnplan._torch_probe.probe per rank.

Not tested: ranks with the same rules and inputs but different answers cannot come from one
build of snnplan; the "answer" case simulates another build on one rank by wrapping
snnplan.recommend_snn_distributed_strategy there, which snnplan.torch calls.
"""
import argparse
import dataclasses
import datetime
import json
import os
import pathlib
import shutil
import subprocess
import sys
import tempfile
import time
import types
import unittest

RULES_DIR = None
SCRATCH = None
TIMINGS = []
GROUP_TIMEOUT = 10   # seconds: init_process_group(timeout=...) in the workers
HANG = 90            # seconds a case's ranks may take before the case counts as a hang

CALL = ("spikformer", 8, "memory", 64, "inductor", True, True, True, True)
UNSUPPORTED = "Unsupported prefer='fastest'. Expected one of ('speed', 'memory', 'capacity')."
PROBE_FAILURE = "simulated probe failure"
PLAN_BATCH = (("memory", "dp=2,tp=2", 64), {"world_size": 4, "model_family": "spikformer"})
ANALYSIS = {"notes": ("from the analysis",), "tensor_parallel_candidate_names": ("blocks.0.attn",),
            "tensor_parallel_roots": ("blocks",)}
PLAN_UPSTREAM = {"objective": "memory", "topology": {"dp": 2, "tp": 2}, "backend": "inductor", "batch_size": 64}


# A training run as plan_training() takes it (upstream's test config, dtypes by name).
@dataclasses.dataclass(frozen=True)
class Transformer:
    num_layers: int = 4
    hidden_size: int = 128
    num_attention_heads: int = 4
    num_query_groups: int = 2
    kv_channels: int = 32
    ffn_hidden_size: int = 512
    gated_linear_unit: bool = True
    normalization: str = "RMSNorm"
    fp16: bool = False
    bf16: bool = True
    params_dtype: str = "bfloat16"
    pipeline_dtype: str = "bfloat16"
    fp8: object = None
    tensor_model_parallel_size: int = 1
    pipeline_model_parallel_size: int = 1
    context_parallel_size: int = 1
    sequence_parallel: bool = False
    expert_tensor_parallel_size: int = 1
    microbatch_group_size_per_vp_stage: int = 1
    recompute_granularity: object = None
    recompute_method: object = None
    recompute_num_layers: object = None
    recompute_modules: object = None


@dataclasses.dataclass(frozen=True)
class Model:
    transformer: Transformer = Transformer()
    vocab_size: int = 1024
    max_sequence_length: int = 512
    time_steps: int = 4
    share_embeddings_and_output_weights: bool = False
    position_embedding_type: str = "rope"


@dataclasses.dataclass(frozen=True)
class TrainingRun:
    model: Model = Model()
    sequence_length: int = 128
    micro_batch_size: int = 1
    global_batch_size: int = 8
    use_snn_memopt: bool = False


TRAINING = {"world_size": 4, "device_memory_bytes": 8 * 1024**3}


# --- the workers ---------------------------------------------------------------------------

def patch_probe(values):
    """This rank's PyTorch probe (snnplan._torch_probe.probe): values, or raising for None."""
    import snnplan._torch_probe

    def probe():
        if values is None:
            raise ValueError(PROBE_FAILURE)
        return values
    snnplan._torch_probe.probe = probe


def changed_rules():
    return SCRATCH / "changed" / "snn_distributed.yaml"


def case_call(name, rank, world, odd):
    """The one call case `name` makes on `rank`; odd: the rank that is made to differ."""
    import snnplan
    import snnplan.torch as st
    call = list(CALL)
    if name == "agree":
        return st.recommend(*call)
    if name == "rank0_decides":  # the other ranks' own inputs do not count
        if rank != 0:
            call[2:4] = ["speed", 32]
        return st.recommend(*call, source="rank0")
    if name == "rules":
        return st.recommend(*call, rules=snnplan.RuleSet.from_file(changed_rules()) if rank == odd else None)
    if name == "inputs":
        if rank == odd:
            call[3] = 32
        return st.recommend(*call)
    if name == "answer":  # another build of snnplan on one rank, simulated
        if rank == odd:
            real = snnplan.recommend_snn_distributed_strategy
            snnplan.recommend_snn_distributed_strategy = (
                lambda *args, **kwargs: dataclasses.replace(real(*args, **kwargs), mode="tp", mesh_shape=None))
        return st.recommend(*call)
    if name in ("raises", "raises_rank0"):
        call[2] = "fastest"
        return st.recommend(*call, source="rank0" if name == "raises_rank0" else "all")
    if name in ("probe_one", "probe_all", "probe_differs"):
        fine = (True, True, True, True)
        if name == "probe_all":
            patch_probe(None)
        elif rank == odd:
            patch_probe(None if name == "probe_one" else (True, True, False, True))
        else:
            patch_probe(fine)
        return st.recommend(*call[:5])  # the four availability arguments left at None
    if name in ("dies", "dies_rank0", "stuck"):
        if rank == odd:
            if name == "stuck":  # alive, but not at the exchange within the group's timeout
                time.sleep(GROUP_TIMEOUT + 5)
            os._exit(3)  # before the exchange: the others wait for it
        return st.recommend(*call, source="rank0" if name == "dies_rank0" else "all")
    if name == "plan_batch":
        return st.plan(*PLAN_BATCH[0], **PLAN_BATCH[1])
    if name == "plan_upstream":
        return st.plan(analysis=types.SimpleNamespace(**ANALYSIS), source="rank0", **PLAN_UPSTREAM)
    if name == "plan_rules":
        rules = snnplan.RuleSet.from_file(SCRATCH / "changed" / "snn_plan.yaml") if rank == odd else None
        return st.plan(*PLAN_BATCH[0], rules=rules, **PLAN_BATCH[1])
    if name in ("plan_training", "plan_training_rank0"):
        return st.plan_training(TrainingRun(), source="rank0" if name == "plan_training_rank0" else "all", **TRAINING)
    if name == "plan_training_inputs":
        return st.plan_training(TrainingRun(), **dict(TRAINING, device_memory_bytes=4 * 1024**3 if rank == odd
                                                       else TRAINING["device_memory_bytes"]))
    if name in ("subgroup_rank0", "subgroup_all"):
        import torch.distributed as dist
        group = dist.new_group([1, 2, 3])  # every rank of the default group creates it
        if name == "subgroup_rank0" and rank != 1:
            call[3] = 32 * rank
        if name == "subgroup_all" and rank == odd:
            call[3] = 32
        return st.recommend(*call, source="rank0" if name == "subgroup_rank0" else "all", group=group)
    raise SystemExit(f"unknown case {name}")


def worker(options):
    global SCRATCH
    SCRATCH = pathlib.Path(options.scratch)
    import torch.distributed as dist
    import snnplan.torch as st
    dist.init_process_group("gloo", init_method=f"file://{options.store}", rank=options.rank,
                            world_size=options.world, timeout=datetime.timedelta(seconds=GROUP_TIMEOUT))
    started = time.monotonic()
    outcome = {"rank": options.rank}
    try:
        answer = case_call(options.case, options.rank, options.world, options.odd)
        outcome["returned"] = repr(answer)
    except Exception as error:
        outcome.update(raised=type(error).__name__, message=str(error), notes=list(getattr(error, "__notes__", [])),
                       cause=None if error.__cause__ is None else type(error.__cause__).__name__)
        if isinstance(error, st.RankDisagreement):
            outcome.update(kind=error.kind, names=list(error.names),
                           groups=[[list(ranks), value] for ranks, value in error.groups])
        if isinstance(error, st.RankExchangeFailed):
            outcome.update(operation=error.operation, error_rank=error.rank)
    outcome["seconds"] = time.monotonic() - started
    path = pathlib.Path(options.out) / f"rank{options.rank}.json"
    path.with_suffix(".tmp").write_text(json.dumps(outcome, default=list), encoding="utf-8")
    path.with_suffix(".tmp").rename(path)
    if options.case not in ("dies", "dies_rank0", "stuck"):
        dist.barrier()  # every rank has its answer before any leaves the group
    sys.stdout.flush()
    sys.stderr.flush()
    os._exit(0)  # no teardown of a group whose peers may be gone


# --- the parent ----------------------------------------------------------------------------

def run_ranks(case, world, odd=1):
    """Runs case on `world` fresh ranks; returns their outcomes by rank (None: wrote nothing)."""
    directory = pathlib.Path(tempfile.mkdtemp(prefix=f"{case}-{world}-", dir=SCRATCH))
    env = dict(os.environ, GLOO_SOCKET_IFNAME="lo")
    started = time.monotonic()
    processes = []
    for rank in range(world):
        log = open(directory / f"rank{rank}.log", "w", encoding="utf-8")
        processes.append(subprocess.Popen(
            [sys.executable, __file__, "--worker", case, "--rank", str(rank), "--world", str(world),
             "--odd", str(odd), "--store", str(directory / "store"), "--out", str(directory),
             "--scratch", str(SCRATCH)], env=env, stdout=log, stderr=subprocess.STDOUT))
        log.close()
    hung = []
    for rank, process in enumerate(processes):
        try:
            process.wait(timeout=max(1.0, HANG - (time.monotonic() - started)))
        except subprocess.TimeoutExpired:
            hung.append(rank)
            process.kill()
            process.wait()
    TIMINGS.append((f"{case} x{world}", time.monotonic() - started))
    outcomes = []
    for rank in range(world):
        path = directory / f"rank{rank}.json"
        outcomes.append(json.loads(path.read_text(encoding="utf-8")) if path.exists() else None)
    if hung:
        logs = "\n".join((directory / f"rank{rank}.log").read_text(encoding="utf-8") for rank in hung)
        raise AssertionError(f"{case} x{world}: ranks {hung} still running after {HANG} s (a hang)\n{logs}")
    return outcomes, directory


def rank_log(directory, rank):
    return (directory / f"rank{rank}.log").read_text(encoding="utf-8")


def builtin_revision():
    import snnplan
    return snnplan.RuleSet.builtin().sha256


class TestRanks(unittest.TestCase):
    maxDiff = None

    def outcomes(self, case, world, odd=1):
        outcomes, directory = run_ranks(case, world, odd)
        for rank, outcome in enumerate(outcomes):
            if outcome is None and not (case in ("dies", "dies_rank0", "stuck") and rank == odd):
                self.fail(f"{case} x{world}: rank {rank} reported nothing:\n{rank_log(directory, rank)}")
        return outcomes

    def assert_returned(self, outcomes, expected):
        for outcome in outcomes:
            self.assertEqual(outcome.get("returned"), repr(expected), outcome)

    def assert_disagreement(self, outcomes, message, kind, groups, names=()):
        for outcome in outcomes:
            self.assertEqual(outcome.get("raised"), "RankDisagreement", outcome)
            self.assertEqual(outcome["message"], message)
            self.assertEqual((outcome["kind"], outcome["groups"], outcome["names"]), (kind, groups, list(names)))

    def test_agree(self):
        import snnplan
        expected = snnplan.recommend_snn_distributed_strategy(*CALL)
        for world in (2, 4):
            self.assert_returned(self.outcomes("agree", world), expected)

    def test_rank0_decides(self):
        import snnplan
        expected = snnplan.recommend_snn_distributed_strategy(*CALL)
        for world in (2, 4):
            self.assert_returned(self.outcomes("rank0_decides", world), expected)

    def test_rules_differ(self):
        import snnplan
        ours = builtin_revision()
        theirs = snnplan.RuleSet.from_file(changed_rules()).sha256
        self.assertNotEqual(ours, theirs)
        head = "snnplan.torch: the ranks would decide with different rule sets: "
        for world, odd, others in ((2, 1, "rank 0 uses"), (4, 2, "ranks 0,1,3 use")):
            ranks = [rank for rank in range(world) if rank != odd]
            message = (f"{head}{others} built-in rules/snn_distributed.yaml sha256:{ours} ; "
                       f"rank {odd} uses {changed_rules()} sha256:{theirs}")
            groups = [[ranks, [["built-in rules/snn_distributed.yaml"], ours]],
                      [[odd], [[str(changed_rules())], theirs]]]
            self.assert_disagreement(self.outcomes("rules", world, odd), message, "rules", groups)

    def test_inputs_differ(self):
        self.assert_disagreement(
            self.outcomes("inputs", 2),
            "snnplan.torch: the ranks were given different inputs (batch_size): rank 0 gives batch_size=64 ; "
            "rank 1 gives batch_size=32", "inputs", [[[0], {"batch_size": "64"}], [[1], {"batch_size": "32"}]],
            ["batch_size"])
        self.assert_disagreement(
            self.outcomes("inputs", 4, odd=3),
            "snnplan.torch: the ranks were given different inputs (batch_size): ranks 0-2 give batch_size=64 ; "
            "rank 3 gives batch_size=32", "inputs", [[[0, 1, 2], {"batch_size": "64"}], [[3], {"batch_size": "32"}]],
            ["batch_size"])

    def test_answer_differs(self):
        import snnplan
        real = snnplan.recommend_snn_distributed_strategy(*CALL)
        self.assert_disagreement(
            self.outcomes("answer", 2),
            "snnplan.torch: the ranks got different answers from the same rules and inputs (mode, mesh_shape): "
            f"rank 0 gets mode='fsdp2_tp', mesh_shape={real.mesh_shape!r} ; rank 1 gets mode='tp', mesh_shape=None",
            "answer", [[[0], {"mode": "'fsdp2_tp'", "mesh_shape": "(4, 2)"}],
                       [[1], {"mode": "'tp'", "mesh_shape": "None"}]], ["mode", "mesh_shape"])

    def test_same_exception_everywhere(self):
        import snnplan
        with self.assertRaises(ValueError) as local:
            snnplan.recommend_snn_distributed_strategy(CALL[0], CALL[1], "fastest", *CALL[3:])
        self.assertEqual(str(local.exception), UNSUPPORTED)  # the reference's text
        for outcome in self.outcomes("raises", 2):
            self.assertEqual((outcome.get("raised"), outcome.get("message"), outcome["notes"]),
                             ("ValueError", UNSUPPORTED, []), outcome)
        outcomes = self.outcomes("raises_rank0", 2)
        self.assertEqual((outcomes[0].get("raised"), outcomes[0].get("message"), outcomes[0]["notes"]),
                         ("ValueError", UNSUPPORTED, []))
        self.assertEqual((outcomes[1].get("raised"), outcomes[1].get("message"), outcomes[1]["notes"]),
                         ("ValueError", UNSUPPORTED,
                          ["snnplan.torch: raised on rank 0, which decided for the group (source='rank0')"]))

    def test_probe_failure_on_one_rank(self):
        self.assert_disagreement(
            self.outcomes("probe_one", 2),
            "snnplan.torch: probing PyTorch (snnplan.availability()) for the availability arguments left at None "
            f"failed on some ranks: rank 0: no error ; rank 1: ValueError: {PROBE_FAILURE}",
            "probe", [[[0], None], [[1], f"ValueError: {PROBE_FAILURE}"]])

    def test_probe_failure_everywhere(self):
        for outcome in self.outcomes("probe_all", 2):
            self.assertEqual((outcome.get("raised"), outcome.get("message")), ("ValueError", PROBE_FAILURE), outcome)
            self.assertEqual(len(outcome["notes"]), 1)
            self.assertIn("probing PyTorch", outcome["notes"][0])

    def test_probe_differs(self):
        self.assert_disagreement(
            self.outcomes("probe_differs", 2),
            "snnplan.torch: the ranks were given different inputs (fsdp2_available): rank 0 gives fsdp2_available=True"
            " ; rank 1 gives fsdp2_available=False",
            "inputs", [[[0], {"fsdp2_available": "True"}], [[1], {"fsdp2_available": "False"}]], ["fsdp2_available"])

    def check_exchange_failed(self, outcomes, dead, operation, source, at_least=0.0):
        self.assertIsNone(outcomes[dead])
        for rank, outcome in enumerate(outcomes):
            if rank == dead:
                continue
            self.assertEqual((outcome.get("raised"), outcome.get("operation"), outcome.get("error_rank"),
                              outcome.get("cause")), ("RankExchangeFailed", operation, rank, "RuntimeError"), outcome)
            prefix = (f"snnplan.torch: the decision exchange over the process group failed on rank {rank} "
                      f"({operation}, source={source!r}): RuntimeError: ")
            self.assertTrue(outcome["message"].startswith(prefix), outcome["message"])
            self.assertTrue(outcome["message"].endswith(
                "-- a rank may have died or not reached the exchange (the process group's timeout applies)"))
            self.assertLess(outcome["seconds"], GROUP_TIMEOUT + 5, outcome)
            self.assertGreaterEqual(outcome["seconds"], at_least, outcome)

    def test_rank_dies(self):
        self.check_exchange_failed(self.outcomes("dies", 4, odd=2), 2, "all_gather_object", "all")
        self.check_exchange_failed(self.outcomes("dies_rank0", 2, odd=0), 0, "broadcast_object_list", "rank0")

    def test_rank_stuck(self):
        # gloo gives up at the group's timeout: "Timed out waiting 10000ms for recv operation to complete".
        outcomes = self.outcomes("stuck", 2)
        self.check_exchange_failed(outcomes, 1, "all_gather_object", "all", at_least=GROUP_TIMEOUT - 1)
        self.assertIn("Timed out", outcomes[0]["message"])

    def test_plan_agrees(self):
        import snnplan
        expected = snnplan.plan(*PLAN_BATCH[0], **PLAN_BATCH[1])
        self.assert_returned(self.outcomes("plan_batch", 2), expected)
        expected = snnplan.plan(analysis=types.SimpleNamespace(**ANALYSIS), **PLAN_UPSTREAM)
        self.assertEqual(expected.notes, ANALYSIS["notes"])
        self.assert_returned(self.outcomes("plan_upstream", 2), expected)

    def test_plan_rules_differ(self):
        import snnplan
        theirs = snnplan.RuleSet.from_file(SCRATCH / "changed" / "snn_plan.yaml").sha256
        ours_sha = snnplan.RuleSet.builtin_plan().sha256
        ours = f"sha256:{ours_sha}"
        self.assert_disagreement(
            self.outcomes("plan_rules", 2),
            f"snnplan.torch: the ranks would decide with different rule sets: rank 0 uses built-in rules/snn_plan.yaml "
            f"{ours} ; rank 1 uses {SCRATCH / 'changed' / 'snn_plan.yaml'} sha256:{theirs}", "rules",
            [[[0], [["built-in rules/snn_plan.yaml"], ours_sha]],
             [[1], [[str(SCRATCH / "changed" / "snn_plan.yaml")], theirs]]])

    def test_plan_training(self):
        import snnplan
        expected = snnplan.plan_training(TrainingRun(), **TRAINING)
        self.assertEqual(expected.model.transformer.tensor_model_parallel_size, 1)
        self.assert_returned(self.outcomes("plan_training", 2), expected)
        self.assert_returned(self.outcomes("plan_training_rank0", 2), expected)
        self.assert_disagreement(
            self.outcomes("plan_training_inputs", 2),
            "snnplan.torch: the ranks were given different inputs (device_memory_bytes): rank 0 gives "
            "device_memory_bytes=8589934592 ; rank 1 gives device_memory_bytes=4294967296", "inputs",
            [[[0], {"device_memory_bytes": "8589934592"}], [[1], {"device_memory_bytes": "4294967296"}]],
            ["device_memory_bytes"])

    def test_subgroup(self):
        import snnplan
        expected = snnplan.recommend_snn_distributed_strategy(*CALL)
        outcomes = self.outcomes("subgroup_rank0", 4)
        self.assertEqual((outcomes[0].get("raised"), outcomes[0].get("message")),
                         ("ValueError", "snnplan.torch: this process (rank 0) is not a member of the group given"))
        self.assert_returned(outcomes[1:], expected)  # the group's rank 0 is global rank 1
        self.assert_disagreement(
            self.outcomes("subgroup_all", 4, odd=3)[1:],
            "snnplan.torch: the ranks were given different inputs (batch_size): ranks 1,2 give batch_size=64 ; "
            "rank 3 gives batch_size=32", "inputs", [[[1, 2], {"batch_size": "64"}], [[3], {"batch_size": "32"}]],
            ["batch_size"])


class TestOutsideAProcessGroup(unittest.TestCase):
    def fresh(self, code):
        result = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, timeout=120)
        self.assertEqual(result.returncode, 0, result.stderr)
        return json.loads(result.stdout)

    def test_no_torch_imported(self):
        import snnplan
        got = self.fresh(
            "import json, sys, snnplan.torch as st\n"
            f"r = st.recommend(*{CALL!r}); rank0 = st.recommend(*{CALL!r}, source='rank0')\n"
            f"p = st.plan(*{PLAN_BATCH[0]!r}, **{PLAN_BATCH[1]!r})\n"
            "print(json.dumps([repr(r), repr(rank0), repr(p), sorted(m for m in sys.modules if m.split('.')[0] == 'torch')]))")
        expected = repr(snnplan.recommend_snn_distributed_strategy(*CALL))
        self.assertEqual(got, [expected, expected, repr(snnplan.plan(*PLAN_BATCH[0], **PLAN_BATCH[1])), []])

    def test_torch_imported_no_group(self):
        import snnplan
        got = self.fresh(
            "import json, torch.distributed as dist, snnplan.torch as st\n"
            f"r = st.recommend(*{CALL!r})\n"
            "try:\n"
            f"    st.recommend({CALL[0]!r}, {CALL[1]!r}, 'fastest', *{CALL[3:]!r})\n"
            "except ValueError as error:\n"
            "    e = str(error)\n"
            "print(json.dumps([dist.is_initialized(), repr(r), e]))")
        self.assertEqual(got, [False, repr(snnplan.recommend_snn_distributed_strategy(*CALL)), UNSUPPORTED])

    def test_refusals(self):
        import snnplan.torch as st
        with self.assertRaises(ValueError) as raised:
            st.recommend(*CALL, timeout=5)
        self.assertEqual(str(raised.exception),
                         "snnplan.torch: timeout=5 is not supported: torch.distributed's object collectives "
                         "(all_gather_object, broadcast_object_list) take no per-call timeout, the process group's "
                         "applies (init_process_group(timeout=...), or new_group(timeout=...) for a group of its own)")
        with self.assertRaises(ValueError) as raised:
            st.plan(*PLAN_BATCH[0], source="rank 0", **PLAN_BATCH[1])
        self.assertEqual(str(raised.exception), "snnplan.torch: source must be 'all' or 'rank0', got 'rank 0'")
        self.assertTrue(issubclass(st.RankDisagreement, RuntimeError) and issubclass(st.RankExchangeFailed,
                                                                                     RuntimeError))


def prepare_scratch():
    """The changed rule files: the distributed rules with one threshold changed, and the plan
    rules (which use them) with a changed comment, beside an unchanged copy of what they use."""
    changed = SCRATCH / "changed"
    changed.mkdir()
    text = (RULES_DIR / "snn_distributed.yaml").read_text(encoding="utf-8")
    threshold = 'fsdp2_tp_mesh: "world_size >= 4 &&'
    assert text.count(threshold) == 1, "rules/snn_distributed.yaml: the fsdp2_tp_mesh threshold moved"
    changed_rules().write_text(text.replace(threshold, 'fsdp2_tp_mesh: "world_size >= 6 &&'), encoding="utf-8")
    shutil.copy(RULES_DIR / "snn_distributed.yaml", changed / "unchanged_snn_distributed.yaml")
    text = (RULES_DIR / "snn_plan.yaml").read_text(encoding="utf-8")
    plan_text = text.replace("recommendation: snn_distributed.yaml", "recommendation: unchanged_snn_distributed.yaml")
    assert plan_text != text, "rules/snn_plan.yaml: its uses: line moved"
    (changed / "snn_plan.yaml").write_text(plan_text + "# changed on one rank\n", encoding="utf-8")


def main():
    global RULES_DIR, SCRATCH
    parser = argparse.ArgumentParser()
    parser.add_argument("--rules-dir", type=pathlib.Path)
    parser.add_argument("--worker")
    parser.add_argument("--rank", type=int)
    parser.add_argument("--world", type=int)
    parser.add_argument("--odd", type=int)
    parser.add_argument("--store")
    parser.add_argument("--out")
    parser.add_argument("--scratch")
    options, rest = parser.parse_known_args()
    if options.worker:
        options.case = options.worker
        worker(options)
        return
    if options.rules_dir is None:
        parser.error("--rules-dir is required")
    # The parent itself does not import PyTorch (the ranks do); it only checks they can.
    found = subprocess.run([sys.executable, "-c", "import torch.distributed as d; assert d.is_available()"],
                           capture_output=True, text=True)
    if found.returncode != 0:
        raise SystemExit(f"test_torch_ranks: {sys.executable} has no PyTorch with torch.distributed: install "
                         f"python3-torch (apt-get install python3-torch)\n{found.stderr}")
    RULES_DIR = options.rules_dir
    SCRATCH = pathlib.Path(tempfile.mkdtemp(prefix="snnplan-torch-ranks-"))
    try:
        prepare_scratch()
        program = unittest.main(argv=[sys.argv[0]] + rest, exit=False, verbosity=2)
    finally:
        shutil.rmtree(SCRATCH, ignore_errors=True)
    for name, seconds in TIMINGS:
        print(f"  {name}: {seconds:.1f} s")
    sys.exit(0 if program.result.wasSuccessful() else 1)


if __name__ == "__main__":
    main()
