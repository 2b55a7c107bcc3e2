#!/usr/bin/env python3
"""A scripted Language Server Protocol client for `snnplan lsp` (issue 33).

Runs the server as an editor would (Content-Length framed JSON-RPC over its standard input and
output) on a copy of tests/lsp/ and checks each answer exactly: the diagnostics of a broken
file against `snnplan check --format json` of the same file, their clearing after a fix, hover,
definition, references, completion, code actions, code lenses, the protocol's errors for bad
JSON-RPC, and the refusal of a file outside the rule roots.

    lsp_client_test.py SNNPLAN FIXTURES_DIR
"""

import json
import os
import select
import shutil
import subprocess
import sys
import tempfile

SNNPLAN, FIXTURES = os.path.abspath(sys.argv[1]), os.path.abspath(sys.argv[2])
TIMEOUT_S = int(os.environ.get("SNNPLAN_LSP_TEST_TIMEOUT", "30"))
failures = []
checks = 0


def check(condition, what, got=None):
    global checks
    checks += 1
    if not condition:
        failures.append(f"{what}: got {json.dumps(got, indent=1) if got is not None else '-'}")


class Client:
    def __init__(self, *args):
        self.proc = subprocess.Popen([SNNPLAN, "lsp", *args], stdin=subprocess.PIPE,
                                     stdout=subprocess.PIPE, stderr=subprocess.PIPE)
        self.next_id = 0
        self.buffer = b""
        self.notifications = []

    def write_raw(self, data):
        self.proc.stdin.write(data)
        self.proc.stdin.flush()

    def send_body(self, body):
        self.write_raw(b"Content-Length: %d\r\n\r\n" % len(body) + body)

    def notify(self, method, params):
        self.send_body(json.dumps({"jsonrpc": "2.0", "method": method, "params": params}).encode())

    def _read(self, n):
        while len(self.buffer) < n:
            ready, _, _ = select.select([self.proc.stdout], [], [], TIMEOUT_S)
            if not ready:
                raise TimeoutError("the server did not answer within %d s" % TIMEOUT_S)
            chunk = os.read(self.proc.stdout.fileno(), 65536)
            if not chunk:
                raise EOFError("the server closed its output")
            self.buffer += chunk
        out, self.buffer = self.buffer[:n], self.buffer[n:]
        return out

    def receive(self):
        header = b""
        while not header.endswith(b"\r\n\r\n"):
            header += self._read(1)
        length = None
        for line in header.decode().split("\r\n"):
            if line.lower().startswith("content-length:"):
                length = int(line.split(":")[1])
        return json.loads(self._read(length))

    def request(self, method, params=None, raw_id=None):
        self.next_id += 1
        message = {"jsonrpc": "2.0", "id": self.next_id if raw_id is None else raw_id,
                   "method": method}
        if params is not None:
            message["params"] = params
        self.send_body(json.dumps(message).encode())
        return self.response(message["id"])

    def response(self, id_):
        while True:
            message = self.receive()
            if "method" not in message:
                if message.get("id") == id_:
                    return message
                continue
            self.notifications.append(message)

    def diagnostics_for(self, uri):
        """The next publishDiagnostics for `uri` (earlier ones already received count first)."""
        while True:
            for k, note in enumerate(self.notifications):
                if note["method"] == "textDocument/publishDiagnostics" and note["params"]["uri"] == uri:
                    del self.notifications[k]
                    return note["params"]
            self.notifications.append(self.receive())


def position_of(text, needle, nth=0, offset=0):
    """The LSP position of the nth occurrence of `needle` in `text` (ASCII fixtures)."""
    at = -1
    for _ in range(nth + 1):
        at = text.index(needle, at + 1)
    at += offset
    line = text.count("\n", 0, at)
    return {"line": line, "character": at - (text.rfind("\n", 0, at) + 1)}


