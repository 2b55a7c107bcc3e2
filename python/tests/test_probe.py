#!/usr/bin/env python3
"""snnplan's availability probe against the reference's: the four *_AVAILABLE constants,
availability() and every recommendation that leaves an availability argument at None, under
fake torch trees (the 16 present/absent combinations, each import failing in one of the ways a
real one can) and, with --real-torch, under this interpreter's real PyTorch.

  PYTHONPATH=build/python python3 python/tests/test_probe.py --golden-dir tests/data/probe \\
      [--reference-dir ../shared/reference] [--cli build/snnplan]
  PYTHONPATH=build/python /usr/bin/python3 python/tests/test_probe.py --real-torch ...

Each check runs snnplan in a fresh subprocess (python -S, PYTHONPATH = the fake tree, then the
PYTHONPATH this test is given, which must hold the built package only): `import snnplan` must
not import torch; the probe's values, the constants and the outcomes of probe_trees.CALLS must
be those of tests/data/probe/golden.json (tools/gen_probe_golden.py: the reference with its
probes restored) and, when --reference-dir holds seed_reference.py, those of that reference run
live under the same tree. Also: explicit arguments win over the probe; setting
snnplan.FSDP2_AVAILABLE before or after the probe is heard as the reference hears its own; the
probe runs once (modules that count their executions); a probe raising something other than
ImportError raises as the reference's import does. With --cli: `recommend|explain
--probe-torch[=PYTHON]` under the trees (PYTHONPATH = the tree).

--real-torch: snnplan, the reference (live, or tests/data/probe/real_torch.json when
--reference-dir is absent and the versions match) and `--probe-torch` with this interpreter and
its own site-packages; the checks that need no recorded data run whatever the torch version.
"""
import argparse
import concurrent.futures
import hashlib
import json
import os
import shutil
import subprocess
import sys
import tempfile
import time
import unittest
from pathlib import Path

import probe_trees as pt

ARGS = None
GOLDEN = None
REAL = None          # real_torch.json, when present
SCRATCH = None       # a temporary directory for the trees
REFERENCE = None     # the restored reference's file, when --reference-dir has seed_reference.py
SNNPLAN_PATH = []    # this test's PYTHONPATH: the built package
STATS = {"children": 0, "outcomes": 0, "live": 0, "cli": 0}


def jsonable(value):
    return json.loads(json.dumps(value))


def golden_outcome(index):
    return GOLDEN["outcomes"][index]


def golden_calls(present):
    """The reference's outcomes of CALLS under the tree with these four values."""
    for combination in GOLDEN["combinations"]:
        if combination["present"] == present:
            return [golden_outcome(i) for i in combination["calls"]]
    raise KeyError(present)


def golden_explicit():
    return [golden_outcome(i) for i in GOLDEN["explicit"]]


def values(present):
    """availability()'s fields for a tree's values."""
    return {name: present[pt.KEY_OF_ARGUMENT[name]] for name in pt.ARGUMENTS}


def constants(present):
    return {pt.CONSTANT[key]: {"value": present[key]} for key in pt.KEYS}


def tree_dir(name, tree, torch=True, counter=None):
    return pt.build_tree(Path(SCRATCH) / name, tree, torch, counter)


def snnplan_child(tree, steps, counter=None, isolated=True):
    """snnplan imported in a fresh interpreter, PYTHONPATH = the tree (if any) then the package."""
    job = {"subject": "snnplan", "steps": steps}
    if counter:
        job["counter"] = str(counter)
    STATS["children"] += 1
    return pt.run_child(sys.executable, job, ([tree] if tree else []) + SNNPLAN_PATH, isolated=isolated)


def reference_child(tree, steps, counter=None, isolated=True):
    job = {"subject": "reference", "reference": str(REFERENCE), "steps": steps}
    if counter:
        job["counter"] = str(counter)
    STATS["children"] += 1
    return pt.run_child(sys.executable, job, [tree] if tree else [], isolated=isolated)


def parallel(function, items):
    with concurrent.futures.ThreadPoolExecutor(max_workers=min(8, os.cpu_count() or 2)) as pool:
        return list(pool.map(function, items))


class Base(unittest.TestCase):
    maxDiff = 4000

    def assertOutcomes(self, got, want, what):
        """Outcome lists equal, snnplan's notes aside; names the first differing call."""
        got = [pt.without_notes(o) for o in got]
        self.assertEqual(len(got), len(want), what)
        for k, (g, w) in enumerate(zip(got, want)):
            if g != w:
                self.fail(f"{what}: call #{k} differs\n  want: {json.dumps(w)}\n  got:  {json.dumps(g)}")
        STATS["outcomes"] += len(got)


