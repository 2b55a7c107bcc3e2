#!/usr/bin/env python3
"""`snnplan serve` through a real HTTP client (urllib) against the real binary: the start line,
every endpoint the page uses (docs/serve.md), the refusals (413, 400, 404, 403 without the
token, a remote host without --allow-remote), concurrent requests, and save (atomic, refused
with errors, refused with a diff when the file changed on disk).

Usage: serve_http_test.py SNNPLAN RULES_DIR
"""

import json
import os
import shutil
import subprocess
import sys
import tempfile
import threading
import urllib.error
import urllib.request

EDIT_AFTER = "        model_family: cifar10dvs_vgg\n"
INPUT = {"model": "cifar10dvs_vgg", "world_size": 4, "prefer": "speed", "batch_size": 32}


def edited(text):
    at = text.index(EDIT_AFTER) + len(EDIT_AFTER)
    return text[:at] + "        world_size: {ge: 8}\n" + text[at:]


class Server:
    def __init__(self, snnplan, args, cwd):
        self.process = subprocess.Popen([snnplan, "serve", *args], cwd=cwd, stdout=subprocess.PIPE,
                                        stderr=subprocess.PIPE, text=True)
        self.first_line = self.process.stdout.readline().rstrip("\n")
        self.url = self.first_line.rsplit(" at ", 1)[-1]

    def request(self, path, body=None, raw=None, token=None, content_type="application/json"):
        url = self.url.split("?")[0] + path.lstrip("/") + (f"?token={token}" if token else "")
        data = raw if raw is not None else (None if body is None else json.dumps(body).encode())
        req = urllib.request.Request(url, data=data, headers={"Content-Type": content_type})
        try:
            with urllib.request.urlopen(req, timeout=60) as res:
                payload = res.read()
                status = res.status
                kind = res.headers.get("Content-Type", "")
        except urllib.error.HTTPError as e:
            payload, status, kind = e.read(), e.code, e.headers.get("Content-Type", "")
        return status, (json.loads(payload) if kind.startswith("application/json") else payload.decode())

    def stop(self):
        self.process.terminate()
        code = self.process.wait(timeout=10)
        return code


def expect(condition, what):
    if not condition:
        raise AssertionError(what)


