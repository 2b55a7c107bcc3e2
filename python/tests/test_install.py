"""The package as users install it, checked from outside the source tree:

  1. docs/embedding.md's `pip install --no-build-isolation .` (plus --no-index: offline) in a clean
     venv of each of: the python3 first on PATH (resolved, e.g. through a pyenv shim), the Python
     the module is built for, and Debian's /usr/bin/python3 when it is another interpreter with
     the venv module (that one with --system-site-packages, so with Debian's setuptools and
     wheel). A plain venv has pip but never wheel (ensurepip does not install it), and the test
     asserts so: that is the case setuptools' bdist_wheel could not build (issue 35);
  2. `python3 -m build --no-isolation --wheel` where an interpreter has python3-build: the wheel's
     name, WHEEL and RECORD (every file listed with its sha256 and size);
  3. `cmake --install BUILD --component snnplan_python --prefix SCRATCH/prefix`.

pip and build work on an sdist of the checkout that python/build_backend.py writes and this
test unpacks in SCRATCH/src (so nothing is written into the checkout). SNNPLAN_CMAKE_BUILD_DIR
points the backend at this build tree when the tree's extension suffix is the venv's (the
extension is then not compiled a second time); otherwise the backend builds its own tree.

For each install: the package imports from there (not from the build tree), importlib.metadata
knows its version, the installed files are python/snnplan's (*.py, *.pyi, py.typed) and the
extension, a recommendation works, and `python -m snnplan` runs the CLI (exit code 0 for a
recommendation, 2 for a bad flag). The test runs with the Python the build tree is for.

  python3 test_install.py --source-dir . --build-dir build --scratch build/python/install-test --version 0.1.0
"""
import argparse
import base64
import csv
import hashlib
import io
import json
import os
import shutil
import subprocess
import sys
import sysconfig
import tarfile
import time
import zipfile
from pathlib import Path

CHECK = """
import importlib.metadata, json, os, sys
import snnplan
where = os.path.dirname(snnplan.__file__)
assert where.startswith(sys.argv[1]), (where, sys.argv[1])
expected = set(json.loads(sys.argv[3]))
installed = {n for n in os.listdir(where) if n != "__pycache__"}
assert installed == expected, ("installed", sorted(installed), "expected", sorted(expected))
version = importlib.metadata.version("snnplan")
assert version == sys.argv[2] == snnplan.__version__, (version, sys.argv[2], snnplan.__version__)
assert importlib.metadata.metadata("snnplan")["Name"] == "snnplan"
# The four availabilities given, not probed from whatever PyTorch the venv sees (none, or
# Debian's through --system-site-packages): this checks the installed package, not the probe.
rec = snnplan.recommend_snn_distributed_strategy("vgg", 8, "speed", 64, zero_redundancy_optimizer_available=True,
                                                 pipelining_available=True, fsdp2_available=True,
                                                 tensor_parallel_available=True)
assert (rec.mode, rec.optimizer_sharding) == ("dp", "zero"), rec
print("imported from", where, "version", version)
"""

PROBE = """
import importlib.metadata, importlib.util, json, sys, sysconfig
def version(name):
    if importlib.util.find_spec(name) is None:
        return None
    try:
        return importlib.metadata.version(name)
    except importlib.metadata.PackageNotFoundError:
        return "?"
print(json.dumps({"executable": sys.executable, "suffix": sysconfig.get_config_var("EXT_SUFFIX"),
                  "wheel": version("wheel"), "setuptools": version("setuptools"), "pip": version("pip"),
                  "build": version("build")}))
"""


def run(command, **kwargs):
    print("$", " ".join(str(c) for c in command), flush=True)
    return subprocess.run([str(c) for c in command], check=False, **kwargs)


def clean_env(**extra):
    """The environment without what would point Python or pip elsewhere."""
    env = {k: v for k, v in os.environ.items()
           if k not in ("PYTHONPATH", "PYTHONHOME", "VIRTUAL_ENV", "SNNPLAN_CMAKE_BUILD_DIR")
           and not k.startswith("PIP_")}
    env.update(PYTHONNOUSERSITE="1", PYTHONDONTWRITEBYTECODE="1", **extra)
    return env


def probe(python, cwd):
    out = run([python, "-c", PROBE], cwd=cwd, env=clean_env(), capture_output=True, text=True)
    if out.returncode != 0:
        print(out.stderr)
        return None
    return json.loads(out.stdout)


