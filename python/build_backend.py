"""The PEP 517 build backend of the Python package snnplan (pyproject.toml: backend-path "python").

Standard library only, so it builds offline with any python3 >= 3.9 that has pip, in a venv or
not, with or without setuptools and wheel:

    pip install --no-build-isolation .
    python3 -m build --no-isolation --wheel      # where python3-build is installed

The extension snnplan._snnplan is built by this project's own CMake (one build system): in a
build tree of its own under build-pip/ (library and extension only, Release) for the interpreter
running the build, unless SNNPLAN_CMAKE_BUILD_DIR names an existing, configured build tree for
the same interpreter: then only target snnplan_python is brought up to date there (what the
ctest packaging test does, so it does not compile the project a second time).
CMAKE_BUILD_PARALLEL_LEVEL sets the build's parallelism (default 2).

The metadata is pyproject.toml's [project] table; the version is CMakeLists.txt's
project(snnplan VERSION x.y.z). The package's files are what python/snnplan/ holds (*.py, *.pyi,
py.typed) plus the extension. The wheel is written here (PEP 427), as is the sdist.
"""
import base64
import csv
import hashlib
import io
import os
import re
import shutil
import subprocess
import sys
import sysconfig
import tarfile
import tempfile
import time
import zipfile
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
PACKAGE = "snnplan"
PACKAGE_DIR = ROOT / "python" / PACKAGE
PACKAGE_PATTERNS = ("*.py", "*.pyi", "py.typed")
EXTENSION = "_snnplan"
CMAKE_TARGET = "snnplan_python"
# What the sdist holds: what CMake needs to build the extension, and this backend.
SDIST_FILES = ("pyproject.toml", "README.md", "CMakeLists.txt", "CMakePresets.json")
SDIST_DIRS = ("cmake", "include", "src", "rules", "tools", "python")
ME = "python/build_backend.py"


def fail(message):
    sys.exit(f"{ME}: {message}")


# ---- pyproject.toml ---------------------------------------------------------------------------
# tomllib is Python 3.11+; on 3.9 and 3.10 parse_toml() reads the TOML pyproject.toml is written
# in: tables, dotted and quoted keys, strings, arrays, inline tables, booleans and integers.
# (python/tests/test_install.py checks that it reads pyproject.toml as tomllib does.)

