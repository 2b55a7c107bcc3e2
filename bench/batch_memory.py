#!/usr/bin/env python3
"""Peak memory of `snnplan recommend --batch -` against the number of input lines.

The batch reads and writes in bounded memory: its peak RSS for 10,000,000 lines must stay
within 2x that for 10,000 lines (issue 15). This feeds a mix of requests (every branch of the
default table, one refused) through a pipe, sends the output to /dev/null, and reads the
child's peak RSS from wait4(2).

    python3 bench/batch_memory.py build/snnplan [--lines 10000 10000000]
"""
import argparse
import os
import subprocess
import sys
import time

REQUESTS = [
    b'{"model": "spikformer_8_384", "world_size": 8, "prefer": "speed", "batch_size": 64}',
    b'{"model": "cifar10dvs_vgg", "world_size": 4, "prefer": "memory", "batch_size": 32}',
    b'{"model": "vgg", "world_size": 8, "prefer": "capacity", "batch_size": 64}',
    b'{"model": "vgg", "world_size": 3, "prefer": "capacity", "batch_size": 2}',
    b'{"model": "resnet", "world_size": 1, "prefer": "speed", "batch_size": 16}',
    b'{"model": "vgg", "world_size": 8, "prefer": "fast", "batch_size": 64}',
    b'{"model": "spikformer_8_384", "world_size": 16, "prefer": "memory", "batch_size": 256, "fsdp2_available": false}',
]


def peak_rss_kib(cli, lines):
    block_lines = 7000
    block = b"\n".join(REQUESTS[k % len(REQUESTS)] for k in range(block_lines)) + b"\n"
    with open(os.devnull, "wb") as sink:
        child = subprocess.Popen([cli, "recommend", "--batch", "-"], stdin=subprocess.PIPE, stdout=sink)
        start = time.monotonic()
        left = lines
        while left > 0:
            if left >= block_lines:
                child.stdin.write(block)
                left -= block_lines
            else:
                child.stdin.write(b"\n".join(REQUESTS[k % len(REQUESTS)] for k in range(left)) + b"\n")
                left = 0
        child.stdin.close()
        _, status, usage = os.wait4(child.pid, 0)
        child.returncode = os.waitstatus_to_exitcode(status)
        seconds = time.monotonic() - start
    if child.returncode not in (0, 1):  # 1: the refused request
        sys.exit(f"snnplan exited {child.returncode}")
    return usage.ru_maxrss, seconds


def main():
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("cli")
    parser.add_argument("--lines", type=int, nargs="+", default=[10_000, 10_000_000])
    args = parser.parse_args()
    results = []
    for lines in args.lines:
        rss, seconds = peak_rss_kib(args.cli, lines)
        results.append((lines, rss))
        print(f"{lines:>12,} lines: peak RSS {rss / 1024:8.1f} MiB, {seconds:7.1f} s ({lines / seconds:,.0f} lines/s)")
    smallest, largest = results[0][1], results[-1][1]
    ratio = largest / smallest
    print(f"peak RSS ratio, {results[-1][0]:,} lines vs {results[0][0]:,}: {ratio:.2f}x (bounded: at most 2x)")
    sys.exit(0 if ratio <= 2.0 else 1)


if __name__ == "__main__":
    main()