def check_installed(python, site, scratch, version, expected, env):
    failures = []
    if run([python, "-c", CHECK, str(site), version, json.dumps(sorted(expected))], cwd=scratch, env=env).returncode:
        failures.append(f"import from {site}")
    cli = run([python, "-m", "snnplan", "recommend", "--model", "vgg", "--world-size", "8", "--prefer",
               "memory", "--batch-size", "64"], cwd=scratch, env=env, capture_output=True, text=True)
    if cli.returncode != 0 or "fsdp2_tp" not in cli.stdout:
        failures.append(f"python -m snnplan recommend: exit {cli.returncode}, {cli.stdout!r} {cli.stderr!r}")
    bad = run([python, "-m", "snnplan", "recommend", "--bogus"], cwd=scratch, env=env,
              capture_output=True, text=True)
    if bad.returncode != 2 or not bad.stderr.strip():
        failures.append(f"python -m snnplan recommend --bogus: exit {bad.returncode} (expected 2), {bad.stderr!r}")
    return failures


def unpack_sdist(source_dir, scratch):
    """SCRATCH/src: the sdist python/build_backend.py writes of the checkout, unpacked."""
    sys.path.insert(0, str(source_dir / "python"))
    try:
        import build_backend
    finally:
        sys.path.pop(0)
    failures = []
    try:
        import tomllib
    except ModuleNotFoundError:
        print("no tomllib here: the backend's TOML reader is not compared with it")
    else:
        text = (source_dir / "pyproject.toml").read_text(encoding="utf-8")
        if build_backend.parse_toml(text) != tomllib.loads(text):
            failures.append("python/build_backend.py reads pyproject.toml otherwise than tomllib "
                            f"(as Python < 3.11 would): {build_backend.parse_toml(text)} != {tomllib.loads(text)}")
    name = build_backend.build_sdist(str(scratch))
    with tarfile.open(scratch / name) as tar:
        tar.extractall(scratch, **({"filter": "data"} if hasattr(tarfile, "data_filter") else {}))
    source = scratch / "src"
    (scratch / name[:-len(".tar.gz")]).rename(source)
    expected = {Path(p).name for p in build_backend.package_files()}
    return source, expected, failures


def check_wheel(path, version, tag):
    """A wheel file as PEP 427 has it: name, WHEEL, and a RECORD that lists every file's hash."""
    failures = []
    if path.name != f"snnplan-{version}-{tag}.whl":
        failures.append(f"wheel {path.name}: expected snnplan-{version}-{tag}.whl")
    dist_info = f"snnplan-{version}.dist-info"
    with zipfile.ZipFile(path) as wheel:
        names = wheel.namelist()
        record = list(csv.reader(io.StringIO(wheel.read(f"{dist_info}/RECORD").decode())))
        listed = {row[0] for row in record}
        if listed != set(names):
            failures.append(f"RECORD lists {sorted(listed ^ set(names))} otherwise than the archive has them")
        for name, digest, size in record:
            if name == f"{dist_info}/RECORD":
                continue
            data = wheel.read(name)
            want = "sha256=" + base64.urlsafe_b64encode(hashlib.sha256(data).digest()).rstrip(b"=").decode()
            if digest != want or size != str(len(data)):
                failures.append(f"RECORD: {name} {digest} {size}, the file is {want} {len(data)}")
        fields = wheel.read(f"{dist_info}/WHEEL").decode().splitlines()
        for line in ("Wheel-Version: 1.0", "Root-Is-Purelib: false", f"Tag: {tag}"):
            if line not in fields:
                failures.append(f"WHEEL has no {line!r}: {fields}")
    return failures


def interpreters(source, build_python):
    """(label, interpreter, required, --system-site-packages), one per distinct interpreter."""
    cases = []
    on_path = shutil.which("python3")
    if on_path:
        cases.append((f"python3 on PATH ({on_path})", on_path, True, False))
    cases.append((f"the Python the module is built for ({build_python})", build_python, True, False))
    if Path("/usr/bin/python3").exists():
        cases.append(("Debian's /usr/bin/python3, venv --system-site-packages", "/usr/bin/python3", False, True))
    seen, unique, failures = set(), [], []
    if not on_path:
        failures.append("no python3 on PATH: docs/embedding.md's command needs one")
    for label, python, required, system in cases:
        info = probe(python, source)
        if info is None:
            (failures.append if required else print)(f"{label}: does not run")
            continue
        real = os.path.realpath(info["executable"])
        if real in seen:
            print(f"{label}: {real}, already a case")
            continue
        seen.add(real)
        unique.append((f"{label} -> {real}", python, required, system, info))
    return unique, failures