class _TomlReader:
    _BARE = re.compile(r"[A-Za-z0-9_-]+")
    _ESCAPES = {"b": "\b", "t": "\t", "n": "\n", "f": "\f", "r": "\r", '"': '"', "\\": "\\"}

    def __init__(self, text):
        self.text = text
        self.pos = 0

    def error(self, what):
        line = self.text.count("\n", 0, self.pos) + 1
        fail(f"pyproject.toml line {line}: {what} (this backend reads a subset of TOML on Python < 3.11)")

    def peek(self, n=1):
        return self.text[self.pos:self.pos + n]

    def skip(self, newlines):
        while self.pos < len(self.text):
            c = self.text[self.pos]
            if c in " \t" or (newlines and c in "\r\n"):
                self.pos += 1
            elif c == "#":
                while self.pos < len(self.text) and self.text[self.pos] != "\n":
                    self.pos += 1
            else:
                break

    def expect(self, s):
        if self.peek(len(s)) != s:
            self.error(f"expected {s!r}")
        self.pos += len(s)

    def key(self):
        parts = []
        while True:
            self.skip(False)
            if self.peek() in "\"'":
                if self.peek(3) in ('"""', "'''"):
                    self.error("multi-line string as key")
                parts.append(self.string())
            else:
                match = self._BARE.match(self.text, self.pos)
                if not match:
                    self.error("expected a key")
                parts.append(match.group())
                self.pos = match.end()
            self.skip(False)
            if self.peek() != ".":
                return parts
            self.pos += 1

    def string(self):
        quote = self.text[self.pos]
        if self.peek(3) == quote * 3:
            self.error("multi-line strings are not read")
        self.pos += 1
        out = []
        while True:
            if self.pos >= len(self.text) or self.text[self.pos] == "\n":
                self.error("unterminated string")
            c = self.text[self.pos]
            self.pos += 1
            if c == quote:
                return "".join(out)
            if c == "\\" and quote == '"':
                e = self.text[self.pos:self.pos + 1]
                self.pos += 1
                if e in self._ESCAPES:
                    out.append(self._ESCAPES[e])
                elif e in ("u", "U"):
                    n = 4 if e == "u" else 8
                    out.append(chr(int(self.text[self.pos:self.pos + n], 16)))
                    self.pos += n
                else:
                    self.error(f"unknown escape \\{e}")
            else:
                out.append(c)

    def value(self):
        c = self.peek()
        if c in "\"'":
            return self.string()
        if c == "[":
            self.pos += 1
            items = []
            while True:
                self.skip(True)
                if self.peek() == "]":
                    self.pos += 1
                    return items
                items.append(self.value())
                self.skip(True)
                if self.peek() == ",":
                    self.pos += 1
                elif self.peek() != "]":
                    self.error("expected ',' or ']' in an array")
        if c == "{":
            self.pos += 1
            table = {}
            self.skip(False)
            if self.peek() == "}":
                self.pos += 1
                return table
            while True:
                self.assign(table)
                self.skip(False)
                if self.peek() == "}":
                    self.pos += 1
                    return table
                self.expect(",")
        match = re.compile(r"true|false|[+-]?[0-9][0-9_]*(?![0-9A-Za-z.:_-])").match(self.text, self.pos)
        if not match:
            self.error("a value this backend does not read (strings, arrays, tables, booleans, integers)")
        self.pos = match.end()
        word = match.group()
        if word in ("true", "false"):
            return word == "true"
        return int(word.replace("_", ""))

    def assign(self, table):
        parts = self.key()
        self.expect("=")
        self.skip(False)
        target = self.descend(table, parts[:-1])
        if parts[-1] in target:
            self.error(f"key {'.'.join(parts)} defined twice")
        target[parts[-1]] = self.value()

    def descend(self, table, parts):
        for part in parts:
            table = table.setdefault(part, {})
            if not isinstance(table, dict):
                self.error(f"{part} is not a table")
        return table

    def document(self):
        root = {}
        table = root
        while True:
            self.skip(True)
            if self.pos >= len(self.text):
                return root
            if self.peek(2) == "[[":
                self.error("arrays of tables are not read")
            if self.peek() == "[":
                self.pos += 1
                parts = self.key()
                self.expect("]")
                table = self.descend(root, parts)
            else:
                self.assign(table)
            self.skip(False)
            if self.pos < len(self.text) and self.text[self.pos] not in "\r\n":
                self.error("expected the end of the line")


def parse_toml(text):
    return _TomlReader(text).document()


def load_toml(text):
    try:
        import tomllib
    except ModuleNotFoundError:
        return parse_toml(text)
    return tomllib.loads(text)


def project_version():
    """The one version number: CMakeLists.txt's project(snnplan VERSION x.y.z)."""
    text = (ROOT / "CMakeLists.txt").read_text(encoding="utf-8")
    match = re.search(r"project\(snnplan\s+VERSION\s+([0-9][0-9.]*)", text)
    if not match:
        fail("no 'project(snnplan VERSION ...)' in CMakeLists.txt")
    return match.group(1)


# [project] keys this backend turns into metadata; any other key is refused rather than ignored.
_KNOWN_KEYS = {"name", "version", "dynamic", "description", "readme", "requires-python", "classifiers",
               "keywords", "urls", "dependencies", "optional-dependencies", "scripts", "gui-scripts",
               "entry-points"}