def main():
    snnplan, rules_dir = sys.argv[1], sys.argv[2]
    work = tempfile.mkdtemp(prefix="snnplan-serve-http-")
    try:
        shutil.copy(os.path.join(rules_dir, "snn_distributed.yaml"), os.path.join(work, "rules.yaml"))
        shutil.copy(os.path.join(rules_dir, "snn_distributed.test.yaml"), os.path.join(work, "rules.test.yaml"))
        with open(os.path.join(work, "rules.yaml"), encoding="utf-8") as f:
            text = f.read()

        # A remote host without --allow-remote: a bad command line, nothing served.
        refused = subprocess.run([snnplan, "serve", "rules.yaml", "--host", "0.0.0.0", "--port", "0"], cwd=work,
                                 capture_output=True, text=True, timeout=30)
        expect(refused.returncode == 2, f"remote host without --allow-remote exits 2, got {refused.returncode}")
        expect("give --allow-remote as well" in refused.stderr, refused.stderr)

        server = Server(snnplan, ["rules.yaml", "--tests", "rules.test.yaml", "--port", "0"], work)
        try:
            expect(server.first_line.startswith("serving rules.yaml at http://127.0.0.1:"), server.first_line)
            status, page = server.request("/")
            expect(status == 200 and "snnplan workbench" in page, "the page is served")
            expect("http://" not in page and "https://" not in page and "<script src" not in page,
                   "the page loads nothing from elsewhere")

            status, f = server.request("/api/file")
            expect(status == 200 and f["text"] == text and f["tests"] == ["rules.test.yaml"], f"file: {status}")

            broken = edited(text).replace("{ge: 8}", "{gee: 8}")
            status, c = server.request("/api/check", {"text": broken})
            expect(status == 200 and c["ok"] is False, f"check of a broken text: {status} {c.get('ok')}")
            d = c["diagnostics"][0]
            expect((d["line"], d["column"], d["code"]) == (81, 22, "unknown-key"), f"diagnostic: {d}")
            cli = subprocess.run([snnplan, "check", "-"], input=broken, capture_output=True, text=True, cwd=work)
            expect(d["message"] in cli.stdout, "the diagnostic is worded as snnplan check words it")
            expect(c["report"].endswith("rules.yaml: failed — 1 error, 0 warnings\n"), c["report"])

            status, r = server.request("/api/decide", {"text": edited(text), "inputs": INPUT})
            expect(status == 200 and r["record"]["mode"] == "dp", f"decide: {status} {r}")
            expect(r["tried"]["speed/fsdp2-tp-for-cifar10dvs-vgg"]["failed"] == "world_size ge 8: 4 >= 8 is false", r["tried"])
            status, r = server.request("/api/decide", {"text": text, "inputs": {"world_size": "x"}})
            expect(status == 200 and r["error"] == "missing required input 'model'", f"the rules' refusal is the answer: {r}")
            status, r = server.request("/api/decide", {"text": text, "inputs": [1]})
            expect(status == 422 and "error" in r, f"inputs that are no object are refused: {status} {r}")

            status, diff = server.request("/api/diff", {"text": edited(text)})
            expect(status == 200 and diff["changed"] and len(diff["changes"]) == 1, f"diff: {status}")
            expect("world_size < 8" in diff["text"] and "witness" in diff["text"], diff["text"])
            status, same = server.request("/api/diff", {"text": text})
            expect(status == 200 and not same["changes"], "no change against itself")

            status, m = server.request("/api/map", {"text": edited(text), "x": {"name": "world_size", "from": 1, "to": 10},
                                                    "y": {"name": "prefer"}, "inputs": INPUT})
            expect(status == 200 and m["changed_cells"] == 2, f"map: {status} {m.get('changed_cells')}")

            wrong = text.replace("{mode: dp, optimizer_sharding: = zero_sharding, dp_mesh_dim",
                                 "{mode: dp, optimizer_sharding: none, dp_mesh_dim", 1)
            status, t = server.request("/api/tests", {"text": wrong})
            expect(status == 200 and t["failed"] >= 1 and t["passed"] >= 1 and "coverage" in t, f"tests: {status} {t.get('failed')} {t.get('passed')}")
            status, t = server.request("/api/tests", {"text": text, "mutate": True})
            expect(status == 200 and t["failed"] == 0 and "mutation" in t, f"tests with mutation: {status}")

            # Refusals.
            status, r = server.request("/api/check", raw=b"x" * (4 * 1024 * 1024 + 1))
            expect(status == 413, f"a body over 4 MiB is refused with 413, got {status}")
            # The JSON as `curl -d` sends it, labelled a form, past the 8 KiB a form may have.
            padded = json.dumps({"text": text + "#" * 8192 + "\n"}).encode()
            status, r = server.request("/api/check", raw=padded, content_type="application/x-www-form-urlencoded")
            expect(status == 200 and "ok" in r["report"], f"a form-labelled JSON body of {len(padded)} bytes: {status} {r}")
            status, r = server.request("/api/check", raw=b"--b\r\n\r\nx\r\n--b--\r\n",
                                       content_type="multipart/form-data; boundary=b")
            expect(status == 400 and "multipart" in r["error"], f"a multipart body: {status} {r}")
            status, r = server.request("/api/check", raw=b"{not json")
            expect(status == 400 and r["error"].startswith("the request body is not JSON"), f"{status} {r}")
            status, r = server.request("/api/check", {"txt": "x"})
            expect(status == 400, f"no text: {status}")
            status, r = server.request("/api/nothing")
            expect(status == 404, f"unknown endpoint: {status}")

            # Concurrent requests: good and broken texts at once, every answer the right one.
            answers, errors = [], []

            def worker(i):
                try:
                    body = {"text": edited(text) if i % 2 else text, "inputs": INPUT}
                    for _ in range(3):
                        server.request("/api/check", {"text": broken if i % 3 == 0 else body["text"]})
                        s, r = server.request("/api/decide", body)
                        answers.append((i % 2, r["record"]["mode"]))
                except Exception as e:  # noqa: BLE001 -- reported below
                    errors.append(repr(e))

            threads = [threading.Thread(target=worker, args=(i,)) for i in range(12)]
            for th in threads:
                th.start()
            for th in threads:
                th.join()
            expect(not errors, f"concurrent requests failed: {errors[:3]}")
            expect(all(mode == ("dp" if odd else "fsdp2_tp") for odd, mode in answers) and len(answers) == 36,
                   "every concurrent answer is the one for its text")

            # Save: refused with errors, written when it checks, refused when the disk changed.
            status, r = server.request("/api/save", {"text": broken, "base_sha256": f["sha256"]})
            expect(status == 422 and r["error"].startswith("not saved: the text has 1 error"), f"{status} {r}")
            status, r = server.request("/api/save", {"text": edited(text), "base_sha256": f["sha256"]})
            expect(status == 200 and r["saved"] == "saved rules.yaml", f"save: {status} {r}")
            with open(os.path.join(work, "rules.yaml"), encoding="utf-8") as fh:
                expect(fh.read() == edited(text), "the saved file holds the text")
            expect(sorted(os.listdir(work)) == ["rules.test.yaml", "rules.yaml"], f"no temporary left: {os.listdir(work)}")
            with open(os.path.join(work, "rules.yaml"), "w", encoding="utf-8") as fh:
                fh.write(text)  # someone else's change
            status, r = server.request("/api/save", {"text": edited(text) + "# mine\n", "base_sha256": r["sha256"]})
            expect(status == 409 and "changed on disk" in r["error"] and len(r["diff"]["changes"]) == 1, f"{status} {r}")
            with open(os.path.join(work, "rules.yaml"), encoding="utf-8") as fh:
                expect(fh.read() == text, "a refused save leaves the file alone")
        finally:
            code = server.stop()
        expect(code == 143, f"SIGTERM ends the server with 143, got {code}")

        # Remote: a token printed at start, required on every request.
        remote = Server(snnplan, ["rules.yaml", "--host", "0.0.0.0", "--allow-remote", "--port", "0"], work)
        try:
            expect("?token=" in remote.first_line, remote.first_line)
            token = remote.first_line.split("?token=")[1]
            status, r = remote.request("/api/file")
            expect(status == 403, f"no token: {status}")
            status, r = remote.request("/api/file", token="0" * 32)
            expect(status == 403, f"a wrong token: {status}")
            status, r = remote.request("/api/file", token=token)
            expect(status == 200, f"the token: {status}")
        finally:
            remote.stop()
    finally:
        shutil.rmtree(work, ignore_errors=True)
    print("ok")
    return 0


if __name__ == "__main__":
    sys.exit(main())