def pip_install(number, case, scratch, source, build_dir, tree_suffix, version, expected):
    label, python, required, system, info = case
    failures = []
    start = time.monotonic()
    venv = scratch / f"venv-{number}"
    made = run([python, "-m", "venv"] + (["--system-site-packages"] if system else []) + [venv],
               cwd=source, env=clean_env(), capture_output=True, text=True)
    if made.returncode != 0:
        message = f"{label}: python -m venv exited {made.returncode}: {made.stderr.strip()}"
        if required:
            return [message]
        print("skipped:", message)
        return []
    inside = probe(venv / "bin" / "python", source)
    if inside is None:
        return [f"{label}: the venv's python does not run"]
    print(f"== case: {label}: venv with pip {inside['pip']}, setuptools {inside['setuptools'] or 'absent'}, "
          f"wheel {inside['wheel'] or 'absent'}", flush=True)
    if not system and inside["wheel"]:
        failures.append(f"{label}: a clean venv with wheel {inside['wheel']}: this case would not show "
                        "that the build needs no wheel")
    env = clean_env()
    if inside["suffix"] == tree_suffix:
        env["SNNPLAN_CMAKE_BUILD_DIR"] = str(build_dir)
        print(f"extension suffix {tree_suffix}: reusing the build tree {build_dir}")
    else:
        print(f"extension suffix {inside['suffix']}, the build tree's is {tree_suffix}: the backend builds its own tree")
    # docs/embedding.md's command, plus --no-index: nothing may come from an index.
    pip = run([venv / "bin" / "pip", "install", "--no-build-isolation", "--no-index", source], cwd=scratch, env=env)
    if pip.returncode != 0:
        failures.append(f"{label}: pip install --no-build-isolation --no-index exited {pip.returncode}")
    else:
        failures += [f"{label}: {f}" for f in check_installed(venv / "bin" / "python", venv, scratch, version,
                                                               expected | {"_snnplan" + inside["suffix"]}, clean_env())]
    print(f"== case took {time.monotonic() - start:.1f} s", flush=True)
    return failures


def python_build(cases, scratch, source, build_dir, tree_suffix, version):
    """python3 -m build --no-isolation --wheel, with the first interpreter that has build."""
    for label, python, _, _, info in cases:
        if info["build"] and info["suffix"] == tree_suffix:
            break
    else:
        print("no interpreter with python3-build (and the build tree's suffix): python -m build not checked")
        return []
    start = time.monotonic()
    print(f"== case: python -m build --no-isolation --wheel with {label} (build {info['build']})", flush=True)
    out = scratch / "dist"
    built = run([python, "-m", "build", "--no-isolation", "--wheel", "--outdir", out, source], cwd=scratch,
                env=clean_env(SNNPLAN_CMAKE_BUILD_DIR=str(build_dir)))
    if built.returncode != 0:
        return [f"python -m build --no-isolation --wheel exited {built.returncode}"]
    tag = run([python, "-c", "import sys; sys.path.insert(0, sys.argv[1]); import build_backend; "
               "print(build_backend.wheel_tag())", source / "python"],
              capture_output=True, text=True, env=clean_env()).stdout.strip()
    wheels = sorted(out.glob("*.whl"))
    if len(wheels) != 1:
        return [f"python -m build wrote {wheels}"]
    failures = check_wheel(wheels[0], version, tag)
    print(f"{wheels[0].name}: {'checked' if not failures else 'FAILED'}; took {time.monotonic() - start:.1f} s")
    return failures


def main():
    parser = argparse.ArgumentParser()
    parser.add_argument("--source-dir", required=True, type=Path)
    parser.add_argument("--build-dir", required=True, type=Path)
    parser.add_argument("--scratch", required=True, type=Path)
    parser.add_argument("--version", required=True)
    args = parser.parse_args()

    scratch = args.scratch.resolve()
    build_dir = args.build_dir.resolve()
    shutil.rmtree(scratch, ignore_errors=True)
    scratch.mkdir(parents=True)
    # This test runs with the interpreter the build tree is configured for (python/CMakeLists.txt).
    tree_suffix = sysconfig.get_config_var("EXT_SUFFIX")

    source, expected, failures = unpack_sdist(args.source_dir.resolve(), scratch)
    cases, found = interpreters(source, sys.executable)
    failures += found
    for number, case in enumerate(cases):
        failures += pip_install(number, case, scratch, source, build_dir, tree_suffix, args.version, expected)
    failures += python_build(cases, scratch, source, build_dir, tree_suffix, args.version)

    print("== case: cmake --install --component snnplan_python", flush=True)
    prefix = scratch / "prefix"
    installed = run(["cmake", "--install", build_dir, "--component", "snnplan_python", "--prefix", prefix])
    platlib = sysconfig.get_path("platlib", "posix_prefix", vars={"base": str(prefix), "platbase": str(prefix)})
    if installed.returncode != 0:
        failures.append(f"cmake --install exited {installed.returncode}")
    else:
        failures += check_installed(sys.executable, Path(platlib), scratch, args.version,
                                    expected | {"_snnplan" + tree_suffix}, clean_env(PYTHONPATH=platlib))

    for failure in failures:
        print("FAIL:", failure)
    if not failures:
        shutil.rmtree(scratch, ignore_errors=True)
        print(f"ok: pip install --no-build-isolation in {len(cases)} clean venv(s), python -m build and "
              "cmake --install give an importable, versioned, typed package")
    return 1 if failures else 0


if __name__ == "__main__":
    sys.exit(main())