class Project:
    """pyproject.toml's [project] table, as core metadata (version 2.1) and entry points."""

    def __init__(self):
        project = load_toml((ROOT / "pyproject.toml").read_text(encoding="utf-8")).get("project")
        if not isinstance(project, dict) or "name" not in project:
            fail("pyproject.toml has no [project] table with a name")
        unknown = sorted(set(project) - _KNOWN_KEYS)
        if unknown:
            fail(f"pyproject.toml [project] keys this backend does not write into the metadata: {', '.join(unknown)}")
        dynamic = project.get("dynamic", [])
        if set(dynamic) - {"version"}:
            fail(f"only the version may be dynamic (from CMakeLists.txt), not {sorted(set(dynamic) - {'version'})}")
        if "version" in dynamic:
            self.version = project_version()
        elif "version" in project:
            self.version = project["version"]
        else:
            fail("pyproject.toml [project] needs a version or dynamic = [\"version\"]")
        self.name = project["name"]
        self.data = project
        # The distribution's name in file names (PEP 427/625: normalized, - and . as _).
        self.file_name = re.sub(r"[-_.]+", "_", self.name).lower()
        self.dist_info = f"{self.file_name}-{self.version}.dist-info"

    def metadata(self):
        p = self.data
        lines = ["Metadata-Version: 2.1", f"Name: {self.name}", f"Version: {self.version}"]
        if "description" in p:
            lines.append(f"Summary: {p['description']}")
        if p.get("keywords"):
            lines.append(f"Keywords: {','.join(p['keywords'])}")
        for label, url in p.get("urls", {}).items():
            lines.append(f"Project-URL: {label}, {url}")
        if "requires-python" in p:
            lines.append(f"Requires-Python: {p['requires-python']}")
        lines += [f"Classifier: {c}" for c in p.get("classifiers", [])]
        lines += [f"Requires-Dist: {r}" for r in p.get("dependencies", [])]
        for extra, requirements in p.get("optional-dependencies", {}).items():
            lines.append(f"Provides-Extra: {extra}")
            for requirement in requirements:
                requirement, _, marker = requirement.partition(";")
                marker = f"({marker.strip()}) and " if marker.strip() else ""
                lines.append(f'Requires-Dist: {requirement.strip()}; {marker}extra == "{extra}"')
        body = ""
        readme = p.get("readme")
        if readme is not None:
            if isinstance(readme, str):
                readme = {"file": readme}
            content_type = readme.get("content-type")
            if "file" in readme:
                body = (ROOT / readme["file"]).read_text(encoding="utf-8")
                if content_type is None:
                    suffix = Path(readme["file"]).suffix.lower()
                    content_type = {".md": "text/markdown", ".rst": "text/x-rst"}.get(suffix, "text/plain")
            else:
                body = readme.get("text", "")
            lines.append(f"Description-Content-Type: {content_type or 'text/plain'}")
        text = "\n".join(lines) + "\n"
        return text + ("\n" + body if body else "")

    def entry_points(self):
        groups = dict(self.data.get("entry-points", {}))
        for key, group in (("scripts", "console_scripts"), ("gui-scripts", "gui_scripts")):
            if key in self.data:
                groups[group] = self.data[key]
        if not groups:
            return None
        return "".join(f"[{group}]\n" + "".join(f"{name} = {ref}\n" for name, ref in entries.items()) + "\n"
                       for group, entries in groups.items())

    def dist_info_files(self, tag):
        """The .dist-info's files but RECORD: {name: bytes}."""
        files = {"METADATA": self.metadata().encode("utf-8"),
                 "WHEEL": (f"Wheel-Version: 1.0\nGenerator: snnplan ({ME})\n"
                           f"Root-Is-Purelib: false\nTag: {tag}\n").encode("utf-8")}
        entry_points = self.entry_points()
        if entry_points:
            files["entry_points.txt"] = entry_points.encode("utf-8")
        return files


# ---- the wheel's tag ---------------------------------------------------------------------------

def _normalize(tag):
    return re.sub(r"[^A-Za-z0-9]+", "_", tag)


def wheel_tag():
    """python-abi-platform of the running interpreter, as pip (packaging.tags) computes them."""
    implementation = sys.implementation.name
    interpreter = {"cpython": "cp", "pypy": "pp"}.get(implementation, implementation)
    interpreter += f"{sys.version_info[0]}{sys.version_info[1]}"
    suffix = sysconfig.get_config_var("EXT_SUFFIX") or ""
    soabi = suffix.split(".")[1] if suffix.count(".") >= 2 else ""
    if soabi.startswith("cpython"):
        abi = "cp" + soabi.split("-")[1]           # cp311, cp311d, cp313t
    elif soabi.startswith("cp"):
        abi = soabi.split("-")[0]
    elif soabi.startswith("pypy"):
        abi = "-".join(soabi.split("-")[:2])        # pypy310-pp73
    else:
        abi = soabi or "none"
    platform = _normalize(sysconfig.get_platform())
    if platform == "linux_x86_64" and sys.maxsize <= 2 ** 32:
        platform = "linux_i686"                     # a 32-bit interpreter on a 64-bit kernel
    return f"{interpreter}-{_normalize(abi)}-{platform}"


