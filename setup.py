"""Builds the extension snnplan._snnplan with this project's own CMake (pyproject.toml has the
metadata). Offline, with Debian's setuptools and wheel:

    pip install --no-build-isolation .
    python3 -m build --no-isolation --wheel

build_ext configures a build tree of its own (library and extension only, Release) for the
interpreter running it, unless SNNPLAN_CMAKE_BUILD_DIR names an existing, configured build tree
for the same interpreter: then it only brings target snnplan_python up to date there (what the
ctest packaging test does, so it does not compile the project a second time).
CMAKE_BUILD_PARALLEL_LEVEL sets the build's parallelism (default 2). Its own files go to build-pip/.
"""
import os
import re
import shutil
import subprocess
import sys
import sysconfig
from pathlib import Path

from setuptools import Extension, setup
from setuptools.command.build_ext import build_ext

ROOT = Path(__file__).resolve().parent


def project_version():
    """The one version number: CMakeLists.txt's project(snnplan VERSION x.y.z)."""
    text = (ROOT / "CMakeLists.txt").read_text(encoding="utf-8")
    match = re.search(r"project\(snnplan\s+VERSION\s+([0-9][0-9.]*)", text)
    if not match:
        sys.exit("setup.py: no 'project(snnplan VERSION ...)' in CMakeLists.txt")
    return match.group(1)


class CMakeExtension(Extension):
    def __init__(self, name, target):
        super().__init__(name, sources=[])
        self.target = target


class CMakeBuild(build_ext):
    def build_extension(self, ext):
        build_dir = os.environ.get("SNNPLAN_CMAKE_BUILD_DIR")
        if build_dir:
            build_dir = Path(build_dir).resolve()
            if not (build_dir / "CMakeCache.txt").is_file():
                sys.exit(f"setup.py: SNNPLAN_CMAKE_BUILD_DIR={build_dir} is not a configured CMake build tree")
        else:
            build_dir = Path(self.build_temp).resolve() / "cmake"
            self.configure(build_dir)
        jobs = os.environ.get("CMAKE_BUILD_PARALLEL_LEVEL", "2")
        subprocess.run(["cmake", "--build", str(build_dir), "--target", ext.target, "-j", jobs], check=True)
        suffix = sysconfig.get_config_var("EXT_SUFFIX")
        built = build_dir / "python" / "snnplan" / ("_snnplan" + suffix)
        if not built.is_file():
            found = sorted(p.name for p in (build_dir / "python" / "snnplan").glob("_snnplan*"))
            sys.exit(f"setup.py: {built} was not built (the build tree has {found or 'no extension'}): "
                     f"it was configured for another Python than {sys.executable}")
        target = Path(self.get_ext_fullpath(ext.name))
        target.parent.mkdir(parents=True, exist_ok=True)
        shutil.copyfile(built, target)
        # A build tree's extension may carry debug information (RelWithDebInfo: ~70 MB with the
        # CLI linked in); the installed package does without it.
        strip = shutil.which("strip")
        if strip:
            subprocess.run([strip, "--strip-debug", str(target)], check=True)

    @staticmethod
    def configure(build_dir):
        build_dir.mkdir(parents=True, exist_ok=True)
        off = ["SNNPLAN_BUILD_TESTS", "SNNPLAN_BUILD_EXAMPLES", "SNNPLAN_BUILD_BENCHMARKS", "SNNPLAN_INSTALL"]
        subprocess.run(["cmake", "-S", str(ROOT), "-B", str(build_dir), "-DCMAKE_BUILD_TYPE=Release",
                        "-DSNNPLAN_BUILD_PYTHON=ON", f"-DPython3_EXECUTABLE={sys.executable}"]
                       + [f"-D{option}=OFF" for option in off], check=True)


setup(version=project_version(),
      # Not build/: that is where the CMake build tree usually is.
      options={"build": {"build_base": "build-pip"}},
      ext_modules=[CMakeExtension("snnplan._snnplan", target="snnplan_python")],
      cmdclass={"build_ext": CMakeBuild})
