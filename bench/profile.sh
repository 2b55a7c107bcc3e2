#!/usr/bin/env bash
# Where the engine spends its time: callgrind on profile_driver, one branch evaluated N times,
# counting only the evaluation loop (not the one-time rule loading).
#
#   bench/profile.sh [BUILD_DIR] [CASE] [N] [OUT_MARKDOWN]
#
# Defaults: build-bench, memory_fsdp2_tp, 10000, bench/profile.md. Prints and writes the top
# 10 functions by self instruction count (engine, views API), the instructions per call of the engine
# (views by name, views by position and record),
# snnplan::recommend and the baseline, and the baseline's top 5; then the top 10 of loading a
# generated table of $PROFILE_LOAD_RULES rules (default 300; 0 skips it).
set -euo pipefail
root=$(cd "$(dirname "$0")/.." && pwd)
build=${1:-$root/build-bench}
case_name=${2:-memory_fsdp2_tp}
n=${3:-10000}
out=${4:-$root/bench/profile.md}
driver=$build/bench/profile_driver
command -v valgrind >/dev/null || { echo "profile: valgrind is not installed" >&2; exit 2; }
[ -x "$driver" ] || { echo "profile: $driver not built" >&2; exit 2; }

work=$(mktemp -d "${TMPDIR:-/tmp}/snnplan-profile.XXXXXX")
trap 'rm -rf "$work"' EXIT
for mode in views positional engine recommend baseline; do
  valgrind --tool=callgrind --callgrind-out-file="$work/$mode.out" --toggle-collect='*run_loop*' \
    "$driver" "$case_name" "$n" "$mode" >/dev/null 2>"$work/$mode.log"
  callgrind_annotate --threshold=100 "$work/$mode.out" >"$work/$mode.txt" 2>/dev/null
  callgrind_annotate --threshold=100 --inclusive=yes "$work/$mode.out" >"$work/$mode.incl.txt" 2>/dev/null
  "$driver" "$case_name" "$n" "$mode" | sed -n 's/.*: \([0-9.]*\) allocations per call.*/\1/p' >"$work/$mode.allocs"
done

load_rules=${PROFILE_LOAD_RULES:-300}
if [ "$load_rules" != 0 ]; then
  valgrind --tool=callgrind --callgrind-out-file="$work/load.out" --toggle-collect='*load_loop*' \
    "$driver" --load "$load_rules" 1 >/dev/null 2>"$work/load.log"
  callgrind_annotate --threshold=100 "$work/load.out" >"$work/load.txt" 2>/dev/null
fi

python3 - "$work" "$case_name" "$n" "$out" "$load_rules" <<'PY'
import os
import re, sys
work, case, n, out, load_rules = sys.argv[1], sys.argv[2], int(sys.argv[3]), sys.argv[4], sys.argv[5]
line_re = re.compile(r"^\s*([\d,]+) \(\s*([\d.]+)%\)\s+(.*)$")

def short(name):
    name = re.sub(r"\s*\[[^\]]*\]$", "", name)          # the object file
    name = name.split(":", 1)[1] if re.match(r"^[^:]*\.[A-Za-z]+:|^\?\?\?:", name) else name  # source file
    name = name.replace("(anonymous namespace)", "anon")
    prev = None
    while prev != name:                                 # template arguments
        prev, name = name, re.sub(r"<[^<>]*>", "", name)
    lam = "}::operator()" in name
    recursion = re.search(r"'\d+$", name)
    name = name.split("(", 1)[0]                        # parameters
    name = name.split()[-1] if name.split() else name   # return type
    for prefix in ("snnplan::evaluate::anon::", "snnplan::evaluate::", "snnplan::detail::", "std::__cxx11::"):
        name = name.replace(prefix, "std::" if prefix == "std::__cxx11::" else "")
    return name + (" (lambda)" if lam else "") + (recursion.group(0) if recursion else "")

def read(mode, kind="txt"):
    total, rows = 0, []
    for line in open(f"{work}/{mode}.{kind}"):
        m = line_re.match(line)
        if not m:
            continue
        ir, pct, rest = int(m.group(1).replace(",", "")), float(m.group(2)), m.group(3)
        if "PROGRAM TOTALS" in rest:
            total = ir
        else:
            rows.append((ir, pct, short(rest)))
    return total, rows

md = []
totals = {}
for mode in ("views", "positional", "engine", "recommend", "baseline"):
    totals[mode], rows = read(mode)
    if mode == "views":
        engine_rows = rows
    if mode == "baseline":
        baseline_rows = rows
md.append(f"Callgrind, case `{case}`, {n} calls, loop only (`--toggle-collect='*run_loop*'`).\n")
ALLOCATOR = {"malloc", "_int_malloc", "_int_free", "free", "cfree", "malloc_consolidate", "unlink_chunk",
             "operator new", "operator delete", "tcache_get", "tcache_put"}
def allocator_share(mode):
    _, rows = read(mode)
    return sum(pct for _, pct, name in rows if name.split("'")[0] in ALLOCATOR)
md.append("| | instructions per call | vs baseline | heap allocations per call | malloc/free share |")
md.append("| --- | ---: | ---: | ---: | ---: |")
for mode, label in (("views", "engine, views `evaluate(inputs, evaluation)`"),
                    ("positional", "engine, views by position `evaluate(layout, values, evaluation)`"), ("engine", "engine, record `evaluate(inputs)`"),
                    ("recommend", "`snnplan::recommend` (typed)"),
                    ("baseline", "baseline")):
    allocs = open(f"{work}/{mode}.allocs").read().strip() or "?"
    md.append(f"| {label} | {totals[mode] / n:,.0f} | {totals[mode] / totals['baseline']:.1f}x | {allocs} | "
              f"{allocator_share(mode):.0f}% |")
md.append("\nEngine (views), top 10 functions by self instruction count:\n")
md.append("| # | function | Ir | % |")
md.append("| ---: | --- | ---: | ---: |")
for k, (ir, pct, name) in enumerate(engine_rows[:10], 1):
    md.append(f"| {k} | `{name}` | {ir:,} | {pct:.2f}% |")
md.append("\nEngine (views), inclusive cost of its own functions (where the self costs above come from):\n")
md.append("| function | inclusive Ir | % |")
md.append("| --- | ---: | ---: |")
_, incl = read("views", "incl.txt")
seen = set()
shown = 0
for ir, pct, name in incl:
    plain = name.split("'")[0]
    if plain in seen or not (plain.startswith("Evaluator::") or plain.startswith("Frame::") or plain in ("evaluate", "evaluate_views", "RuleSet::evaluate")):
        continue
    seen.add(plain)
    md.append(f"| `{name}` | {ir:,} | {pct:.2f}% |")
    shown += 1
    if shown == 12:
        break
md.append("\nBaseline, top 5:\n")
md.append("| # | function | Ir | % |")
md.append("| ---: | --- | ---: | ---: |")
for k, (ir, pct, name) in enumerate(baseline_rows[:5], 1):
    md.append(f"| {k} | `{name}` | {ir:,} | {pct:.2f}% |")
if os.path.exists(f"{work}/load.txt"):
    total, rows = read("load")
    md.append(f"\nLoading (load + check + compile) a generated table of {load_rules} rules: {total:,} instructions; "
              "top 10 by self count:\n")
    md.append("| # | function | Ir | % |")
    md.append("| ---: | --- | ---: | ---: |")
    for k, (ir, pct, name) in enumerate(rows[:10], 1):
        md.append(f"| {k} | `{name}` | {ir:,} | {pct:.2f}% |")
text = "\n".join(md) + "\n"
open(out, "w").write(text)
print(text)
PY
