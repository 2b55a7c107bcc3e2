#!/usr/bin/env python3
"""Write src/frontends/cli/startup.order: the functions a launcher's CLI calls run, for the static CLI's link.

  python3 tools/startup_order.py build/snnplan-static [--out src/frontends/cli/startup.order]

Runs the static CLI (built with -ffunction-sections -fdata-sections, as CMakeLists.txt builds it
when the static CLI is on) for each command of COMMANDS, the calls launchers make, and writes one
name per line (mangled): the functions they execute (valgrind's callgrind), the C library's string
functions chosen by CPU, the functions whose first instruction faulted in a native run (perf's
page-fault tracepoint; what valgrind's paths miss), then the variables they touch (valgrind's
lackey). The static CLI is linked with `--symbol-ordering-file` of this list (lld), which puts
them side by side: a cold start then touches about a dozen 64 KiB blocks of code instead of ~45
spread over 4 MB, and each block first touched is a page fault (a few us on a paravirtualised
machine; bench/results.md, issue 34). Run it twice after a large change: the native faults are
found in the binary as linked with the list before.

The list only orders code: a function missing from it (renamed, new since) is placed as without
the list, and a name that no longer exists is ignored. So a stale list costs start-up time and
never correctness; regenerate it after changing what these commands run.
"""
import argparse
import bisect
import os
import re
import subprocess
import sys
import tempfile
from pathlib import Path

# What a launcher runs: one recommendation and one plan from the built-in rules, as text and as
# JSON, the microbatch count, the version, and a refused input (the error path unwinds).
COMMANDS = [
    ["recommend", "--model", "spikformer_8_384", "--world-size", "8", "--prefer", "speed", "--batch-size", "64"],
    ["recommend", "--model", "cifar10dvs_vgg", "--world-size", "4", "--prefer", "capacity", "--batch-size", "64",
     "--format", "json"],
    ["plan", "--objective", "memory", "--topology", "dp=4,tp=2", "--batch-size", "64", "--model-family",
     "cifar10dvs_vgg", "--format", "json"],
    ["microbatches", "--batch-size", "64", "--num-stages", "4"],
    ["--version"],
    ["recommend", "--model", "spikformer_8_384", "--world-size", "8", "--prefer", "fastest"],
]

# callgrind names a function once, at its first fn= or cfn= line: "fn=(12) name", with "'N" after
# the name of a recursive call's frame.
NAMED = re.compile(r"^c?fn=\(\d+\) ([^'(][^']*)(?:'\d+)?$")

# What runs before valgrind shows a name: the C library's start-up (callgrind calls it "(below main)"),
# and the vDSO's symbols looked up (valgrind gives the program no vDSO).
START_UP = ["_start", "__libc_start_main_impl", "__libc_start_call_main", "frame_dummy", "register_tm_clones",
            "deregister_tm_clones", "__do_global_dtors_aux", "_dl_new_object", "setup_vdso", "dl_vdso_vsym",
            "_dl_lookup_symbol_x", "do_lookup_x", "check_match", "_dl_name_match_p", "_dl_add_to_namespace_list",
            "_dl_setup_hash", "_dl_important_hwcaps", "_dl_init_static_tls"]

# The C library's string functions are chosen by CPU at start-up (GNU indirect functions): under
# valgrind's CPU one variant runs, on the machine another. Each used function's variants for the
# x86-64 CPUs of the last decade come along (about 60 KiB); the older SSE ones do not.
CPU_VARIANT = re.compile(r"_(evex|avx512|avx2|avx)(_|$)")


def under_valgrind(cli: str, args: list[str], tool: list[str], out: str) -> None:
    run = subprocess.run(["valgrind", *tool, cli, *args], stdout=subprocess.DEVNULL, stderr=subprocess.PIPE, text=True)
    if not os.path.exists(out):
        sys.exit(f"startup_order: valgrind did not run {' '.join(args)}:\n{run.stderr}")


def executed_functions(cli: str, args: list[str]) -> list[str]:
    """The functions `cli args` runs, under callgrind, in the order it names them."""
    with tempfile.TemporaryDirectory() as scratch:
        out = os.path.join(scratch, "callgrind.out")
        under_valgrind(cli, args, ["--tool=callgrind", "--demangle=no", f"--callgrind-out-file={out}"], out)
        names = []
        with open(out, encoding="utf-8", errors="replace") as f:
            for line in f:
                m = NAMED.match(line.rstrip("\n"))
                if m and not m.group(1).startswith("0x"):
                    names.append(m.group(1))
        return names


