"""Browser test of the dashboard: builds a history from the fixtures, renders the dashboard, opens it from
file:// in headless Chromium (driven over the DevTools protocol on --remote-debugging-pipe, standard library
only), fails on any console error, uncaught exception or failed load, checks every chart drew (non-empty
canvas, reported by the page in data-charts-drawn), and saves a screenshot.

Usage: python3 -m harnesslib.dashboard.browser_test [--help] [--keep DIR] [--page INDEX.html]   (screenshot:
DIR/dashboard.png; default a temporary directory, whose path is printed). --page checks that dashboard (an
outside project's, cmake/own_project_test.sh) instead of one rendered from the fixtures. Exit 0 pass, 1 fail,
77 no Chromium.
"""

import base64
import json
import os
import subprocess
import sys
import tempfile
import time

from . import dashboard
from .. import data
from ..testing import fixtures


class Cdp:
    """Minimal Chrome DevTools Protocol client over --remote-debugging-pipe (fd 3 in, fd 4 out, NUL-framed)."""

    def __init__(self, exe, profile_dir):
        to_chrome_r, self.to_chrome = os.pipe()
        self.from_chrome, from_chrome_w = os.pipe()
        hi_r, hi_w = os.dup(to_chrome_r), os.dup(from_chrome_w)  # avoid clobbering when dup2-ing onto 3 and 4

        def setup_fds():
            os.dup2(hi_r, 3)
            os.dup2(hi_w, 4)

        self.proc = subprocess.Popen(
            [
                exe,
                "--headless=new",
                "--remote-debugging-pipe",
                "--no-sandbox",
                "--disable-gpu",
                "--no-first-run",
                "--no-default-browser-check",
                "--disable-extensions",
                "--hide-scrollbars",
                "--user-data-dir=" + profile_dir,
                "--allow-file-access-from-files",
                "about:blank",
            ],
            preexec_fn=setup_fds,
            close_fds=False,
            stdout=subprocess.DEVNULL,
            stderr=subprocess.PIPE,
        )
        for fd in (to_chrome_r, from_chrome_w, hi_r, hi_w):
            os.close(fd)
        self.buf = b""
        self.next_id = 0
        self.events = []

    def send(self, method, params=None, session=None, timeout=60):
        self.next_id += 1
        msg = {"id": self.next_id, "method": method, "params": params or {}}
        if session:
            msg["sessionId"] = session
        os.write(self.to_chrome, json.dumps(msg).encode() + b"\0")
        deadline = time.time() + timeout
        while True:
            m = self._read(deadline)
            if m.get("id") == self.next_id:
                if "error" in m:
                    raise RuntimeError("%s: %s" % (method, m["error"]))
                return m.get("result", {})
            self.events.append(m)

    def _read(self, deadline):
        import select

        while b"\0" not in self.buf:
            left = deadline - time.time()
            if left <= 0:
                raise TimeoutError("no answer from Chromium")
            r, _, _ = select.select([self.from_chrome], [], [], left)
            if r:
                chunk = os.read(self.from_chrome, 1 << 20)
                if not chunk:
                    raise RuntimeError("Chromium closed the pipe: %s" % self.proc.stderr.read().decode()[-2000:])
                self.buf += chunk
        raw, self.buf = self.buf.split(b"\0", 1)
        return json.loads(raw)

    def close(self):
        try:
            self.send("Browser.close", timeout=10)
        except (RuntimeError, TimeoutError, OSError):
            pass
        try:
            self.proc.wait(timeout=10)
        except subprocess.TimeoutExpired:
            self.proc.kill()
            self.proc.wait()


def console_problems(events):
    """Console errors, uncaught exceptions and failed loads among the collected CDP events."""
    out = []
    for ev in events:
        m, p = ev.get("method"), ev.get("params", {})
        if m == "Runtime.exceptionThrown":
            d = p.get("exceptionDetails", {})
            out.append("uncaught: %s %s" % (d.get("text", ""), (d.get("exception") or {}).get("description", "")))
        elif m == "Runtime.consoleAPICalled" and p.get("type") in ("error", "assert"):
            out.append(
                "console.%s: %s"
                % (p["type"], " ".join(str(a.get("value", a.get("description", ""))) for a in p.get("args", [])))
            )
        elif m == "Log.entryAdded" and p.get("entry", {}).get("level") == "error":
            out.append("log: %s %s" % (p["entry"].get("text", ""), p["entry"].get("url", "")))
        elif m == "Network.loadingFailed":
            out.append("load failed: %s" % p.get("errorText", ""))
    return out