class GoldenData(Base):
    def test_golden_is_made_from_these_trees_and_calls(self):
        self.assertEqual(GOLDEN["calls"], jsonable(pt.CALLS), "run tools/gen_probe_golden.py again")
        self.assertEqual(GOLDEN["explicit_calls"], jsonable(pt.EXPLICIT_CALLS), "run tools/gen_probe_golden.py again")
        self.assertEqual([{k: c[k] for k in ("name", "present", "torch", "tree")} for c in GOLDEN["combinations"]],
                         jsonable(pt.combinations()), "run tools/gen_probe_golden.py again")
        self.assertEqual([{k: v[k] for k in ("name", "tree")} for v in GOLDEN["raising"]], jsonable(pt.RAISING))
        self.assertEqual([{k: v[k] for k in ("name", "tree")} for v in GOLDEN["counted"]], jsonable(pt.COUNTED))
        # Every way an import can fail occurs for every import.
        ways = {(key, c["tree"][key]) for c in pt.combinations() if c["torch"] for key in pt.KEYS}
        self.assertEqual(ways, {(key, way) for key in pt.KEYS for way in pt.FAILURES + pt.PRESENCES})

    def test_golden_is_made_from_this_reference(self):
        if not REFERENCE:
            self.skipTest(f"no seed_reference.py in {ARGS.reference_dir}: golden data only")
        directory = Path(ARGS.reference_dir)
        self.assertEqual(hashlib.sha256((directory / "seed_reference.py").read_bytes()).hexdigest(),
                         GOLDEN["reference_sha256"], "seed_reference.py changed: run tools/gen_probe_golden.py again")
        # The restored probes are the seed's, line for line.
        pt.check_probe_block((directory / "seed_planner.txt").read_text(encoding="utf-8"))


class Combinations(Base):
    """The 16 trees: snnplan against the golden outcomes and the live reference."""

    @classmethod
    def setUpClass(cls):
        cls.combos = pt.combinations()
        cls.triggers = []

        def run(combination):
            i = int(combination["name"][1:])
            tree = tree_dir(combination["name"], combination["tree"], combination["torch"])
            # What probes first differs: availability(), a constant's first read, or a call.
            trigger = [{"do": "availability"}, {"do": "get", "name": pt.PROBES[i % 4][3]},
                       {"do": "calls", "calls": [pt.CALLS[i]]}][i % 3]
            steps = [{"do": "torch_loaded"}, {"do": "calls", "calls": pt.EXPLICIT_CALLS}, {"do": "torch_loaded"},
                     trigger, {"do": "torch_loaded"}, {"do": "availability"}, {"do": "constants"},
                     {"do": "calls", "calls": pt.CALLS}, {"do": "calls", "calls": pt.EXPLICIT_CALLS}]
            mine = snnplan_child(tree, steps)
            theirs = None
            if REFERENCE:
                theirs = reference_child(tree, [{"do": "constants"}, {"do": "calls", "calls": pt.CALLS},
                                                {"do": "calls", "calls": pt.EXPLICIT_CALLS}])
            return trigger, mine, theirs
        cls.results = parallel(run, cls.combos)

    def test_import_is_lazy(self):
        for combination, (_trigger, mine, _theirs) in zip(self.combos, self.results):
            with self.subTest(combination["name"]):
                self.assertEqual(mine[0], {"ok": True, "torch_loaded": False}, "import snnplan imported torch")
                self.assertFalse(mine[1], "torch imported before any probe")
                self.assertFalse(mine[3], "calls with all four arguments given imported torch")
                self.assertEqual(mine[5], combination["torch"], "the first probe did not import torch")

    def test_values_and_calls_are_the_references(self):
        for combination, (trigger, mine, _theirs) in zip(self.combos, self.results):
            present = combination["present"]
            with self.subTest(combination["name"], trigger=trigger["do"]):
                if trigger["do"] == "availability":
                    self.assertEqual(mine[4], {"value": values(present)})
                elif trigger["do"] == "get":
                    key = next(p[0] for p in pt.PROBES if p[3] == trigger["name"])
                    self.assertEqual(mine[4], {"value": present[key]})
                else:
                    self.assertOutcomes(mine[4], [golden_calls(present)[int(combination["name"][1:])]], "first call")
                self.assertEqual(mine[6], {"value": values(present)}, "availability()")
                self.assertEqual(mine[7], constants(present), "the four constants")
                recorded = next(c for c in GOLDEN["combinations"] if c["name"] == combination["name"])
                self.assertEqual({k: v["value"] for k, v in mine[7].items()}, recorded["constants"])
                self.assertOutcomes(mine[8], golden_calls(present), f"{combination['name']}: CALLS")

    def test_explicit_arguments_win(self):
        """EXPLICIT_CALLS give the same outcomes under every tree, before and after the probe."""
        for combination, (_trigger, mine, _theirs) in zip(self.combos, self.results):
            with self.subTest(combination["name"]):
                self.assertOutcomes(mine[2], golden_explicit(), "explicit calls before the probe")
                self.assertOutcomes(mine[9], golden_explicit(), "explicit calls after the probe")

    def test_live_reference(self):
        if not REFERENCE:
            self.skipTest("no seed_reference.py: compared with the golden data only")
        for combination, (_trigger, mine, theirs) in zip(self.combos, self.results):
            with self.subTest(combination["name"]):
                self.assertEqual(theirs[0].get("ok"), True, theirs[0])
                self.assertEqual(theirs[1], mine[7], "the four constants")
                self.assertOutcomes(mine[8], theirs[2], "CALLS against the live reference")
                self.assertOutcomes(mine[9], theirs[3], "EXPLICIT_CALLS against the live reference")
                STATS["live"] += len(theirs[2]) + len(theirs[3])


