#!/usr/bin/env python3
"""The workbench page of `snnplan serve` in real headless Chromium, driven by Selenium (Debian's
chromium, chromium-driver and python3-selenium; tools/deps.sh): a permalink reproduces a
decision; typing a mistake marks its diagnostic at its line; fixing it shows the diff and the
changed cells of the map and the rule that no longer fires with its failed condition; Save
writes the file; a reload starts from the saved text with nothing left to diff.

Usage: serve_browser_test.py SNNPLAN RULES_DIR [PNG_OUT]

Never skips: a missing browser, driver or Selenium fails the test. PNG_OUT, when given, keeps
a screenshot of the page after the edit (docs/serve.png is made this way).
"""

import json
import os
import shutil
import subprocess
import sys
import tempfile
import time
import urllib.parse

try:
    from selenium import webdriver
    from selenium.webdriver.chrome.service import Service
    from selenium.webdriver.common.by import By
except ImportError:
    # Debian's python3-selenium belongs to Debian's interpreter; another python3 on PATH
    # (pyenv, a venv) does not see it.
    if sys.executable != "/usr/bin/python3" and os.path.exists("/usr/bin/python3"):
        os.execv("/usr/bin/python3", ["/usr/bin/python3", *sys.argv])
    raise

EDIT_AFTER = "        model_family: cifar10dvs_vgg"
INPUT = {"model": "cifar10dvs_vgg", "world_size": 4, "prefer": "speed", "batch_size": 32}
# Each wait, in seconds: the live diff of an edit takes ~2 s in a normal build and several
# times longer under the sanitizers (CI runs this test in the ASan build too).
TIMEOUT = float(os.environ.get("SNNPLAN_BROWSER_TEST_TIMEOUT", "120"))


def wait_for(driver, what, condition):
    deadline = time.monotonic() + TIMEOUT
    while time.monotonic() < deadline:
        try:
            value = condition()
            if value:
                return value
        except Exception:  # noqa: BLE001 -- the page is still changing
            pass
        time.sleep(0.1)
    log = "\n".join(str(e) for e in driver.get_log("browser")) if hasattr(driver, "get_log") else ""
    raise AssertionError(f"timed out waiting for {what}\nbrowser log:\n{log}")


def type_at(driver, editor, offset, keys):
    driver.execute_script("arguments[0].focus(); arguments[0].setSelectionRange(arguments[1], arguments[2]);",
                          editor, offset[0], offset[1])
    editor.send_keys(keys)


