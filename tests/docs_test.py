#!/usr/bin/env python3
"""Checks that the README and docs/ hold together (issue 31, point 5).

  docs_test.py links SOURCE_DIR           every relative link and #anchor of the markdown files resolves
  docs_test.py readme SOURCE_DIR          the README keeps its two-command quick start and stays short
  docs_test.py cli SOURCE_DIR SNNPLAN     docs/cli.md has a row for every subcommand and no other
  docs_test.py journal SOURCE_DIR         bench/make_results.py carries bench/results.md's journal over
  docs_test.py self-test                  the link checker finds the faults of a made-up tree

Each mode prints one line per problem and exits 1 when there is any.
"""
from __future__ import annotations

import json
import os
import re
import subprocess
import sys
import tempfile
from pathlib import Path

README_MAX_LINES = 200
QUICK_START = ["bash tools/run.sh", "bash tools/test.sh"]

FENCE = re.compile(r"^\s*(```|~~~)")
INLINE_CODE = re.compile(r"(`+)(?:(?!\1).)+?\1")
# [text](target) and ![alt](target), target without spaces, an optional "title" after it.
LINK = re.compile(r"!?\[(?:[^\]\\]|\\.)*\]\(\s*<?([^)\s>]+)>?(?:\s+\"[^\"]*\")?\s*\)")
REFERENCE = re.compile(r"^\s{0,3}\[[^\]]+\]:\s*<?(\S+?)>?(?:\s+\"[^\"]*\")?\s*$")
HEADING = re.compile(r"^\s{0,3}(#{1,6})\s+(.*?)\s*#*\s*$")
HTML_ANCHOR = re.compile(r"<a\s+(?:name|id)=\"([^\"]+)\"")


def prose_lines(text: str):
    """(line number, line) of the lines outside fenced code blocks."""
    fenced = False
    for number, line in enumerate(text.split("\n"), 1):
        if FENCE.match(line):
            fenced = not fenced
            continue
        if not fenced:
            yield number, line


def slug(heading: str) -> str:
    """The anchor GitHub gives a heading: its text lower-cased, without markup and punctuation
    (letters, digits, `_` and `-` stay), spaces made hyphens."""
    text = re.sub(r"\[([^\]]*)\]\([^)]*\)", r"\1", heading)  # a link: its text
    text = text.replace("`", "").lower()
    text = "".join(c for c in text if c.isalnum() or c in " -_")
    return text.replace(" ", "-")


def anchors_of(path: Path) -> set[str]:
    seen: dict[str, int] = {}
    anchors = set()
    text = path.read_text(encoding="utf-8")
    for _, line in prose_lines(text):
        for name in HTML_ANCHOR.findall(line):
            anchors.add(name)
        m = HEADING.match(line)
        if not m:
            continue
        base = slug(m.group(2))
        n = seen.get(base, 0)
        seen[base] = n + 1
        anchors.add(base if n == 0 else f"{base}-{n}")
    return anchors


def link_targets(text: str):
    """(line number, target) of every link in the prose of a markdown text."""
    for number, line in prose_lines(text):
        line = INLINE_CODE.sub("", line)
        for target in LINK.findall(line):
            yield number, target
        m = REFERENCE.match(line)
        if m:
            yield number, m.group(1)


def documents(root: Path) -> list[Path]:
    """README.md, docs/*.md, bench/results.md, then every other markdown file of the tree (not in
    hidden folders or build trees, which hold a CMakeCache.txt)."""
    first = [root / "README.md"] + sorted((root / "docs").glob("*.md"))
    results = root / "bench" / "results.md"
    if results.exists():
        first.append(results)
    others = []
    for folder, subfolders, files in os.walk(root):
        here = Path(folder)
        subfolders[:] = sorted(s for s in subfolders
                               if not s.startswith(".") and not (here / s / "CMakeCache.txt").exists())
        others += [here / f for f in sorted(files) if f.endswith(".md") and here / f not in first]
    return first + others