class Monkeypatch(Base):
    """snnplan.FSDP2_AVAILABLE = x before or after the probe is heard by the calls that leave
    fsdp2_available at None, as the reference hears `reference.FSDP2_AVAILABLE = x`; what the
    reference then answers is the golden answer of the tree with that value."""

    NAMES = ("c15", "c00", "c06", "c09")
    SCENARIOS = ("before the probe", "after availability()", "after a constant's first read", "after a call")

    def test_setting_fsdp2_available(self):
        combos = [c for c in pt.combinations() if c["name"] in self.NAMES]
        jobs = [(c, s) for c in combos for s in self.SCENARIOS]

        def run(job):
            combination, scenario = job
            present = combination["present"]
            flipped = not present["fsdp2"]
            first = {"before the probe": [], "after availability()": [{"do": "availability"}],
                     "after a constant's first read": [{"do": "get", "name": "PIPELINING_AVAILABLE"}],
                     "after a call": [{"do": "calls", "calls": [pt.CALLS[6]]}]}[scenario]
            steps = first + [
                {"do": "set", "name": "FSDP2_AVAILABLE", "value": flipped}, {"do": "torch_loaded"},
                {"do": "calls", "calls": pt.CALLS}, {"do": "availability"}, {"do": "constants"},
                {"do": "set", "name": "FSDP2_AVAILABLE", "value": not flipped}, {"do": "calls", "calls": pt.CALLS},
                {"do": "set", "name": "FSDP2_AVAILABLE", "value": int(flipped)}, {"do": "calls", "calls": pt.CALLS}]
            tree = tree_dir(f"patch-{combination['name']}-{self.SCENARIOS.index(scenario)}", combination["tree"],
                            combination["torch"])
            mine = snnplan_child(tree, steps)
            theirs = reference_child(tree, steps[len(first):]) if REFERENCE and not first else None
            return mine, theirs, len(first)
        for (combination, scenario), (mine, theirs, skip) in zip(jobs, parallel(run, jobs)):
            present = combination["present"]
            flipped = dict(present, fsdp2=not present["fsdp2"])
            with self.subTest(combination["name"], scenario=scenario):
                mine = mine[1 + skip:]
                if scenario == "before the probe":
                    self.assertFalse(mine[1], "setting a constant probed")
                self.assertOutcomes(mine[2], golden_calls(flipped), "calls after setting FSDP2_AVAILABLE")
                self.assertEqual(mine[3], {"value": values(present)}, "availability() is the probe's")
                self.assertEqual(mine[4], dict(constants(present), FSDP2_AVAILABLE={"value": flipped["fsdp2"]}),
                                 "the constants after the probe")
                self.assertOutcomes(mine[6], golden_calls(present), "calls after setting it back")
                self.assertOutcomes(mine[8], golden_calls(flipped), "calls after setting it to an int")
                if theirs is not None:  # the reference, set after its import
                    theirs = theirs[1:]
                    for k in (2, 6, 8):
                        self.assertOutcomes(mine[k], theirs[k], "against the live reference")
                        STATS["live"] += len(theirs[k])