def main():
    work = tempfile.mkdtemp(prefix="snnplan-lsp-")
    root = os.path.join(work, "rules")
    outside = os.path.join(work, "outside")
    shutil.copytree(FIXTURES, root)
    os.makedirs(outside)
    shutil.copy(os.path.join(FIXTURES, "warned.yaml"), os.path.join(outside, "secret.yaml"))
    uri = lambda name: "file://" + os.path.join(root, name)
    broken_uri, warned_uri = uri("broken.yaml"), uri("warned.yaml")
    broken = open(os.path.join(root, "broken.yaml")).read()
    warned = open(os.path.join(root, "warned.yaml")).read()
    c = Client()
    try:
        # Before initialize, requests are refused with ServerNotInitialized.
        early = c.request("textDocument/hover", {})
        check(early.get("error", {}).get("code") == -32002, "a request before initialize", early)

        init = c.request("initialize", {"processId": None, "rootUri": "file://" + root,
                                        "capabilities": {}})
        caps = init["result"]["capabilities"]
        check(caps["textDocumentSync"]["change"] == 2, "incremental sync is offered", caps)
        for provider in ("hoverProvider", "definitionProvider", "referencesProvider",
                         "completionProvider", "codeActionProvider", "codeLensProvider"):
            check(provider in caps, f"capability {provider}", caps)
        c.notify("initialized", {})

        # didOpen of a broken file: what `snnplan check` reports, at the same places (0-based).
        c.notify("textDocument/didOpen", {"textDocument": {
            "uri": broken_uri, "languageId": "yaml", "version": 1, "text": broken}})
        published = c.diagnostics_for(broken_uri)
        expected = [
            {"range": {"start": {"line": 20, "character": 12}, "end": {"line": 20, "character": 17}},
             "severity": 1, "code": "unknown-name", "source": "snnplan",
             "message": "unknown table 'finsh' (did you mean 'finish'?)",
             "relatedInformation": [{"location": {"uri": broken_uri, "range": {
                 "start": {"line": 20, "character": 12}, "end": {"line": 20, "character": 17}}},
                 "message": "did you mean 'finish'?"}]},
            {"range": {"start": {"line": 23, "character": 2}, "end": {"line": 23, "character": 8}},
             "severity": 2, "code": "unreachable-table", "source": "snnplan",
             "message": "table 'finish' is never used: no path from the start table 'choose' reaches it"},
        ]
        check(published["diagnostics"] == expected, "didOpen publishes the exact diagnostics",
              published)
        check(published.get("version") == 1, "the diagnostics carry the document's version", published)
        cli = json.loads(subprocess.run([SNNPLAN, "check", "--format", "json",
                                         os.path.join(root, "broken.yaml")],
                                        capture_output=True, text=True).stdout)
        check([(d["line"] - 1, d["column"] - 1, d["code"], d["message"]) for d in cli] ==
              [(d["range"]["start"]["line"], d["range"]["start"]["character"], d["code"],
                d["message"]) for d in published["diagnostics"]],
              "the diagnostics are snnplan check's, converted to 0-based", cli)

        # Code action on the unknown table: the checker's suggestion as an edit.
        actions = c.request("textDocument/codeAction", {
            "textDocument": {"uri": broken_uri}, "range": expected[0]["range"],
            "context": {"diagnostics": [expected[0]]}})["result"]
        check(len(actions) == 1 and actions[0]["title"] == "Replace with 'finish'" and
              actions[0]["edit"]["changes"][broken_uri] ==
              [{"range": expected[0]["range"], "newText": "finish"}],
              "the did-you-mean code action replaces the name", actions)

        # Hover: an input, a table, a rule (with a witness from the analysis).
        hover = lambda text, needle, nth=0, off=0, u=broken_uri: c.request("textDocument/hover", {
            "textDocument": {"uri": u}, "position": position_of(text, needle, nth, off)})
        h = hover(broken, "prefer:", 0)["result"]
        check(h["contents"]["value"] == "**input** `prefer`: `string`\n\nrequired (no default)\n\n"
              "allowed values: `speed`, `memory`", "hover on an input", h)
        h = hover(broken, "world_size", 0)["result"]
        check(h["contents"]["value"] == "**input** `world_size`: `int`\n\ndefault: `1`",
              "hover on an input with a default", h)

        # didChange (incremental): fix the table name; the diagnostics are cleared.
        at = position_of(broken, "finsh")
        c.notify("textDocument/didChange", {
            "textDocument": {"uri": broken_uri, "version": 2},
            "contentChanges": [{"range": {"start": at, "end": {"line": at["line"],
                                                              "character": at["character"] + 5}},
                                "text": "finish"}]})
        published = c.diagnostics_for(broken_uri)
        check(published["diagnostics"] == [] and published["version"] == 2,
              "an incremental fix clears the diagnostics", published)
        fixed = broken.replace("finsh", "finish")

        h = hover(fixed, "finish:", 0)["result"]
        check(h["contents"]["value"] == "**table** `finish`: 1 rule\n\n`done`\n\n"
              "called by: `choose/fast` (next)", "hover on a table: its rules and callers", h)
        h = hover(fixed, "name: fast", 0, 6)["result"]
        check(h["contents"]["value"] == "**rule** `choose/fast`\n\nsets: `level: = helped.level`\n\n"
              "continues with table `finish` (next)\n\nreached by: `{prefer: speed, world_size: 8}`",
              "hover on a rule: what it sets and a witness", h)
        h = hover(fixed, "helped.level", 0, 2)["result"]
        check(h["contents"]["value"] == "**derived value** `helped`: the record of rule set `helper`",
              "hover on a derived value that calls a rule set", h)

        # Definition: a table named by next, a let value, an input in a template, a uses: file.
        definition = lambda needle, nth=0, off=0: c.request("textDocument/definition", {
            "textDocument": {"uri": broken_uri},
            "position": position_of(fixed, needle, nth, off)})["result"]
        d = definition("next: finish", 0, 7)
        check(d == [{"uri": broken_uri, "range": {"start": position_of(fixed, "finish:"),
                                                  "end": position_of(fixed, "finish:", 0, 6)}}],
              "definition of a table named by next", d)
        d = definition("many: true", 0, 1)
        check(d == [{"uri": broken_uri, "range": {"start": position_of(fixed, "many:"),
                                                  "end": position_of(fixed, "many:", 0, 4)}}],
              "definition of a let value used in a when", d)
        d = definition("{prefer}", 0, 2)
        check(d == [{"uri": broken_uri, "range": {"start": position_of(fixed, "prefer:"),
                                                  "end": position_of(fixed, "prefer:", 0, 6)}}],
              "definition of an input named in a template", d)
        d = definition("helper.yaml", 0, 2)
        check(d == [{"uri": uri("helper.yaml"), "range": {"start": {"line": 0, "character": 0},
                                                          "end": {"line": 0, "character": 0}}}],
              "definition of a uses: file is that file", d)

        # References: every use of the input prefer, with its declaration.
        refs = c.request("textDocument/references", {
            "textDocument": {"uri": broken_uri}, "position": position_of(fixed, "prefer:"),
            "context": {"includeDeclaration": True}})["result"]
        check([r["range"]["start"] for r in refs] ==
              [position_of(fixed, "prefer"), position_of(fixed, "prefer", 1),
               position_of(fixed, "prefer", 2)],
              "references of an input: its declaration, the when and the template", refs)

        # Completion: table names after next:, enum values, matcher keywords, builtins, fields.
        def complete(text, line_text, version):
            """Replace the file's last line with `line_text` and complete at its end."""
            lines = text.split("\n")
            lines[-2] = line_text
            new_text = "\n".join(lines)
            c.notify("textDocument/didChange", {"textDocument": {"uri": broken_uri, "version": version},
                                                "contentChanges": [{"text": new_text}]})
            c.diagnostics_for(broken_uri)
            pos = {"line": len(lines) - 2, "character": len(line_text)}
            items = c.request("textDocument/completion", {"textDocument": {"uri": broken_uri},
                                                          "position": pos})["result"]["items"]
            return {i["label"]: i for i in items}
        labels = complete(fixed, "      next: ", 3)
        check(set(labels) == {"choose", "finish"}, "completion of table names after next:", labels)
        check(labels["finish"]["documentation"]["value"].startswith("**table** `finish`"),
              "a table's completion is documented", labels["finish"])
        labels = complete(fixed, "      when: {prefer: ", 4)
        check(set(labels) == {"speed", "memory"}, "completion of an input's allowed values", labels)
        labels = complete(fixed, "      when: {world_size: {", 5)
        check({"eq", "ne", "lt", "le", "gt", "ge", "one_of", "not_one_of"} <= set(labels),
              "completion of matcher keywords", labels)
        labels = complete(fixed, "      when: {", 6)
        check(set(labels) == {"prefer", "world_size", "many", "helped"},
              "completion of input and derived names in a when", labels)
        labels = complete(fixed, "      set: {", 7)
        check(set(labels) == {"mode", "level", "rationale"}, "completion of record fields", labels)
        labels = complete(fixed, "      set: {level: = ", 8)
        check({"min", "max", "starts_with", "world_size", "many"} <= set(labels) and
              labels["starts_with"]["detail"].startswith("starts_with("),
              "completion of builtins and names in an expression", labels)
        labels = complete(fixed, "      wh", 9)
        check({"name", "when", "set", "because", "next", "fallback"} <= set(labels) and
              labels["when"]["documentation"]["value"] != "", "completion of rule keys", labels)
        c.notify("textDocument/didChange", {"textDocument": {"uri": broken_uri, "version": 10},
                                            "contentChanges": [{"text": fixed}]})
        c.diagnostics_for(broken_uri)

        # A half-typed file: every request still answered.
        c.notify("textDocument/didChange", {"textDocument": {"uri": broken_uri, "version": 11},
                                            "contentChanges": [{"text": fixed[:len(fixed) // 2] + "  - {name: [\n"}]})
        half = c.diagnostics_for(broken_uri)
        check(len(half["diagnostics"]) >= 1 and half["diagnostics"][0]["severity"] == 1,
              "a half-typed file gets an error, not a crash", half)
        for method in ("textDocument/hover", "textDocument/definition", "textDocument/completion"):
            r = c.request(method, {"textDocument": {"uri": broken_uri},
                                   "position": {"line": 9999, "character": 9999}})
            check("result" in r, f"{method} beyond the end of a half-typed file is answered", r)
        c.notify("textDocument/didChange", {"textDocument": {"uri": broken_uri, "version": 12},
                                            "contentChanges": [{"text": fixed}]})
        c.diagnostics_for(broken_uri)

        # A rule file with a search (rules/snn_llm_planning.yaml): no errors, and completion of
        # the keys of a search and of its constraints.
        shutil.copy(os.path.join(FIXTURES, "..", "..", "rules", "snn_llm_planning.yaml"), root)
        planning_uri = uri("snn_llm_planning.yaml")
        planning = open(os.path.join(root, "snn_llm_planning.yaml")).read()
        c.notify("textDocument/didOpen", {"textDocument": {
            "uri": planning_uri, "languageId": "yaml", "version": 1, "text": planning}})
        p = c.diagnostics_for(planning_uri)["diagnostics"]
        check([d for d in p if d["severity"] == 1] == [], "the planning rules open without errors", p)

        def complete_in_planning(line_start, typed, version):
            """Replace the planning file's line that starts with `line_start` by `typed`; complete."""
            lines = planning.split("\n")
            k = next(i for i, line in enumerate(lines) if line.startswith(line_start))
            lines[k] = typed
            c.notify("textDocument/didChange", {"textDocument": {"uri": planning_uri, "version": version},
                                                "contentChanges": [{"text": "\n".join(lines)}]})
            c.diagnostics_for(planning_uri)
            items = c.request("textDocument/completion", {"textDocument": {"uri": planning_uri},
                              "position": {"line": k, "character": len(typed)}})["result"]["items"]
            return {i["label"] for i in items}
        labels = complete_in_planning("      minimize:", "      mini", 2)
        check({"for", "let", "require", "tiers", "fits", "minimize", "none_valid", "none_fits"} <= labels,
              "completion of a search's keys", labels)
        labels = complete_in_planning('          holds: "num_layers % pp == 0"', "          hol", 3)
        check({"name", "holds", "message"} <= labels, "completion of a constraint's keys", labels)

        # Warnings: the allowance code action, and the rule's hover says it is never reached.
        c.notify("textDocument/didOpen", {"textDocument": {
            "uri": warned_uri, "languageId": "yaml", "version": 1, "text": warned}})
        w = c.diagnostics_for(warned_uri)["diagnostics"]
        check([d["code"] for d in w] == ["unused", "unreachable-rule"], "warnings of warned.yaml", w)
        actions = c.request("textDocument/codeAction", {
            "textDocument": {"uri": warned_uri}, "range": w[1]["range"],
            "context": {"diagnostics": [w[1]]}})["result"]
        check([a["title"] for a in actions] == ["Allow 'unreachable-rule' in rule 'never'"] and
              actions[0]["edit"]["changes"][warned_uri] == [{
                  "range": {"start": {"line": 12, "character": 0}, "end": {"line": 12, "character": 0}},
                  "newText": "      allow: [unreachable-rule]\n      reason: \"TODO: say why this is accepted\"\n"}],
              "the allowance code action for a warning", actions)
        edit = actions[0]["edit"]["changes"][warned_uri][0]
        lines = warned.split("\n")
        allowed = "\n".join(lines[:12]) + "\n" + edit["newText"] + "\n".join(lines[12:])
        c.notify("textDocument/didChange", {"textDocument": {"uri": warned_uri, "version": 2},
                                            "contentChanges": [{"text": allowed}]})
        w = c.diagnostics_for(warned_uri)["diagnostics"]
        check([d["code"] for d in w] == ["unused"], "the allowance it writes accepts the warning", w)
        actions = c.request("textDocument/codeAction", {
            "textDocument": {"uri": warned_uri}, "range": w[0]["range"],
            "context": {"diagnostics": w}})["result"]
        check([a["edit"]["changes"][warned_uri][0]["newText"] for a in actions] ==
              [", allow: [unused], reason: \"TODO: say why this is accepted\""],
              "the allowance code action on an input in flow style", actions)
        h = hover(allowed, "name: never", 0, 6, warned_uri)["result"]
        check(h["contents"]["value"].endswith("never reached: no input fires this rule"),
              "hover on a rule no input reaches", h)

        # Code lens: input.yaml beside the rule file, decided and traced.
        lenses = c.request("textDocument/codeLens", {"textDocument": {"uri": broken_uri}})["result"]
        titles = [(l["range"]["start"]["line"], l["command"]["title"]) for l in lenses]
        check(titles == [(0, "input.yaml: mode: tp, level: 8"),
                         (15, "step 1: entered table 'choose'"),
                         (16, "step 2: fired"),
                         (23, "step 5: entered table 'finish'"),
                         (24, "step 6: fired")],
              "the code lens shows the decision and its trace", titles)

        # Re-check dependents: helper.yaml changes on disk; broken.yaml is checked again.
        with open(os.path.join(root, "helper.yaml"), "a") as f:
            f.write("    - name: extra\n      set: {level: 1}\n")
        c.notify("workspace/didChangeWatchedFiles", {"changes": [{"uri": uri("helper.yaml"), "type": 2}]})
        again = c.diagnostics_for(broken_uri)
        check(again["diagnostics"] == [], "a watched used file re-checks the files using it", again)

        # Files outside the rule roots are refused.
        secret_uri = "file://" + os.path.join(outside, "secret.yaml")
        c.notify("textDocument/didOpen", {"textDocument": {
            "uri": secret_uri, "languageId": "yaml", "version": 1, "text": warned}})
        r = c.request("textDocument/hover", {"textDocument": {"uri": secret_uri},
                                             "position": {"line": 2, "character": 3}})
        check(r.get("error", {}).get("code") == -32602 and "outside the rule roots" in r["error"]["message"],
              "a request for a file outside the roots is refused", r)
        check(not any(n["method"] == "textDocument/publishDiagnostics" and n["params"]["uri"] == secret_uri
                      for n in c.notifications), "no diagnostics for a file outside the roots",
              c.notifications)
        # A rule file inside the roots whose uses: leads out of them: the loader refuses it.
        climbing = broken.replace("helper: helper.yaml", "helper: ../outside/secret.yaml")
        climbing_uri = uri("climbing.yaml")
        c.notify("textDocument/didOpen", {"textDocument": {
            "uri": climbing_uri, "languageId": "yaml", "version": 1, "text": climbing}})
        refused = c.diagnostics_for(climbing_uri)["diagnostics"]
        check([(d["code"], d["range"]["start"]) for d in refused][:1] ==
              [("uses", position_of(climbing, "../outside"))] and
              "outside" in refused[0]["message"] and "secret.yaml" in refused[0]["message"],
              "a uses: file outside the rule roots is refused, not read", refused)
        r = c.request("textDocument/definition", {"textDocument": {"uri": "file:///etc/passwd"},
                                                  "position": {"line": 0, "character": 0}})
        check(r.get("error", {}).get("code") == -32602, "a definition request for /etc/passwd is refused", r)

        # Bad JSON-RPC: the protocol's errors, and the server goes on.
        c.send_body(b"{not json")
        r = c.response(None)
        check(r["error"]["code"] == -32700, "a body that is not JSON: parse error", r)
        c.send_body(b"[1, 2]")
        r = c.response(None)
        check(r["error"]["code"] == -32600, "a batch array: invalid request", r)
        c.send_body(json.dumps({"jsonrpc": "1.0", "id": 77, "method": "shutdown"}).encode())
        r = c.response(77)
        check(r["error"]["code"] == -32600, "a wrong jsonrpc version: invalid request", r)
        r = c.request("textDocument/frobnicate", {})
        check(r["error"]["code"] == -32601, "an unknown method: method not found", r)
        r = c.request("textDocument/hover", {"textDocument": {"uri": broken_uri}, "position": {"line": -1}})
        check(r["error"]["code"] == -32602, "a bad position: invalid params", r)
        r = c.request("textDocument/hover", {"textDocument": {"uri": broken_uri}})
        check(r["error"]["code"] == -32602, "a missing position: invalid params", r)
        c.write_raw(b"Content-Type: nothing\r\n\r\n")
        r = c.response(None)
        check(r["error"]["code"] == -32700, "a header without Content-Length: parse error", r)
        h = hover(fixed, "world_size", 0)
        check("result" in h, "the server answers after the bad messages", h)

        r = c.request("shutdown")
        check(r.get("result", 0) is None, "shutdown answers null", r)
        r = c.request("textDocument/hover", {})
        check(r["error"]["code"] == -32600, "a request after shutdown is refused", r)
        c.notify("exit", {})
        check(c.proc.wait(timeout=TIMEOUT_S) == 0, "exit after shutdown exits 0", c.proc.returncode)
    finally:
        if c.proc.poll() is None:
            c.proc.kill()
        shutil.rmtree(work)

    # Exit without shutdown: 1, as the protocol says; the end of input ends the server too.
    c = Client()
    c.request("initialize", {"rootUri": None, "capabilities": {}})
    c.notify("exit", {})
    check(c.proc.wait(timeout=TIMEOUT_S) == 1, "exit without shutdown exits 1", c.proc.returncode)
    c = Client()
    c.proc.stdin.close()
    check(c.proc.wait(timeout=TIMEOUT_S) == 1, "the end of input ends the server", c.proc.returncode)

    for f in failures:
        print("FAILED:", f)
    print(f"{checks - len(failures)} passed, {len(failures)} failed")
    return 1 if failures else 0


if __name__ == "__main__":
    sys.exit(main())
