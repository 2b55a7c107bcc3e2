#!/usr/bin/env python3
"""The rule-file analysis at the scale of the published decision-table verification setup
(Calvanese et al., "Semantics and analysis of DMN decision tables", BPM 2016): tables of 3, 5
and 7 input columns with about 500, 1,000 and 5,000 rules, and a copy with 10 % of the rows
perturbed. For each table it times `snnplan check` (which reports shadowed rules, i.e.
overlaps a first-hit table resolves, and gaps) and `snnplan diff` of the table against its
perturbed copy, and reads each run's peak memory from wait4.

  python3 bench/dmn_scale.py build-rel/snnplan [--columns 3,5,7] [--rules 500,1000,5000]
                             [--seed 1] [--timeout 120] [--markdown FILE]

Tables are generated as the paper's benchmark describes its synthetic ones: every column an
integer in [0, 100); each rule's cell on a column is "any" (10 %, never all of a row's) or an interval [lo, hi) with
random bounds; the output one of five modes; no catch-all row, so gaps exist. Perturbing a row
moves one interval bound of one cell by 1..10 or changes the output. A run that takes longer
than --timeout is stopped and shown as "> T s".
"""
import argparse
import json
import os
import random
import signal
import subprocess
import sys
import tempfile
import time

MODES = ["dp", "tp", "fsdp2", "fsdp2_tp", "pp"]
DOMAIN = 100
ANY = 0.1  # the share of "any" cells


def random_interval(rng):
    lo, hi = sorted(rng.sample(range(DOMAIN + 1), 2))
    return [lo, hi]


def random_cell(rng):
    return None if rng.random() < ANY else random_interval(rng)


def random_row(columns, rng):
    cells = [random_cell(rng) for _ in range(columns)]
    if all(c is None for c in cells):  # no accidental catch-all row
        cells[rng.randrange(columns)] = random_interval(rng)
    return cells, rng.choice(MODES)


def generate(columns, rules, rng):
    return [random_row(columns, rng) for _ in range(rules)]


def perturbed(table, fraction, rng):
    out = [([None if c is None else list(c) for c in cells], mode) for cells, mode in table]
    for row in rng.sample(range(len(out)), max(1, int(len(out) * fraction))):
        cells, mode = out[row]
        bounded = [k for k, c in enumerate(cells) if c is not None]
        if bounded and rng.random() < 0.7:
            cell = cells[rng.choice(bounded)]
            side = rng.randrange(2)
            cell[side] = min(DOMAIN, max(0, cell[side] + rng.choice([-1, 1]) * rng.randint(1, 10)))
            if cell[0] >= cell[1]:  # keep the interval non-empty
                cell[0] = min(cell[0], DOMAIN - 1)
                cell[1] = cell[0] + 1
        else:
            out[row] = (cells, rng.choice([m for m in MODES if m != mode]))
    return out


def rule_file(columns, table):
    lines = ["snnplan: 1", "inputs:"]
    lines += [f"  x{k}: {{type: int}}" for k in range(1, columns + 1)]
    lines += ["record:", "  mode: {type: string, default: none}", "start: decide", "tables:", "  decide:"]
    for n, (cells, mode) in enumerate(table):
        when = ", ".join(f"x{k + 1}: {{ge: {c[0]}, lt: {c[1]}}}" for k, c in enumerate(cells) if c is not None)
        when_part = f", when: {{{when}}}" if when else ""
        lines.append(f"    - {{name: r{n}{when_part}, set: {{mode: {mode}}}}}")
    return "\n".join(lines) + "\n"