class ProbeOnce(Base):
    """The probe runs once: the modules of these trees that raise ImportError would run again at
    a second probe; they count their executions in a file, as the reference's import runs them."""

    def test_once(self):
        firsts = ({"do": "threads", "n": 8, "what": "availability"}, {"do": "threads", "n": 8, "what": "call"},
                  {"do": "threads", "n": 8, "what": "constant"})
        jobs = [(variant, first) for variant in GOLDEN["counted"] for first in firsts]

        def run(job):
            variant, first = job
            name = f"once-{variant['name']}-{first['what']}"
            counter = Path(SCRATCH) / f"{name}.counter"
            tree = tree_dir(name, variant["tree"], counter=counter)
            steps = [{"do": "counter"}, first, {"do": "availability"}, {"do": "availability"}, {"do": "constants"},
                     {"do": "calls", "calls": pt.CALLS}, {"do": "calls", "calls": pt.CALLS}, {"do": "counter"}]
            mine = snnplan_child(tree, steps, counter=counter)
            theirs = None
            if REFERENCE:
                live_counter = Path(SCRATCH) / f"{name}.reference.counter"
                theirs = reference_child(tree_dir(name + "-reference", variant["tree"], counter=live_counter),
                                         [{"do": "calls", "calls": pt.CALLS}, {"do": "counter"}], counter=live_counter)
            return mine, theirs
        for (variant, first), (mine, theirs) in zip(jobs, parallel(run, jobs)):
            present = {key: variant["constants"][pt.CONSTANT[key]] for key in pt.KEYS}
            with self.subTest(variant["name"], first=first["what"]):
                self.assertEqual(mine[1], [], "import snnplan executed modules of the tree")
                if first["what"] == "call":
                    self.assertOutcomes(mine[2], [golden_calls(present)[6]] * 8, "calls from 8 threads")
                else:
                    self.assertEqual(mine[2], [{"value": values(present) if first["what"] == "availability"
                                                else present["fsdp2"]}] * 8, "8 threads")
                self.assertEqual(mine[3], {"value": values(present)})
                self.assertOutcomes(mine[6], golden_calls(present), "calls")
                self.assertEqual(mine[-1], variant["executed"], "the tree's modules did not run once each, as the "
                                                                "reference's import runs them")
                if theirs is not None:
                    self.assertEqual(mine[-1], theirs[-1], "against the live reference")


class Raising(Base):
    """A probe raising something other than ImportError: the reference's import raises it; so
    do snnplan's availability(), constants and every call that leaves an argument at None (each
    time), while calls that give all four arguments are answered."""

    def test_raising(self):
        def run(variant):
            tree = tree_dir(f"raise-{variant['name']}", variant["tree"])
            steps = [{"do": "torch_loaded"}, {"do": "availability"}, {"do": "availability"}, {"do": "constants"},
                     {"do": "calls", "calls": pt.CALLS}, {"do": "calls", "calls": pt.EXPLICIT_CALLS}]
            mine = snnplan_child(tree, steps)
            theirs = reference_child(tree, []) if REFERENCE else None
            return mine, theirs
        any_tree = golden_calls(pt.combinations()[15]["present"])
        for variant, (mine, theirs) in zip(GOLDEN["raising"], parallel(run, GOLDEN["raising"])):
            error = variant["import_error"]
            with self.subTest(variant["name"]):
                if theirs is not None:
                    self.assertEqual(theirs[0], {"error": error}, "the live reference's import")
                self.assertEqual(mine[0], {"ok": True, "torch_loaded": False})
                self.assertFalse(mine[1])
                for got in (mine[2], mine[3]):
                    self.assertEqual(pt.without_notes(got), {"error": error}, "availability()")
                    self.assertTrue(got["error"].get("notes"), "no note saying snnplan was probing")
                self.assertEqual({k: pt.without_notes(v) for k, v in mine[4].items()},
                                 {pt.CONSTANT[k]: {"error": error} for k in pt.KEYS}, "the constants")
                want = [{"error": error} if pt.leaves_none(call) else any_tree[k] for k, call in enumerate(pt.CALLS)]
                self.assertOutcomes(mine[5], want, "CALLS")
                self.assertOutcomes(mine[6], golden_explicit(), "EXPLICIT_CALLS")


# ---------------------------------------------------------------------------------------------
# The command line

def flag(name):
    return "--" + name.replace("_", "-")


def cli_flags(call):
    """recommend's flags for a call given as kwargs (and positionals)."""
    kwargs = dict(zip(("model", "world_size", "prefer", "batch_size", "backend") + pt.ARGUMENTS, call["args"]))
    kwargs.update(call["kwargs"])
    out = []
    for name, value in kwargs.items():
        if value is None:
            continue
        out += [flag(name), ("true" if value else "false") if isinstance(value, bool) else str(value)]
    return out


def explicit_flags(present):
    return [x for name in pt.ARGUMENTS for x in (flag(name), "true" if present[pt.KEY_OF_ARGUMENT[name]] else "false")]