class Symbols:
    """The binary's symbols from nm: its code (types t, T, w, W and i, an indirect function) and
    its data (d, D, b, B, r, R), each by address."""

    def __init__(self, cli: str):
        out = subprocess.run(["nm", "-n", "-S", "--defined-only", cli], capture_output=True, text=True,
                             check=True).stdout
        self.code: list[tuple[int, str]] = []
        self.data: list[tuple[int, int, str]] = []
        for fields in (line.split() for line in out.splitlines()):
            if len(fields) == 4 and fields[2] in "dDbBrR":
                self.data.append((int(fields[0], 16), int(fields[1], 16), fields[3]))
            elif len(fields) >= 3 and fields[-2] in "tTwWi":
                self.code.append((int(fields[0], 16), fields[-1]))
        self.code_addresses = [address for address, _ in self.code]
        self.data_addresses = [address for address, _, _ in self.data]

    def function_at(self, address: int) -> str | None:
        k = bisect.bisect_right(self.code_addresses, address) - 1
        return self.code[k][1] if k >= 0 else None

    def data_at(self, address: int) -> str | None:
        k = bisect.bisect_right(self.data_addresses, address) - 1
        if k >= 0 and address < self.data[k][0] + max(self.data[k][1], 1):
            return self.data[k][2]
        return None


def touched_data(cli: str, args: list[str], symbols: Symbols) -> list[str]:
    """The named data (variables, constants) `cli args` reads or writes, in the order first
    touched, from valgrind's lackey memory trace. Unnamed data (string literals) is not listed."""
    with tempfile.TemporaryDirectory() as scratch:
        out = os.path.join(scratch, "lackey.out")
        under_valgrind(cli, args, ["--tool=lackey", "--trace-mem=yes", f"--log-file={out}"], out)
        names: dict[str, None] = {}
        with open(out, encoding="utf-8", errors="replace") as f:
            for line in f:
                if line[:2] in (" L", " S", " M"):
                    name = symbols.data_at(int(line[3:line.index(",")], 16))
                    if name:
                        names.setdefault(name)
        return list(names)


def cpu_variants(used: list[str], symbols: Symbols) -> list[str]:
    """Every indirect function's resolver (all run at start-up) and the used ones' CPU variants,
    under any of their names (strrchr is also rindex)."""
    address_of = {name: address for address, name in symbols.code}
    used_addresses = {address_of[name] for name in used if name in address_of}
    families = {name for address, name in symbols.code if address in used_addresses}
    out = [name for _, name in symbols.code if name.endswith("_ifunc")]
    for _, name in symbols.code:
        if CPU_VARIANT.search(name) and "_rtm" not in name and any(name.startswith(f"__{f}_") for f in families):
            out.append(name)
    return out


def natively_faulted(cli: str, args: list[str], symbols: Symbols) -> list[str]:
    """The functions whose first instruction run natively (not under valgrind) found its page
    unmapped: what the list misses on this machine (valgrind's C library paths differ a little).
    Needs perf and the kernel's page-fault tracepoint; nothing without them."""
    with tempfile.TemporaryDirectory() as scratch:
        data = os.path.join(scratch, "perf.data")
        try:
            subprocess.run(["perf", "record", "-q", "-o", data, "-e", "exceptions:page_fault_user", "-c", "1", "--",
                            cli, *args], stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL, check=True)
            trace = subprocess.run(["perf", "script", "-i", data, "-F", "trace"], capture_output=True, text=True,
                                   check=True).stdout
        except (OSError, subprocess.CalledProcessError):
            return []
    out = []
    for m in re.finditer(r"address=(0x[0-9a-f]+) ip=(0x[0-9a-f]+)", trace):
        if m.group(1) == m.group(2):  # an instruction fetch
            name = symbols.function_at(int(m.group(1), 16))
            if name:
                out.append(name)
    return out


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("cli", help="the static CLI, built with -ffunction-sections")
    parser.add_argument("--out", default=str(Path(__file__).resolve().parent.parent / "src/frontends/cli/startup.order"))
    options = parser.parse_args()
    symbols = Symbols(options.cli)
    ran: dict[str, None] = {}
    data: dict[str, None] = {}
    for args in COMMANDS:
        ran.update(dict.fromkeys(executed_functions(options.cli, args)))
        data.update(dict.fromkeys(touched_data(options.cli, args, symbols)))
    missed: dict[str, None] = {}
    for args in COMMANDS:
        missed.update(dict.fromkeys(natively_faulted(options.cli, args, symbols)))
    # What every run needs first (the C library's start-up, its CPU-chosen string functions,
    # what valgrind did not see), then the commands' functions in COMMANDS' order: a run of the
    # first command touches the start of the block only.
    code: dict[str, None] = dict.fromkeys(START_UP)
    code.update(dict.fromkeys(cpu_variants(list(ran), symbols)))
    code.update(missed)
    code.update(ran)
    defined = {name for _, name in symbols.code} | {name for _, _, name in symbols.data}
    # __tcf_N (a file's static destructors, run at exit) has that name in every file: listed, it
    # would pull the whole code of files built without -ffunction-sections (yaml-cpp's) forward.
    names = [name for name in [*code, *data] if name in defined and not re.match(r"__tcf_\d+$", name)]
    header = [
        "# What the static CLI runs and touches for a launcher's calls (functions, then data), placed",
        "# together at link time (lld --symbol-ordering-file). Generated by tools/startup_order.py;",
        "# regenerate it after changing what those calls run (a stale list costs start-up time, never",
        "# correctness).",
    ]
    Path(options.out).write_text("\n".join(header + names) + "\n", encoding="utf-8")
    print(f"startup_order: {len(code)} functions, {len(data)} data -> {options.out}")


if __name__ == "__main__":
    main()