# ---- the extension, built with CMake -----------------------------------------------------------

def _run(command):
    print("snnplan build: $", " ".join(str(c) for c in command), flush=True)
    subprocess.run([str(c) for c in command], check=True)


def _configure(build_dir):
    build_dir.mkdir(parents=True, exist_ok=True)
    off = ["SNNPLAN_BUILD_TESTS", "SNNPLAN_BUILD_EXAMPLES", "SNNPLAN_BUILD_BENCHMARKS", "SNNPLAN_INSTALL"]
    _run(["cmake", "-S", ROOT, "-B", build_dir, "-DCMAKE_BUILD_TYPE=Release", "-DSNNPLAN_BUILD_PYTHON=ON",
          f"-DPython3_EXECUTABLE={sys.executable}"] + [f"-D{option}=OFF" for option in off])


def build_extension(destination):
    """Builds snnplan._snnplan for this interpreter; copies it, without debug information, into
    the directory destination. Returns the copy's path."""
    if not shutil.which("cmake"):
        fail("cmake is needed to build the extension (Debian: apt-get install cmake; see tools/deps.sh)")
    build_dir = os.environ.get("SNNPLAN_CMAKE_BUILD_DIR")
    if build_dir:
        build_dir = Path(build_dir).resolve()
        if not (build_dir / "CMakeCache.txt").is_file():
            fail(f"SNNPLAN_CMAKE_BUILD_DIR={build_dir} is not a configured CMake build tree")
    else:
        # Not build/: that is where the CMake build tree usually is.
        build_dir = ROOT / "build-pip" / f"cmake.{sysconfig.get_platform()}-{sys.implementation.cache_tag}"
        _configure(build_dir)
    jobs = os.environ.get("CMAKE_BUILD_PARALLEL_LEVEL", "2")
    _run(["cmake", "--build", build_dir, "--target", CMAKE_TARGET, "-j", jobs])
    suffix = sysconfig.get_config_var("EXT_SUFFIX")
    built = build_dir / "python" / PACKAGE / (EXTENSION + suffix)
    if not built.is_file():
        found = sorted(p.name for p in (build_dir / "python" / PACKAGE).glob(EXTENSION + "*"))
        fail(f"{built} was not built (the build tree has {found or 'no extension'}): "
             f"it was configured for another Python than {sys.executable}")
    target = Path(destination) / built.name
    shutil.copyfile(built, target)
    # A build tree's extension may carry debug information (RelWithDebInfo: ~70 MB with the
    # CLI linked in); the installed package does without it.
    strip = shutil.which("strip")
    if strip:
        _run([strip, "--strip-debug", target])
    return target


def package_files():
    """{path in the wheel: path on disk} of the package's Python files, stubs and py.typed: what
    python/snnplan/ holds now (and its subpackages), not a list kept here."""
    files = {}
    for pattern in PACKAGE_PATTERNS:
        for path in PACKAGE_DIR.rglob(pattern):
            if path.is_file() and "__pycache__" not in path.parts:
                files[f"{PACKAGE}/{path.relative_to(PACKAGE_DIR).as_posix()}"] = path
    return dict(sorted(files.items()))


# ---- archives ----------------------------------------------------------------------------------

def _timestamp():
    epoch = os.environ.get("SOURCE_DATE_EPOCH")
    return max(int(epoch), 315532800) if epoch else None  # zip cannot hold dates before 1980


def _record_hash(data):
    digest = base64.urlsafe_b64encode(hashlib.sha256(data).digest()).rstrip(b"=").decode("ascii")
    return f"sha256={digest}"