def run_cli(args, tree=None, stdin=None, path=None):
    env = {k: v for k, v in os.environ.items() if k != "PYTHONPATH"}
    if tree is not None:
        env["PYTHONPATH"] = str(tree)
    if path is not None:
        env["PATH"] = path
    STATS["cli"] += 1
    ran = subprocess.run([ARGS.cli] + args, env=env, input=stdin, capture_output=True, text=True, timeout=120)
    return ran.returncode, ran.stdout, ran.stderr


def probe_line(python, present, torch=True):
    found = " ".join(f"{name}={'true' if present[pt.KEY_OF_ARGUMENT[name]] else 'false'}" for name in pt.ARGUMENTS)
    return f"snnplan: probed PyTorch with {python} ({'torch ' + pt.FAKE_VERSION if torch else 'no torch'}): {found}"


class CommandLine(Base):
    @classmethod
    def setUpClass(cls):
        if not ARGS.cli:
            raise unittest.SkipTest("no --cli")
        cls.trees = {c["name"]: (c, tree_dir(f"cli-{c['name']}", c["tree"], c["torch"])) for c in pt.combinations()}
        # An interpreter that runs without site-packages, so that no real torch is seen beside
        # the tree: a wrapper; the probe names the interpreter that answered (sys.executable).
        cls.isolated = Path(SCRATCH) / "python-isolated"
        cls.isolated.write_text(f"#!/bin/sh\nexec {sys.executable} -S \"$@\"\n", encoding="utf-8")
        cls.isolated.chmod(0o755)

    def python_for(self, combination):
        return str(self.isolated) if not combination["torch"] else sys.executable

    def test_recommend_as_with_the_probed_values_given(self):
        picks = [6, 13, 24, 20, 31, 36, 33]  # speed, memory, capacity, a refused batch size, a fallback, backend, case
        for name in ("c00", "c15", "c05", "c10", "c06"):
            combination, tree = self.trees[name]
            present = combination["present"]
            want_calls = golden_calls(present)
            for n, k in enumerate(picks):
                call = pt.CALLS[k]
                self.assertTrue(pt.leaves_none(call))
                python = self.python_for(combination)
                probe = ["--probe-torch", python] if n % 2 == 0 else [f"--probe-torch={python}"]
                with self.subTest(name, call=k):
                    rc, out, err = run_cli(["recommend"] + cli_flags(call) + probe, tree)
                    rc_x, out_x, err_x = run_cli(["recommend"] + cli_flags(call) + explicit_flags(present))
                    self.assertEqual((rc, out), (rc_x, out_x))
                    self.assertEqual(err, probe_line(sys.executable, present, combination["torch"]) + "\n" + err_x)
                    want = want_calls[k]
                    if "record" in want:
                        self.assertEqual(rc, 0)
                        self.assertEqual(json.loads(out), want["record"], "against the reference's golden record")
                    else:
                        self.assertEqual(rc, 1, err)
                        self.assertIn(want["error"]["message"], err_x)
                    STATS["outcomes"] += 1

    def test_explain(self):
        combination, tree = self.trees["c10"]
        for k in (6, 24):
            call = pt.CALLS[k]
            rc, out, err = run_cli(["explain"] + cli_flags(call) + ["--probe-torch", sys.executable], tree)
            rc_x, out_x, err_x = run_cli(["explain"] + cli_flags(call) + explicit_flags(combination["present"]))
            self.assertEqual((rc, out), (rc_x, out_x))
            self.assertEqual(rc, 0)
            self.assertEqual(err, probe_line(sys.executable, combination["present"]) + "\n" + err_x)

    def test_explicit_flag_wins(self):
        combination, tree = self.trees["c06"]  # fsdp2 and tensor parallel absent
        present = combination["present"]
        self.assertEqual((present["fsdp2"], present["tensor_parallel"]), (False, False))
        call = ["--model", "cifar10dvs_vgg", "--world-size", "8", "--prefer", "speed", "--batch-size", "64"]
        given = ["--fsdp2-available", "true", "--tensor-parallel-available", "true"]
        rc, out, err = run_cli(["recommend"] + call + given + ["--probe-torch", sys.executable], tree)
        want = explicit_flags(dict(present, fsdp2=True, tensor_parallel=True))
        rc_x, out_x, _ = run_cli(["recommend"] + call + want)
        self.assertEqual((rc, out), (rc_x, out_x))
        self.assertEqual(json.loads(out)["mode"], "fsdp2_tp")
        self.assertEqual(err, probe_line(sys.executable, present) + "\n", "the probe line reports the probe")
        _, probed_only, _ = run_cli(["recommend"] + call + ["--probe-torch", sys.executable], tree)
        self.assertEqual(json.loads(probed_only)["mode"], "dp")
        # ... and false wins over a present import.
        combination, tree = self.trees["c15"]
        rc, out, _ = run_cli(["recommend"] + call + ["--tensor-parallel-available", "false", "--probe-torch",
                                                     sys.executable], tree)
        self.assertEqual(json.loads(out)["mode"], "dp")

    def test_batch(self):
        combination, tree = self.trees["c06"]
        present = combination["present"]
        base = {"model": "cifar10dvs_vgg", "world_size": 8, "batch_size": 64}
        lines = [dict(base, prefer="speed"), dict(base, prefer="speed", fsdp2_available=None),
                 dict(base, prefer="speed", fsdp2_available=True, tensor_parallel_available=True),
                 dict(base, prefer="capacity", pipelining_available=False), dict(base, prefer="fast"),
                 dict(base, prefer="memory", model="spikformer_8_384", zero_redundancy_optimizer_available=None),
                 dict(base, prefer="capacity", batch_size=1, zero_redundancy_optimizer_available=False,
                      pipelining_available=True, fsdp2_available=True, tensor_parallel_available=False)]
        filled = [dict(line, **{n: present[pt.KEY_OF_ARGUMENT[n]] for n in pt.ARGUMENTS if line.get(n) is None})
                  for line in lines]
        text = "".join(json.dumps(line) + "\n" for line in lines)
        want = run_cli(["recommend", "--batch", "-"], stdin="".join(json.dumps(line) + "\n" for line in filled))
        for jobs in ([], ["--jobs", "3"]):
            with self.subTest(jobs=jobs):
                rc, out, err = run_cli(["recommend", "--batch", "-", "--probe-torch", sys.executable] + jobs, tree,
                                       stdin=text)
                self.assertEqual((rc, out), want[:2])
                self.assertEqual(rc, 1)  # the refused line
                self.assertEqual(err, probe_line(sys.executable, present) + "\n" + want[2])
                self.assertEqual(len(out.splitlines()), len(lines))

    def test_default_interpreter_is_python3_on_path(self):
        combination, tree = self.trees["c05"]
        bin_dir = Path(SCRATCH) / "bin"
        bin_dir.mkdir(exist_ok=True)
        link = bin_dir / "python3"
        if not link.exists():
            link.symlink_to(sys.executable)
        rc, out, err = run_cli(["recommend", "--model", "resnet18", "--world-size", "4", "--prefer", "memory",
                                "--batch-size", "8", "--probe-torch"], tree,
                               path=f"{bin_dir}{os.pathsep}{os.environ.get('PATH', '')}")
        self.assertEqual(rc, 0, err)
        line = err.splitlines()[0]
        named = line.split("snnplan: probed PyTorch with ", 1)[1].split(" (", 1)[0]
        self.assertEqual(os.path.realpath(named), os.path.realpath(sys.executable), line)
        self.assertEqual(line, probe_line(named, combination["present"]))

    def test_missing_or_failing_interpreter(self):
        call = ["recommend", "--model", "resnet18", "--world-size", "4", "--prefer", "memory", "--batch-size", "8"]
        for python in ("/nonexistent/python3", "snnplan-no-such-python"):
            with self.subTest(python):
                rc, out, err = run_cli(call + ["--probe-torch", python])
                self.assertEqual((rc, out), (2, ""))
                self.assertEqual(err, f"error: --probe-torch: cannot run {python}: No such file or directory\n")
        false, true = shutil.which("false"), shutil.which("true")
        rc, out, err = run_cli(call + ["--probe-torch", false])
        self.assertEqual((rc, out, err), (2, "", f"error: --probe-torch: probing PyTorch with {false} failed "
                                                 "(exit 1): no output\n"))
        rc, out, err = run_cli(call + ["--probe-torch", true])
        self.assertEqual((rc, out), (2, ""))
        self.assertTrue(err.startswith(f"error: --probe-torch: {true} did not answer the probe as expected"), err)

    def test_probe_raising(self):
        call = ["recommend", "--model", "resnet18", "--world-size", "4", "--prefer", "memory", "--batch-size", "8"]
        for variant in GOLDEN["raising"]:
            with self.subTest(variant["name"]):
                tree = tree_dir(f"cli-raise-{variant['name']}", variant["tree"])
                error = variant["import_error"]
                rc, out, err = run_cli(call + ["--probe-torch", sys.executable], tree)
                self.assertEqual((rc, out), (2, ""))
                self.assertEqual(err, f"error: --probe-torch: probing PyTorch with {sys.executable} failed (exit 1): "
                                      f"{error['type']}: {error['message']}\n")


