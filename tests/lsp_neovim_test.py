#!/usr/bin/env python3
"""`snnplan lsp` under a real client: Debian's neovim, headless, with its built-in LSP client,
opens tests/lsp/broken.yaml and reads the diagnostics back; they must be what `snnplan check`
reports, at the same lines and columns (issue 33).

    lsp_neovim_test.py SNNPLAN FIXTURES_DIR
"""

import json
import os
import shutil
import subprocess
import sys
import tempfile

SNNPLAN, FIXTURES = os.path.abspath(sys.argv[1]), os.path.abspath(sys.argv[2])
HERE = os.path.dirname(os.path.abspath(__file__))


def main():
    nvim = shutil.which("nvim")
    if not nvim:
        print("FAILED: nvim is not installed (tools/deps.sh installs Debian's neovim)")
        return 1
    work = tempfile.mkdtemp(prefix="snnplan-nvim-")
    try:
        for name in ("broken.yaml", "helper.yaml"):
            shutil.copy(os.path.join(FIXTURES, name), work)
        rule_file = os.path.join(work, "broken.yaml")
        result = os.path.join(work, "result.txt")
        env = dict(os.environ, SNNPLAN=SNNPLAN, RULE_FILE=rule_file, RESULT_FILE=result,
                   HOME=work, XDG_CONFIG_HOME=work, XDG_DATA_HOME=work, XDG_STATE_HOME=work,
                   XDG_CACHE_HOME=work)
        subprocess.run([nvim, "--headless", "--clean", "-n", "-c",
                        "luafile " + os.path.join(HERE, "lsp_neovim_test.lua")],
                       env=env, cwd=work, timeout=60, stdin=subprocess.DEVNULL,
                       stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL, check=False)
        got = open(result).read().splitlines() if os.path.exists(result) else []
        cli = json.loads(subprocess.run([SNNPLAN, "check", "--format", "json", rule_file],
                                        capture_output=True, text=True).stdout)
        # vim.diagnostic.severity: ERROR 1, WARN 2.
        severity = {"error": 1, "warning": 2, "note": 3}
        expected = [f"{d['line'] - 1}:{d['column'] - 1}:{severity[d['severity']]}:{d['code']}:{d['message']}"
                    for d in cli]
        expected.append("hover:**input** `world_size`: `int`||default: `1`")
        literal = ["20:12:1:unknown-name:unknown table 'finsh' (did you mean 'finish'?)",
                   "23:2:2:unreachable-table:table 'finish' is never used: no path from the start "
                   "table 'choose' reaches it",
                   "hover:**input** `world_size`: `int`||default: `1`"]
        passed = failed = 0
        for what, want in (("the diagnostics snnplan check reports", expected),
                           ("the exact lines, columns and messages", literal)):
            if got == want:
                passed += 1
            else:
                failed += 1
                print(f"FAILED: {what}:\n  want {want}\n  got  {got}")
        print(f"{passed} passed, {failed} failed")
        return 1 if failed else 0
    finally:
        shutil.rmtree(work)


if __name__ == "__main__":
    sys.exit(main())