def new_page(cdp):
    """A new 1400x900 page in the browser with its console, log, page and network events on; its session id."""
    target = cdp.send("Target.createTarget", {"url": "about:blank"})["targetId"]
    sess = cdp.send("Target.attachToTarget", {"targetId": target, "flatten": True})["sessionId"]
    for dom in ("Runtime.enable", "Log.enable", "Page.enable", "Network.enable"):
        cdp.send(dom, session=sess)
    cdp.send(
        "Emulation.setDeviceMetricsOverride",
        {"width": 1400, "height": 900, "deviceScaleFactor": 1, "mobile": False},
        session=sess,
    )
    return sess


def check_page(url, screenshot, exe):
    """Opens `url`, returns (problems list, info dict); writes the screenshot PNG."""
    with tempfile.TemporaryDirectory(prefix="chromium-profile-") as prof:
        cdp = Cdp(exe, prof)
        try:
            sess = new_page(cdp)
            cdp.send("Page.navigate", {"url": url}, session=sess)
            info, deadline = {}, time.time() + 30
            while time.time() < deadline:
                r = cdp.send(
                    "Runtime.evaluate",
                    {
                        "returnByValue": True,
                        "expression": "JSON.stringify({ready: document.body && document.body.getAttribute('data-ready'),"
                        " total: document.body && document.body.getAttribute('data-charts-total'),"
                        " drawn: document.body && document.body.getAttribute('data-charts-drawn'),"
                        " canvases: document.querySelectorAll('canvas').length,"
                        " cells: document.querySelectorAll('table.grid a.badge').length,"
                        " height: document.documentElement.scrollHeight})",
                    },
                    session=sess,
                )
                if "value" not in r.get("result", {}):  # the page is between documents
                    time.sleep(0.2)
                    continue
                info = json.loads(r["result"]["value"])
                if info.get("ready") == "1":
                    break
                time.sleep(0.2)
            time.sleep(0.3)  # let late console messages arrive
            cdp.send("Runtime.evaluate", {"expression": "1"}, session=sess)
            shot = cdp.send("Page.captureScreenshot", {"format": "png", "captureBeyondViewport": True}, session=sess)
            with open(screenshot, "wb") as f:
                f.write(base64.b64decode(shot["data"]))
            problems = console_problems(cdp.events)
        finally:
            cdp.close()
    if info.get("ready") != "1":
        problems.append("the page never set data-ready (script did not finish): %s" % info)
    elif not info.get("total") or int(info["total"]) == 0:
        problems.append("no charts on the page")
    elif info["drawn"] != info["total"]:
        problems.append("only %s of %s charts drew anything" % (info["drawn"], info["total"]))
    if not info.get("cells"):
        problems.append("no outcome grid cells")
    return problems, info


def main(argv=None):
    ap = data.arg_parser("browser_test", __doc__)
    ap.add_argument("--keep", help="directory for the history, dashboard and screenshot (kept)")
    ap.add_argument("--page", help="check this dashboard's index.html instead of the fixtures'")
    args = ap.parse_args(argv)
    exe = fixtures.chromium()
    if not exe:
        print("browser_test: SKIP: no chromium on PATH (apt-get install chromium)")
        return 77
    work = args.keep or tempfile.mkdtemp(prefix="dashboard-browser-")
    os.makedirs(work, exist_ok=True)
    if args.page:
        index = args.page
    else:
        db = os.path.join(work, "history.sqlite")
        fixtures.build_history(db, work)
        index = dashboard.render(db, os.path.join(work, "dashboard"), fixtures.GOLDEN)
    shot = os.path.join(work, "dashboard.png")
    t0 = time.time()
    problems, info = check_page("file://" + os.path.abspath(index), shot, exe)
    print(
        "browser_test: %s in %.1f s: %s charts, %s drawn, %s grid cells; screenshot %s"
        % (
            "FAIL" if problems else "PASS",
            time.time() - t0,
            info.get("total"),
            info.get("drawn"),
            info.get("cells"),
            shot,
        )
    )
    for p in problems:
        print("  " + p)
    return 1 if problems else 0


if __name__ == "__main__":
    sys.exit(main())
