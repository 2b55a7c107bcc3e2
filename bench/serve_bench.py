#!/usr/bin/env python3
"""The workbench server (`snnplan serve`, issue 32) under editing: the time from an edit request
to its diagnostics (POST /api/check) and to its diff (POST /api/diff) for the default rule file,
median and worst, and the server's resident memory (VmRSS) after 10,000 edits.

    bench/serve_bench.py SNNPLAN [--edits 10000] [--timed 200] [--markdown OUT.md]

Each edit alternates the default text with a one-threshold edit (speed's CIFAR10DVS VGG rule
also needs world_size >= 8), as an operator typing would; every tenth is a half-typed line that
does not load. The timed requests are a client's wall-clock time over a kept-alive loopback
connection (http.client), so they include the HTTP round trip. --markdown writes a section
for bench/results.md (bench/run.sh passes it to make_results.py --section).
"""

import argparse
import http.client
import json
import os
import shutil
import statistics
import subprocess
import sys
import tempfile
import time

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
EDIT_AFTER = "        model_family: cifar10dvs_vgg\n"


def rss_kib(pid):
    with open(f"/proc/{pid}/status", encoding="ascii") as f:
        for line in f:
            if line.startswith("VmRSS:"):
                return int(line.split()[1])
    return 0


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("snnplan")
    ap.add_argument("--edits", type=int, default=10000)
    ap.add_argument("--timed", type=int, default=40, help="edits whose check and diff are timed")
    ap.add_argument("--markdown")
    args = ap.parse_args()

    work = tempfile.mkdtemp(prefix="snnplan-serve-bench-")
    rules = os.path.join(work, "snn_distributed.yaml")
    shutil.copy(os.path.join(ROOT, "rules", "snn_distributed.yaml"), rules)
    with open(rules, encoding="utf-8") as f:
        text = f.read()
    at = text.index(EDIT_AFTER) + len(EDIT_AFTER)
    edited = text[:at] + "        world_size: {ge: 8}\n" + text[at:]
    half_typed = text[:at] + "        world_size: {ge: \n" + text[at:]
    server = subprocess.Popen([args.snnplan, "serve", rules, "--port", "0"], stdout=subprocess.PIPE, text=True)
    try:
        url = server.stdout.readline().strip().rsplit(" at ", 1)[-1]
        host, port = url.split("//")[1].rstrip("/").split(":")
        conn = http.client.HTTPConnection(host, int(port), timeout=120)

        def post(path, body):
            conn.request("POST", path, json.dumps(body), {"Content-Type": "application/json"})
            res = conn.getresponse()
            return res.status, json.loads(res.read())

        start_rss = rss_kib(server.pid)
        check_ms, diff_ms, both_ms = [], [], []
        for i in range(args.timed):
            body = {"text": edited if i % 2 else text}
            t0 = time.perf_counter()
            status, c = post("/api/check", body)
            t1 = time.perf_counter()
            status_diff, d = post("/api/diff", body)
            t2 = time.perf_counter()
            assert status == 200 and c["ok"] and status_diff == 200, (status, status_diff)
            assert d["changed"] == bool(i % 2)
            check_ms.append((t1 - t0) * 1000)
            diff_ms.append((t2 - t1) * 1000)
            both_ms.append((t2 - t0) * 1000)
        t0 = time.perf_counter()
        for i in range(args.edits):
            body = {"text": half_typed if i % 10 == 9 else (edited if i % 2 else text)}
            status, c = post("/api/check", body)
            assert status == 200
        edits_s = time.perf_counter() - t0
        end_rss = rss_kib(server.pid)
    finally:
        server.terminate()
        server.wait(timeout=10)
        shutil.rmtree(work, ignore_errors=True)

    def row(name, values):
        return f"| {name} | {statistics.median(values):.1f} | {max(values):.1f} |"

    lines = [
        "## The workbench server under editing (`bench/serve_bench.py`)",
        "",
        f"`snnplan serve rules/snn_distributed.yaml` and one kept-alive HTTP client on the loopback; each "
        f"edit alternates the default text with a one-threshold edit. {args.timed} timed edits (milliseconds, "
        "the client's wall clock, HTTP round trip included):",
        "",
        "| request | median ms | worst ms |",
        "| --- | --- | --- |",
        row("`POST /api/check` (diagnostics, table analysis included)", check_ms),
        row("`POST /api/diff` (the diff against the file on disk)", diff_ms),
        row("edit to diagnostics and diff (both, one after the other)", both_ms),
        "",
        f"Memory: the server's RSS was {start_rss / 1024:.1f} MiB after loading and "
        f"{end_rss / 1024:.1f} MiB after {args.timed * 2} timed requests and {args.edits:,} further edits "
        f"(`POST /api/check`, every tenth a half-typed text that does not load; {edits_s:.1f} s, "
        f"{edits_s / args.edits * 1000:.2f} ms each).",
        "",
    ]
    out = "\n".join(lines)
    print(out)
    if args.markdown:
        with open(args.markdown, "w", encoding="utf-8") as f:
            f.write(out)
    return 0


if __name__ == "__main__":
    sys.exit(main())