def link_problems(root: Path, files: list[Path]) -> list[str]:
    root = root.resolve()
    problems = []
    anchor_cache: dict[Path, set[str]] = {}
    for source in files:
        source = source.resolve()
        shown = source.relative_to(root).as_posix() if source.is_relative_to(root) else str(source)
        for number, target in link_targets(source.read_text(encoding="utf-8")):
            if re.match(r"^[a-zA-Z][a-zA-Z0-9+.-]*:", target):  # http:, https:, mailto:
                continue
            path_part, _, anchor = target.partition("#")
            where = f"{shown}:{number}: link '{target}'"
            if path_part.startswith("/"):
                problems.append(f"{where} is absolute; links must be relative to the file")
                continue
            resolved = (source.parent / path_part).resolve() if path_part else source.resolve()
            if not resolved.is_relative_to(root):
                problems.append(f"{where} leads out of the source tree")
                continue
            if not resolved.exists():
                problems.append(f"{where}: {resolved.relative_to(root).as_posix()} does not exist")
                continue
            if not anchor:
                continue
            if resolved.is_dir() or resolved.suffix != ".md":
                problems.append(f"{where}: an anchor into a file that is not markdown")
                continue
            if resolved not in anchor_cache:
                anchor_cache[resolved] = anchors_of(resolved)
            if anchor not in anchor_cache[resolved]:
                problems.append(f"{where}: {resolved.relative_to(root).as_posix()} has no heading "
                                f"with the anchor #{anchor}")
    return problems


def readme_problems(root: Path) -> list[str]:
    readme = root / "README.md"
    lines = readme.read_text(encoding="utf-8").split("\n")
    problems = []
    count = len(lines) - (1 if lines and lines[-1] == "" else 0)
    if count > README_MAX_LINES:
        problems.append(f"README.md has {count} lines, more than {README_MAX_LINES}: it is the front "
                        "door; move detail into docs/ and link it from the map")
    try:
        start = lines.index("## Quick start")
    except ValueError:
        return problems + ["README.md has no '## Quick start' section"]
    block, inside = [], False
    for line in lines[start + 1:]:
        if line.startswith("## "):
            break
        if FENCE.match(line):
            if inside:
                break
            inside = True
            continue
        if inside:
            block.append(line.split("#", 1)[0].strip())
    commands = [c for c in block if c]
    if commands != QUICK_START:
        problems.append(f"README.md's quick start runs {commands}, not {QUICK_START}")
    for command in QUICK_START:
        script = root / command.split()[1]
        if not script.is_file():
            problems.append(f"the quick start's {command}: {script.relative_to(root)} does not exist")
    return problems


def cli_problems(root: Path, snnplan: str) -> list[str]:
    helped = subprocess.run([snnplan, "--help"], capture_output=True, text=True)
    if helped.returncode != 0:
        return [f"{snnplan} --help exited {helped.returncode}: {helped.stderr.strip()}"]
    # CLI11 lists the subcommands after a line "SUBCOMMANDS:", one per line, name first.
    names, listing = [], False
    for line in helped.stdout.split("\n"):
        if line.strip().upper().startswith("SUBCOMMANDS"):
            listing = True
            continue
        if listing:
            m = re.match(r"^\s+([a-z][a-z0-9-]*)\b", line)
            if m:
                names.append(m.group(1))
            elif line.strip() and not line.startswith(" "):
                listing = False
    if not names:
        return [f"{snnplan} --help lists no subcommands (format changed?):\n{helped.stdout}"]
    text = (root / "docs" / "cli.md").read_text(encoding="utf-8")
    documented = []
    for _, line in prose_lines(text):
        m = re.match(r"^\|\s*`snnplan ([a-z][a-z0-9-]*)", line)
        if m and m.group(1) not in documented:
            documented.append(m.group(1))
    problems = [f"docs/cli.md: no row for `snnplan {n}`, which `snnplan --help` lists" for n in names
                if n not in documented]
    problems += [f"docs/cli.md: a row for `snnplan {n}`, which `snnplan --help` does not list" for n in documented
                 if n not in names]
    return problems


JOURNAL_BEGIN = "<!-- bench:journal:begin -->"
JOURNAL_END = "<!-- bench:journal:end -->"


def journal_of(text: str) -> str:
    begin = text.find(JOURNAL_BEGIN)
    end = text.find(JOURNAL_END, begin + 1) if begin >= 0 else -1
    return text[begin:end + len(JOURNAL_END)] if begin >= 0 and end >= 0 else ""