def measure(command, timeout):
    """Wall seconds, peak RSS (MiB), exit code and output (stdout + stderr) of one run; seconds
    None when it was stopped."""
    start = time.monotonic()
    output = tempfile.TemporaryFile()
    process = subprocess.Popen(command, stdout=output, stderr=subprocess.STDOUT,
                               start_new_session=True)
    deadline = start + timeout
    while True:
        pid, status, usage = os.wait4(process.pid, os.WNOHANG)
        if pid:
            break
        if time.monotonic() > deadline:
            os.killpg(process.pid, signal.SIGKILL)
            pid, status, usage = os.wait4(process.pid, 0)
            return None, usage.ru_maxrss / 1024, None, ""
        time.sleep(0.005)
    seconds = time.monotonic() - start
    output.seek(0)
    return seconds, usage.ru_maxrss / 1024, os.waitstatus_to_exitcode(status), output.read().decode()


def decided(command, result):
    """Whether the analysis covered the whole input space: check's "not fully analysed" note,
    diff's "complete" (JSON)."""
    seconds, _, _, text = result
    if seconds is None:
        return "stopped"
    if command == "check":
        return "no" if "not fully analysed" in text else "yes"
    try:
        return "yes" if json.loads(text)["complete"] else "no"
    except (ValueError, KeyError):
        return "?"


def main():
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("cli")
    parser.add_argument("--columns", default="3,5,7")
    parser.add_argument("--rules", default="500,1000,5000")
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--timeout", type=float, default=120)
    parser.add_argument("--markdown", metavar="FILE", help="also write the figures as a section of bench/results.md")
    args = parser.parse_args()

    rows = []
    with tempfile.TemporaryDirectory() as scratch:
        for columns in map(int, args.columns.split(",")):
            for rules in map(int, args.rules.split(",")):
                rng = random.Random(args.seed * 1000003 + columns * 10007 + rules)
                table = generate(columns, rules, rng)
                original = os.path.join(scratch, f"t{columns}_{rules}.yaml")
                changed = os.path.join(scratch, f"t{columns}_{rules}_perturbed.yaml")
                with open(original, "w") as f:
                    f.write(rule_file(columns, table))
                with open(changed, "w") as f:
                    f.write(rule_file(columns, perturbed(table, 0.10, rng)))
                check = measure([args.cli, "check", original], args.timeout)
                diff = measure([args.cli, "diff", original, changed, "--format", "json"], args.timeout)
                rows.append((columns, rules, check, diff))
                print(f"{columns} columns, {rules} rules: check {show(check, args.timeout)} "
                      f"(decided: {decided('check', check)}), diff {show(diff, args.timeout)} "
                      f"(decided: {decided('diff', diff)})", file=sys.stderr, flush=True)
    if args.markdown:
        load = " ".join(open("/proc/loadavg").read().split()[:3])
        md = ["## The analysis at decision-table scale (`bench/dmn_scale.py`)", "",
              "Tables as in Calvanese et al.'s DMN verification benchmark (integer columns of [0, 100), "
              "interval cells, 10 % \"any\", five outputs, no catch-all row) and a copy with 10 % of the "
              f"rows perturbed; one run each, wall clock and peak RSS (wait4); seed {args.seed}, load "
              f"average {load}.", "",
              "Decided: whether the analysis covered every input (`check` without its \"not fully "
              "analysed\" note, `diff` with `\"complete\": true`); where it did not, the time is that "
              "of giving up, not of an answer.", "",
              "| columns | rules | `check` | peak RSS | decided | `diff` vs perturbed | peak RSS | decided |",
              "| ---: | ---: | ---: | ---: | :---: | ---: | ---: | :---: |"]
        for columns, rules, check, diff in rows:
            md.append(f"| {columns} | {rules:,} | {show(check, args.timeout)} | {check[1]:.0f} MiB | "
                      f"{decided('check', check)} | {show(diff, args.timeout)} | {diff[1]:.0f} MiB | "
                      f"{decided('diff', diff)} |")
        with open(args.markdown, "w") as f:
            f.write("\n".join(md) + "\n")

def show(result, timeout):
    seconds, _, code, _ = result
    if seconds is None:
        return f"> {timeout:.0f} s"
    text = f"{seconds:.2f} s" if seconds < 10 else f"{seconds:.0f} s"
    return text + ("" if code in (0, 1) else f" (exit {code})")


if __name__ == "__main__":
    main()