def main():
    snnplan, rules_dir = sys.argv[1], sys.argv[2]
    png = sys.argv[3] if len(sys.argv) > 3 else None
    work = tempfile.mkdtemp(prefix="snnplan-serve-browser-")
    server = driver = None
    try:
        shutil.copy(os.path.join(rules_dir, "snn_distributed.yaml"), os.path.join(work, "rules.yaml"))
        shutil.copy(os.path.join(rules_dir, "snn_distributed.test.yaml"), os.path.join(work, "rules.test.yaml"))
        with open(os.path.join(work, "rules.yaml"), encoding="utf-8") as f:
            text = f.read()
        server = subprocess.Popen([snnplan, "serve", "rules.yaml", "--tests", "rules.test.yaml", "--port", "0"],
                                  cwd=work, stdout=subprocess.PIPE, text=True)
        url = server.stdout.readline().strip().rsplit(" at ", 1)[-1]

        options = webdriver.ChromeOptions()
        options.binary_location = shutil.which("chromium") or "/usr/bin/chromium"
        for flag in ("--headless", "--no-sandbox", "--disable-gpu", "--disable-quic", "--no-first-run",
                     "--disable-background-networking", "--disable-component-update", "--disable-sync",
                     "--window-size=1500,1100", "--user-data-dir=" + os.path.join(work, "profile")):
            options.add_argument(flag)
        driver = webdriver.Chrome(service=Service(shutil.which("chromedriver") or "/usr/bin/chromedriver"),
                                  options=options)
        q = driver.find_element
        qs = driver.find_elements

        # A permalink reproduces a decision: the original rules give fsdp2_tp for this input.
        driver.get(url + "#inputs=" + urllib.parse.quote(json.dumps(INPUT)))
        wait_for(driver, "the permalink's decision", lambda: "mode" in q(By.ID, "record").text)
        record = q(By.ID, "record").text
        assert "fsdp2_tp" in record, record
        fired = wait_for(driver, "fired rows", lambda: [r.get_attribute("data-path") for r in qs(By.CSS_SELECTOR, "tr.rule.fired")])
        assert fired == ["recommend/by-preference-speed", "speed/fsdp2-tp-for-cifar10dvs-vgg"], fired
        wait_for(driver, "the tests' summary", lambda: "passed, 0 failed" in q(By.ID, "tests-summary").text)

        # Type a mistake on a new line 81: its diagnostic appears at line 81, column 22.
        editor = q(By.ID, "editor")
        end_of_line = text.index(EDIT_AFTER) + len(EDIT_AFTER)
        type_at(driver, editor, (end_of_line, end_of_line), "\n        world_size: {gee: 8}")
        item = wait_for(driver, "the diagnostic", lambda: q(By.CSS_SELECTOR, '#diagnostic-list li[data-code="unknown-key"]'))
        assert item.get_attribute("data-line") == "81" and item.get_attribute("data-column") == "22", item.text
        assert "unknown matcher 'gee'" in item.text, item.text
        assert "error" in q(By.CSS_SELECTOR, '#gutter div[data-line="81"]').get_attribute("class")
        assert "error" in q(By.CSS_SELECTOR, '#backdrop div[data-line="81"]').get_attribute("class")
        assert "failed" in q(By.ID, "status").text
        # The last good decision table stays shown.
        assert len(qs(By.CSS_SELECTOR, "tr.rule")) == 15

        # Fix it: 'gee' -> 'ge'. The diff and the map's changed cells appear.
        value = driver.execute_script("return arguments[0].value", editor)
        at = value.index("gee")
        type_at(driver, editor, (at, at + 3), "ge")
        wait_for(driver, "a clean check", lambda: "ok" in q(By.ID, "status").text)
        wait_for(driver, "the diff", lambda: "1 change group" in q(By.ID, "diff-summary").text)
        assert "world_size < 8" in q(By.ID, "diff").text
        for side, last in (("x", "10"),):
            field = q(By.ID, side + "-to")
            field.clear()
            field.send_keys(last)
        q(By.ID, "draw-map").click()
        # The titles are read inside the wait: the map is redrawn when a later analysis of the
        # text lands, and a cell found before that redraw is gone from the page after it.
        def changed_titles():
            cells = qs(By.CSS_SELECTOR, "#map-grid td.changed")
            return len(cells) == 2 and [cell.get_attribute("title") for cell in cells]
        titles = wait_for(driver, "changed cells", changed_titles)
        assert "fsdp2_tp → dp" in titles[0], titles
        wait_for(driver, "the decision for the edited text", lambda: "dp" in q(By.ID, "record").text and
                 "fsdp2_tp" not in q(By.ID, "record").text)
        skipped = q(By.CSS_SELECTOR, 'tr.rule[data-path="speed/fsdp2-tp-for-cifar10dvs-vgg"]')
        assert "skipped" in skipped.get_attribute("class")
        assert "world_size ge 8: 4 >= 8 is false" in skipped.text, skipped.text
        wait_for(driver, "the tests of the edited text", lambda: "passed, 0 failed" in q(By.ID, "tests-summary").text)
        if png:
            driver.execute_script("document.getElementById('changes').scrollIntoView()")
            driver.save_screenshot(png)

        # Save, then reload: the page starts from the saved text, with nothing to diff.
        q(By.ID, "save").click()
        wait_for(driver, "the save", lambda: q(By.ID, "save-message").text == "saved rules.yaml")
        with open(os.path.join(work, "rules.yaml"), encoding="utf-8") as f:
            saved = f.read()
        assert "        world_size: {ge: 8}\n" in saved and saved != text
        driver.refresh()
        wait_for(driver, "the reloaded text", lambda: "world_size: {ge: 8}" in
                 driver.execute_script("return document.getElementById('editor').value"))
        wait_for(driver, "an empty diff", lambda: "no input gets a different answer" in q(By.ID, "diff-summary").text)
        print("ok")
        return 0
    finally:
        if driver:
            driver.quit()
        if server:
            server.terminate()
            server.wait(timeout=10)
        shutil.rmtree(work, ignore_errors=True)


if __name__ == "__main__":
    sys.exit(main())