def journal_problems(root: Path) -> list[str]:
    results = root / "bench" / "results.md"
    before = results.read_text(encoding="utf-8")
    journal = journal_of(before)
    if not journal:
        return [f"bench/results.md has no journal between {JOURNAL_BEGIN} and {JOURNAL_END}"]
    with tempfile.TemporaryDirectory() as scratch:
        out = Path(scratch) / "results.md"
        out.write_text(before, encoding="utf-8")
        bench = Path(scratch) / "engine_bench.json"
        bench.write_text(json.dumps({"context": {}, "benchmarks": []}), encoding="utf-8")
        made = subprocess.run([sys.executable, str(root / "bench" / "make_results.py"), "--root", str(root),
                               "--bench", str(bench), "--out", str(out)], capture_output=True, text=True)
        if made.returncode != 0:
            return [f"make_results.py exited {made.returncode}: {made.stderr.strip()}"]
        after = out.read_text(encoding="utf-8")
    problems = []
    if not after.startswith("# snnplan benchmarks\n"):
        problems.append("make_results.py did not write the generated part (no '# snnplan benchmarks' title)")
    if after.count(JOURNAL_BEGIN) != 1:
        problems.append(f"the rewritten file has {after.count(JOURNAL_BEGIN)} journals, not 1")
    if journal_of(after) != journal:
        problems.append("make_results.py changed the journal of bench/results.md instead of carrying it over")
    if not after.rstrip("\n").endswith(JOURNAL_END):
        problems.append("the journal is not at the end of the rewritten file")
    return problems


def self_test() -> list[str]:
    """The link checker on a made-up tree: exactly the planted faults, nothing else."""
    with tempfile.TemporaryDirectory() as scratch:
        root = Path(scratch)
        (root / "docs").mkdir()
        (root / "docs" / "images").mkdir()
        (root / "docs" / "images" / "a.png").write_bytes(b"")
        (root / "README.md").write_text(
            "# T\n\n## Quick start\n\n"
            "[ok](docs/a.md) [ok](docs/a.md#the-cli-snnplan-map) [ok](#quick-start) [dir](docs/)\n"
            "[gone](docs/missing.md) [bad anchor](docs/a.md#nowhere) ![img](docs/images/a.png)\n"
            "`[not a link](nowhere.md)` [web](https://example.org/x.md)\n"
            "```\n[in code](nowhere.md)\n```\n"
            "[second](docs/a.md#same-1) [out](../outside.md)\n", encoding="utf-8")
        (root / "docs" / "a.md").write_text(
            "# A\n\n## The CLI: `snnplan map`\n\n## Same\n\n## Same\n\n```\n# not a heading\n```\n"
            "[up](../README.md#quick-start) [code heading](#not-a-heading)\n", encoding="utf-8")
        got = link_problems(root, [root / "README.md", root / "docs" / "a.md"])
    want = [
        "README.md:6: link 'docs/missing.md': docs/missing.md does not exist",
        "README.md:6: link 'docs/a.md#nowhere': docs/a.md has no heading with the anchor #nowhere",
        "README.md:11: link '../outside.md' leads out of the source tree",
        "docs/a.md:12: link '#not-a-heading': docs/a.md has no heading with the anchor #not-a-heading",
    ]
    if got == want:
        return []
    return ["the link checker's self-test found", *("  " + g for g in got), "instead of", *("  " + w for w in want)]


def main(argv: list[str]) -> int:
    if len(argv) < 2:
        print(__doc__, file=sys.stderr)
        return 2
    mode = argv[1]
    if mode == "self-test" and len(argv) == 2:
        problems = self_test()
    elif mode == "links" and len(argv) == 3:
        root = Path(argv[2])
        files = documents(root)
        problems = link_problems(root, files)
        if not problems:
            print(f"{len(files)} documents, every relative link and anchor resolves")
    elif mode == "readme" and len(argv) == 3:
        problems = readme_problems(Path(argv[2]))
    elif mode == "cli" and len(argv) == 4:
        problems = cli_problems(Path(argv[2]), argv[3])
    elif mode == "journal" and len(argv) == 3:
        problems = journal_problems(Path(argv[2]))
    else:
        print(__doc__, file=sys.stderr)
        return 2
    for problem in problems:
        print(problem)
    return 1 if problems else 0


if __name__ == "__main__":
    sys.exit(main(sys.argv))