class _WheelWriter:
    def __init__(self, path, dist_info):
        self.zip = zipfile.ZipFile(path, "w", compression=zipfile.ZIP_DEFLATED)
        self.dist_info = dist_info
        self.records = []
        self.epoch = _timestamp()

    def add(self, name, data, mode=0o644, mtime=None):
        stamp = self.epoch if self.epoch is not None else (mtime or time.time())
        info = zipfile.ZipInfo(name, date_time=time.gmtime(stamp)[:6])
        info.external_attr = (0o100000 | mode) << 16
        info.compress_type = zipfile.ZIP_DEFLATED
        self.zip.writestr(info, data)
        self.records.append((name, _record_hash(data), str(len(data))))

    def add_file(self, name, path):
        stat = path.stat()
        self.add(name, path.read_bytes(), 0o755 if stat.st_mode & 0o111 else 0o644, stat.st_mtime)

    def close(self):
        record = f"{self.dist_info}/RECORD"
        out = io.StringIO()
        writer = csv.writer(out, lineterminator="\n")
        writer.writerows(self.records + [(record, "", "")])
        self.add(record, out.getvalue().encode("utf-8"))
        self.zip.close()


# ---- PEP 517 hooks -----------------------------------------------------------------------------

def get_requires_for_build_wheel(config_settings=None):
    return []


def get_requires_for_build_sdist(config_settings=None):
    return []


def prepare_metadata_for_build_wheel(metadata_directory, config_settings=None):
    project = Project()
    dist_info = Path(metadata_directory) / project.dist_info
    dist_info.mkdir(parents=True, exist_ok=True)
    for name, data in project.dist_info_files(wheel_tag()).items():
        (dist_info / name).write_bytes(data)
    return project.dist_info


def build_wheel(wheel_directory, config_settings=None, metadata_directory=None):
    project = Project()
    tag = wheel_tag()
    name = f"{project.file_name}-{project.version}-{tag}.whl"
    wheel_directory = Path(wheel_directory)
    wheel_directory.mkdir(parents=True, exist_ok=True)
    with tempfile.TemporaryDirectory(prefix="snnplan-wheel-") as scratch:
        extension = build_extension(scratch)
        partial = wheel_directory / (name + ".part")
        wheel = _WheelWriter(partial, project.dist_info)
        try:
            for arcname, path in package_files().items():
                wheel.add_file(arcname, path)
            wheel.add_file(f"{PACKAGE}/{extension.name}", extension)
            for file_name, data in project.dist_info_files(tag).items():
                wheel.add(f"{project.dist_info}/{file_name}", data)
            wheel.close()
        except BaseException:
            wheel.zip.close()
            partial.unlink()
            raise
        os.replace(partial, wheel_directory / name)
    print(f"snnplan build: wrote {wheel_directory / name}", flush=True)
    return name


def _sdist_members():
    def skipped(path):
        return ("__pycache__" in path.parts or path.suffix in (".pyc", ".so") or path.name.startswith("."))
    members = [ROOT / name for name in SDIST_FILES if (ROOT / name).is_file()]
    for directory in SDIST_DIRS:
        members += sorted(p for p in (ROOT / directory).rglob("*")
                          if p.is_file() and not skipped(p.relative_to(ROOT)))
    return members


def build_sdist(sdist_directory, config_settings=None):
    project = Project()
    base = f"{project.file_name}-{project.version}"
    name = base + ".tar.gz"
    epoch = _timestamp()
    sdist_directory = Path(sdist_directory)
    sdist_directory.mkdir(parents=True, exist_ok=True)

    def add(tar, arcname, data, mode, mtime):
        info = tarfile.TarInfo(f"{base}/{arcname}")
        info.size, info.mode = len(data), mode
        info.mtime = int(epoch if epoch is not None else mtime)
        tar.addfile(info, io.BytesIO(data))

    partial = sdist_directory / (name + ".part")
    with tarfile.open(partial, "w:gz", format=tarfile.PAX_FORMAT) as tar:
        for path in _sdist_members():
            stat = path.stat()
            add(tar, path.relative_to(ROOT).as_posix(), path.read_bytes(),
                0o755 if stat.st_mode & 0o111 else 0o644, stat.st_mtime)
        add(tar, "PKG-INFO", project.metadata().encode("utf-8"), 0o644, time.time())
    os.replace(partial, sdist_directory / name)
    return name