# ---------------------------------------------------------------------------------------------
# The real PyTorch (--real-torch)

class RealTorch(Base):
    """This interpreter's own PyTorch (its site-packages): snnplan as the reference."""

    @classmethod
    def setUpClass(cls):
        ran = subprocess.run([sys.executable, "-c", "import torch"], capture_output=True, text=True)
        if ran.returncode != 0:
            raise AssertionError(f"{sys.executable} cannot import torch: install python3-torch "
                                 f"(tools/deps.sh installs it):\n{ran.stderr[-2000:]}")
        steps = [{"do": "torch_loaded"}, {"do": "availability"}, {"do": "availability"}, {"do": "constants"},
                 {"do": "calls", "calls": pt.CALLS}, {"do": "calls", "calls": pt.EXPLICIT_CALLS}, {"do": "versions"}]
        try:
            cls.mine = snnplan_child(None, steps, isolated=False)
        except RuntimeError as error:
            raise AssertionError(f"snnplan (PYTHONPATH={os.pathsep.join(SNNPLAN_PATH)}) does not import in "
                                 f"{sys.executable}: build the module for it (-DPython3_EXECUTABLE) or one of the "
                                 f"same extension suffix\n{error}") from None
        cls.versions = cls.mine[7]
        cls.theirs = None
        if REFERENCE:
            cls.theirs = reference_child(None, [{"do": "constants"}, {"do": "calls", "calls": pt.CALLS}],
                                         isolated=False)
        print(f"\nreal torch: Python {cls.versions['python']} ({sys.executable}), torch {cls.versions['torch']} "
              f"({cls.versions['torch_distribution']}); snnplan's probe: "
              f"{json.dumps(cls.mine[2])[:300]}", file=sys.stderr)

    def probed(self):
        """("error", error) or ("values", present) from snnplan's availability()."""
        got = self.mine[2]
        if "error" in got:
            return "error", pt.without_notes(got)["error"]
        return "values", {pt.KEY_OF_ARGUMENT[n]: v for n, v in got["value"].items()}

    def check_against(self, imported, reference_constants, reference_calls, what):
        """snnplan against a reference run: its import result, constants and outcomes of CALLS."""
        kind, found = self.probed()
        if "error" in imported:
            self.assertEqual(kind, "error", f"{what}: the reference's import raised {imported['error']}, "
                                            f"snnplan probed {found}")
            self.assertEqual(found, imported["error"], what)
        else:
            self.assertEqual(kind, "values", f"{what}: the reference imported, snnplan's probe raised {found}")
            self.assertEqual(self.mine[4], reference_constants, what)
            self.assertOutcomes(self.mine[5], reference_calls, what)

    def test_import_is_lazy(self):
        self.assertEqual(self.mine[0], {"ok": True, "torch_loaded": False}, "import snnplan imported torch")
        self.assertFalse(self.mine[1])

    def test_consistent_with_its_own_probe(self):
        """Needs no recorded data: whatever this torch offers, every call is answered as the
        reference answers under the fake tree with the same values, or raises the probe's error."""
        kind, found = self.probed()
        self.assertEqual(pt.without_notes(self.mine[3]), pt.without_notes(self.mine[2]), "a second availability()")
        if kind == "error":
            self.assertTrue(self.mine[2]["error"].get("notes"))
            self.assertEqual({k: pt.without_notes(v) for k, v in self.mine[4].items()},
                             {pt.CONSTANT[k]: {"error": found} for k in pt.KEYS})
            any_tree = golden_calls(pt.combinations()[15]["present"])
            want = [{"error": found} if pt.leaves_none(c) else any_tree[k] for k, c in enumerate(pt.CALLS)]
        else:
            self.assertEqual(self.mine[4], constants(found))
            want = golden_calls(found)
        self.assertOutcomes(self.mine[5], want, "CALLS")
        self.assertOutcomes(self.mine[6], golden_explicit(), "EXPLICIT_CALLS")

    def test_live_reference(self):
        if self.theirs is None:
            self.skipTest("no seed_reference.py: compared with real_torch.json instead")
        constants_ = self.theirs[1] if self.theirs[0].get("ok") else None
        self.check_against(self.theirs[0], constants_, self.theirs[2] if constants_ else None, "live reference")
        STATS["live"] += len(pt.CALLS) if constants_ else 1  # the calls, or the import's error

    def test_recorded_reference(self):
        if REAL is None:
            self.fail("tests/data/probe/real_torch.json is missing: run tools/gen_probe_golden.py where "
                      "/usr/bin/python3 has torch")
        same = (REAL["torch"], REAL["torch_distribution"], REAL["python"].rsplit(".", 1)[0]) == (
            self.versions["torch"], self.versions["torch_distribution"], self.versions["python"].rsplit(".", 1)[0])
        if not same:
            print(f"\nreal_torch.json was recorded with torch {REAL['torch']} on Python {REAL['python']}, this is "
                  f"torch {self.versions['torch']} on Python {self.versions['python']}: only the checks that need "
                  "no recorded data were made", file=sys.stderr)
            return
        reference = REAL["reference"]
        self.check_against(reference["import"], {k: {"value": v} for k, v in reference.get("constants", {}).items()},
                           reference.get("calls"), "real_torch.json")

    def test_cli(self):
        if not ARGS.cli:
            self.skipTest("no --cli")
        call = ["recommend", "--model", "cifar10dvs_vgg", "--world-size", "8", "--prefer", "speed",
                "--batch-size", "64"]
        env_tree = os.environ.get("PYTHONPATH")  # the package only: the probe sees the real torch
        rc, out, err = run_cli(call + ["--probe-torch", sys.executable], env_tree)
        kind, found = self.probed()
        if kind == "error":
            self.assertEqual((rc, out), (2, ""))
            self.assertEqual(err, f"error: --probe-torch: probing PyTorch with {sys.executable} failed (exit 1): "
                                  f"{found['type']}: {found['message']}\n")
        else:
            rc_x, out_x, err_x = run_cli(call + explicit_flags(found))
            self.assertEqual((rc, out), (rc_x, out_x))
            self.assertEqual(err, probe_line(sys.executable, found).replace(
                f"torch {pt.FAKE_VERSION}", f"torch {self.versions['torch']}") + "\n" + err_x)


