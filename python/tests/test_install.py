"""The package as users install it, checked from outside the source tree:

  1. `pip install --no-build-isolation --no-deps --no-index --target SCRATCH/site SRC` on a
     copy of the files the package is built from (so nothing is written into the checkout),
     with SNNPLAN_CMAKE_BUILD_DIR pointing setup.py at this build tree (the extension is not
     compiled a second time);
  2. `cmake --install BUILD --component snnplan_python --prefix SCRATCH/prefix`;

and for each: the package imports from there (not from the build tree), importlib.metadata
knows its version, py.typed and the stubs are installed, a recommendation works, and
`python -m snnplan` runs the CLI (exit code 0 for a recommendation, 2 for a bad flag).

  python3 test_install.py --source-dir . --build-dir build --scratch build/python/install-test --version 0.1.0
"""
import argparse
import os
import shutil
import subprocess
import sys
import sysconfig
from pathlib import Path

# What setup.py needs besides the package (CMakeLists.txt: the version).
SOURCE_FILES = ["pyproject.toml", "setup.py", "README.md", "CMakeLists.txt"]

CHECK = """
import importlib.metadata, os, sys
import snnplan
where = os.path.dirname(snnplan.__file__)
assert where.startswith(sys.argv[1]), (where, sys.argv[1])
for name in ("py.typed", "__init__.pyi", "__main__.py"):
    assert os.path.isfile(os.path.join(where, name)), name
version = importlib.metadata.version("snnplan")
assert version == sys.argv[2] == snnplan.__version__, (version, sys.argv[2], snnplan.__version__)
assert importlib.metadata.metadata("snnplan")["Name"] == "snnplan"
rec = snnplan.recommend_snn_distributed_strategy("vgg", 8, "speed", 64)
assert (rec.mode, rec.optimizer_sharding) == ("dp", "zero"), rec
print("imported from", where, "version", version)
"""


def run(command, **kwargs):
    print("$", " ".join(str(c) for c in command), flush=True)
    return subprocess.run(command, check=False, **kwargs)


def check_installed(site, scratch, version):
    env = {k: v for k, v in os.environ.items() if k not in ("PYTHONPATH", "PYTHONHOME")}
    env.update(PYTHONPATH=str(site), PYTHONNOUSERSITE="1", PYTHONDONTWRITEBYTECODE="1")
    failures = []
    if run([sys.executable, "-c", CHECK, str(site), version], cwd=scratch, env=env).returncode != 0:
        failures.append(f"import from {site}")
    cli = run([sys.executable, "-m", "snnplan", "recommend", "--model", "vgg", "--world-size", "8", "--prefer",
               "memory", "--batch-size", "64"], cwd=scratch, env=env, capture_output=True, text=True)
    if cli.returncode != 0 or "fsdp2_tp" not in cli.stdout:
        failures.append(f"python -m snnplan recommend: exit {cli.returncode}, {cli.stdout!r} {cli.stderr!r}")
    bad = run([sys.executable, "-m", "snnplan", "recommend", "--bogus"], cwd=scratch, env=env,
              capture_output=True, text=True)
    if bad.returncode != 2 or not bad.stderr.strip():
        failures.append(f"python -m snnplan recommend --bogus: exit {bad.returncode} (expected 2), {bad.stderr!r}")
    return failures


def main():
    parser = argparse.ArgumentParser()
    parser.add_argument("--source-dir", required=True, type=Path)
    parser.add_argument("--build-dir", required=True, type=Path)
    parser.add_argument("--scratch", required=True, type=Path)
    parser.add_argument("--version", required=True)
    args = parser.parse_args()

    scratch = args.scratch.resolve()
    shutil.rmtree(scratch, ignore_errors=True)
    source = scratch / "src"
    (source / "python").mkdir(parents=True)
    for name in SOURCE_FILES:
        shutil.copy2(args.source_dir / name, source / name)
    shutil.copytree(args.source_dir / "python" / "snnplan", source / "python" / "snnplan",
                    ignore=shutil.ignore_patterns("__pycache__", "*.so"))

    failures = []
    site = scratch / "site"
    env = dict(os.environ, SNNPLAN_CMAKE_BUILD_DIR=str(args.build_dir.resolve()))
    pip = run([sys.executable, "-m", "pip", "install", "--no-build-isolation", "--no-deps", "--no-index",
               "--disable-pip-version-check", "--target", str(site), str(source)], cwd=scratch, env=env)
    if pip.returncode != 0:
        failures.append(f"pip install exited {pip.returncode}")
    else:
        failures += check_installed(site, scratch, args.version)

    prefix = scratch / "prefix"
    installed = run(["cmake", "--install", str(args.build_dir), "--component", "snnplan_python", "--prefix", str(prefix)])
    platlib = sysconfig.get_path("platlib", "posix_prefix", vars={"base": str(prefix), "platbase": str(prefix)})
    if installed.returncode != 0:
        failures.append(f"cmake --install exited {installed.returncode}")
    else:
        failures += check_installed(Path(platlib), scratch, args.version)

    for failure in failures:
        print("FAIL:", failure)
    if not failures:
        shutil.rmtree(scratch, ignore_errors=True)
        print("ok: pip install and cmake --install both give an importable, versioned, typed package")
    return 1 if failures else 0


if __name__ == "__main__":
    sys.exit(main())