def main():
    global ARGS, GOLDEN, REAL, SCRATCH, REFERENCE, SNNPLAN_PATH
    parser = argparse.ArgumentParser()
    parser.add_argument("--golden-dir", required=True, help="tests/data/probe")
    parser.add_argument("--reference-dir", help="../shared/reference (optional: the live reference)")
    parser.add_argument("--cli", help="the snnplan executable")
    parser.add_argument("--real-torch", action="store_true", help="the checks under this interpreter's real torch")
    ARGS = parser.parse_args()
    golden_dir = Path(ARGS.golden_dir)
    GOLDEN = json.loads((golden_dir / "golden.json").read_text(encoding="utf-8"))
    if (golden_dir / "real_torch.json").exists():
        REAL = json.loads((golden_dir / "real_torch.json").read_text(encoding="utf-8"))
    SNNPLAN_PATH = [p for p in os.environ.get("PYTHONPATH", "").split(os.pathsep) if p]
    if not SNNPLAN_PATH:
        sys.exit("PYTHONPATH must name the built package (build/python)")
    started = time.perf_counter()
    with tempfile.TemporaryDirectory(prefix="snnplan-probe-test-") as scratch:
        SCRATCH = scratch
        if ARGS.reference_dir and (Path(ARGS.reference_dir) / "seed_reference.py").exists():
            REFERENCE = Path(scratch) / "seed_reference_probed.py"
            REFERENCE.write_text(pt.restored_reference(
                (Path(ARGS.reference_dir) / "seed_reference.py").read_text(encoding="utf-8")), encoding="utf-8")
        else:
            print(f"note: no seed_reference.py in {ARGS.reference_dir}: comparing with the golden data only",
                  file=sys.stderr)
        loader = unittest.TestLoader()
        classes = [RealTorch] if ARGS.real_torch else [GoldenData, Combinations, Monkeypatch, ProbeOnce, Raising,
                                                       CommandLine]
        suite = unittest.TestSuite(loader.loadTestsFromTestCase(c) for c in classes)
        result = unittest.TextTestRunner(verbosity=2).run(suite)
    elapsed = time.perf_counter() - started
    mode = "real torch" if ARGS.real_torch else f"{len(GOLDEN['combinations'])} combinations"
    print(f"{'ok' if result.wasSuccessful() else 'FAIL'}: {mode}, {len(pt.CALLS)} calls + {len(pt.EXPLICIT_CALLS)} "
          f"explicit calls; {STATS['outcomes']} outcomes checked against the golden data, {STATS['live']} against "
          f"the live reference{'' if REFERENCE else ' (absent)'}; {STATS['children']} interpreters, "
          f"{STATS['cli']} CLI runs, in {elapsed:.1f} s")
    return 0 if result.wasSuccessful() else 1


if __name__ == "__main__":
    sys.exit(main())
