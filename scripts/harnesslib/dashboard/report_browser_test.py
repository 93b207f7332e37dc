"""Browser test of the HTML report (`aot-harness report`), in headless Chromium from file://:

1. A planted one-pixel error: the failure card's 8x crop of golden / output / diff appears, and the screen
   shows the wrong pixel, eight pixels wide, in the middle of the output crop (read back from a screenshot).
2. A 1,000-run report: its size, its load time (navigation to the page's data-ready), no console errors,
   failures on top, passes folded (page height), and a grid link into a folded group opens it.

Usage: python3 -m harnesslib.dashboard.report_browser_test --harness BIN [--keep DIR]. Exit 0 pass, 1 fail, 77 no Chromium.
"""

import base64
import json
import os
import subprocess
import sys
import tempfile
import time
import zlib

import numpy as np

from . import browser_test, imaging
from .. import data
from ..testing import fixtures

SPOT = (37, 21)  # the wrong pixel (x, y) of the planted failure


def decode_png(raw):
    """(H, W, 3) uint8 of an 8-bit RGB or RGBA non-interlaced PNG (any row filters), e.g. a Chromium screenshot."""
    pos, idat, w, h, ctype = 8, b"", 0, 0, 0
    while pos < len(raw):
        n = int.from_bytes(raw[pos : pos + 4], "big")
        tag, body = raw[pos + 4 : pos + 8], raw[pos + 8 : pos + 8 + n]
        if tag == b"IHDR":
            w, h, depth, ctype = int.from_bytes(body[:4], "big"), int.from_bytes(body[4:8], "big"), body[8], body[9]
            assert depth == 8 and ctype in (2, 6) and body[12] == 0, "unsupported PNG"
        elif tag == b"IDAT":
            idat += body
        pos += 12 + n
    bpp = 3 if ctype == 2 else 4
    data = np.frombuffer(zlib.decompress(idat), np.uint8).reshape(h, w * bpp + 1)
    out = np.zeros((h, w * bpp), np.int32)
    prev = np.zeros(w * bpp, np.int32)
    for y in range(h):
        f, line = data[y, 0], data[y, 1:].astype(np.int32)
        if f == 0:
            cur = line
        elif f == 2:
            cur = (line + prev) & 255
        else:  # 1 Sub, 3 Average, 4 Paeth: depend on the pixel to the left
            cur = np.zeros_like(line)
            for x in range(w * bpp):
                a = cur[x - bpp] if x >= bpp else 0
                b, c = prev[x], (prev[x - bpp] if x >= bpp else 0)
                if f == 1:
                    pred = a
                elif f == 3:
                    pred = (a + b) // 2
                else:
                    p = a + b - c
                    pa, pb, pc = abs(p - a), abs(p - b), abs(p - c)
                    pred = a if pa <= pb and pa <= pc else (b if pb <= pc else c)
                cur[x] = (line[x] + pred) & 255
        out[y], prev = cur, cur
    return out.reshape(h, w, bpp)[:, :, :3].astype(np.uint8)


def planted_failure(art):
    """A FAIL record with one wrong pixel at SPOT, and its golden / output / diff PNGs in `art`."""
    g = (np.add.outer(np.arange(48) * 3, np.arange(64) * 2) % 200).astype(np.uint8)
    o = g.copy()
    o[SPOT[1], SPOT[0]] = 255
    prefix = os.path.join(art, "one_pixel.host.output")
    np.save(prefix + ".golden.npy", g)
    np.save(prefix + ".output.npy", o)
    arts = {"output.output_npy": prefix + ".output.npy"}
    for kind, png in zip(
        ("golden", "output", "diff"), imaging.write_triplet(prefix + ".golden.npy", prefix + ".output.npy", prefix)
    ):
        os.replace(png, "%s.%s.png" % (prefix, kind))
        arts["output.%s_png" % kind] = "%s.%s.png" % (prefix, kind)
    return (
        {
            "pipeline": "brighten",
            "profile": "opencl",
            "case": "one_pixel",
            "mode": "host",
            "outcome": "FAIL",
            "message": "output: 1 of 3072 elements outside Exact",
            "duration_ms": 41.5,
            "target": "x86-64-linux-opencl",
            "metrics": {
                "tolerance": "Exact",
                "run_ms": [1.1, 0.9, 1.0],
                "outputs": {
                    "output": {
                        "passed": False,
                        "mismatches": 1,
                        "max_abs_error": float(255 - g[SPOT[1], SPOT[0]]),
                        "worst_mismatch": list(SPOT),
                        "worst_expected": int(g[SPOT[1], SPOT[0]]),
                        "worst_actual": 255,
                    }
                },
            },
            "artifacts": arts,
        },
        g,
        o,
    )


def many_runs(n, failing=0, fail_rec=None):
    """n records over 13 pipelines x 5 profiles x cases x 4 modes: SKIPs for cuda, `failing` copies of
    `fail_rec` spread through them, PASS otherwise."""
    profiles, modes = (
        ["cpu", "host", "opencl-mali", "opencl", "cuda"],
        ["host", "device", "wrapped-host-visible", "wrapped-device-only"],
    )
    runs, k = [], 0
    while len(runs) < n:
        p, prof, mode = "pipe%02d" % (k % 13), profiles[(k // 13) % 5], modes[(k // 65) % 4]
        case = "case%d" % (k // 260)
        rec = {
            "pipeline": p,
            "profile": prof,
            "case": case,
            "mode": mode,
            "target": "x86-64-linux",
            "duration_ms": 20 + k % 50,
            "metrics": {
                "run_ms": [0.5 + k % 7, 0.6 + k % 7, 0.7 + k % 7],
                "tolerance": "Exact",
                "outputs": {"output": {"passed": True, "mismatches": 0}},
            },
        }
        if prof == "cuda":
            rec.update(outcome="SKIP", message="no NVIDIA driver (libcuda.so.1 not found)")
        else:
            rec.update(outcome="PASS", message="matches golden within Exact; 3 repeats bit-identical, guards intact")
        runs.append(rec)
        k += 1
    step = n // max(failing, 1)
    for i in range(failing):
        fail = dict(fail_rec)
        fail.update(
            pipeline=runs[i * step]["pipeline"],
            profile=runs[i * step]["profile"],
            case=runs[i * step]["case"],
            mode=runs[i * step]["mode"],
        )
        runs[i * step] = fail
    return runs


def open_page(cdp, url):
    sess = browser_test.new_page(cdp)
    t0 = time.time()
    cdp.send("Page.navigate", {"url": url}, session=sess)
    deadline = t0 + 60
    while time.time() < deadline:
        r = cdp.send(
            "Runtime.evaluate",
            {
                "returnByValue": True,
                "expression": "document.body && document.body.getAttribute('data-ready') === '1' && document.readyState === 'complete'"
                " && performance.getEntriesByType('navigation')[0].loadEventEnd > 0",
            },
            session=sess,
        )
        if r.get("result", {}).get("value") is True:
            break
        time.sleep(0.05)
    return sess, time.time() - t0


def evaluate(cdp, sess, expr):
    r = cdp.send("Runtime.evaluate", {"returnByValue": True, "awaitPromise": True, "expression": expr}, session=sess)
    if "exceptionDetails" in r:
        raise RuntimeError("%s: %s" % (expr, r["exceptionDetails"]))
    return r["result"].get("value")


def check_crop(cdp, url, shot_path):
    problems = []
    sess, _ = open_page(cdp, url)
    info = json.loads(
        evaluate(
            cdp,
            sess,
            """JSON.stringify(Array.from(document.querySelectorAll('figure.crop')).map(function (f) {
        f.scrollIntoView(); var img = f.querySelector('img'), r = f.querySelector('.cw').getBoundingClientRect();
        return {x: f.dataset.x, y: f.dataset.y, caption: f.querySelector('figcaption').textContent, loaded: img.complete,
                natural: img.naturalWidth, rect: [r.left + window.scrollX, r.top + window.scrollY, r.width, r.height]}; }))""",
        )
    )
    if len(info) != 3:
        return ["expected 3 crops (golden, output, diff), found %d" % len(info)], info
    for c in info:
        if not c["loaded"] or c["natural"] != 64:
            problems.append("crop image not loaded: %s" % c)
        if (c["x"], c["y"]) != tuple(str(v) for v in SPOT):
            problems.append("crop centred at (%s, %s), not %s" % (c["x"], c["y"], SPOT))
    crops = []
    for c in info:
        x, y, w, h = c["rect"]
        shot = cdp.send(
            "Page.captureScreenshot",
            {
                "format": "png",
                "captureBeyondViewport": True,
                "clip": {"x": x, "y": y, "width": w, "height": h, "scale": 1},
            },
            session=sess,
        )
        crops.append(decode_png(base64.b64decode(shot["data"])))
    with open(shot_path, "wb") as f:
        f.write(base64.b64decode(cdp.send("Page.captureScreenshot", {"format": "png"}, session=sess)["data"]))
    golden, output, _diff = crops
    # The window's border is 1 px; the wrong pixel covers (65..72, 65..72) of the screenshot of the window.
    centre = (slice(66, 72), slice(66, 72))
    if not (output[centre] == 255).all():
        problems.append("the output crop does not show the wrong pixel (255) at its centre: %s" % output[centre][0, 0])
    if (golden[centre] == 255).all():
        problems.append("the golden crop shows 255 at the centre too")
    # The 8x8 blocks next to it show the golden's neighbours on both crops.
    for dx in (-8, 8):
        blk = (slice(66, 72), slice(66 + dx, 72 + dx))
        if not (output[blk] == golden[blk]).all():
            problems.append("output and golden crops differ beside the wrong pixel (dx %d)" % dx)
    return problems, info


def check_large(cdp, url):
    problems = []
    sess, load_s = open_page(cdp, url)
    m = json.loads(
        evaluate(
            cdp,
            sess,
            """JSON.stringify({height: document.documentElement.scrollHeight,
        cards: document.querySelectorAll('section.card').length, folds: document.querySelectorAll('details.fold').length,
        failuresTop: document.getElementById('failures').getBoundingClientRect().top,
        load: performance.getEntriesByType('navigation')[0].loadEventEnd})""",
        )
    )
    target = evaluate(
        cdp,
        sess,
        """(function () { var a = Array.from(document.querySelectorAll('table.grid a.b.o-PASS'))[0];
        var id = a.getAttribute('href').slice(1), before = document.getElementById(id).closest('details').open;
        a.click(); return JSON.stringify({id: id, before: before}); })()""",
    )
    target = json.loads(target)
    time.sleep(0.2)
    opened = evaluate(cdp, sess, "document.getElementById(%s).closest('details').open" % json.dumps(target["id"]))
    m.update(load_s=load_s, link=target, opened=opened)
    if target["before"] or not opened:
        problems.append(
            "following a grid link to %s did not open its folded group (%s -> %s)"
            % (target["id"], target["before"], opened)
        )
    return problems, m


def main(argv=None):
    ap = data.arg_parser("report_browser_test", __doc__)
    ap.add_argument("--harness", required=True, help="the aot-harness binary")
    ap.add_argument("--keep", help="directory for the reports and screenshots (kept)")
    ap.add_argument("--runs", type=int, default=1000, help="runs in the large report (default 1000)")
    args = ap.parse_args(argv)
    exe = fixtures.chromium()
    if not exe:
        print("report_browser_test: SKIP: no chromium on PATH (apt-get install chromium)")
        return 77
    work = args.keep or tempfile.mkdtemp(prefix="report-browser-")
    os.makedirs(os.path.join(work, "artifacts"), exist_ok=True)
    fail, _, _ = planted_failure(os.path.join(work, "artifacts"))
    docs = {"one-pixel": [fail] + many_runs(12), "large": many_runs(args.runs, 20, fail)}
    pages = {}
    for name, runs in docs.items():
        res = fixtures.write(
            os.path.join(work, name + ".json"), {"environment": {"halide_version": "21.0.0"}, "runs": runs}
        )
        out = os.path.join(work, name)
        r = subprocess.run(
            [args.harness, "report", "--results", res, "--out", out], capture_output=True, text=True, timeout=120
        )
        if r.returncode != 0:
            print("report_browser_test: FAIL: aot-harness report: %s" % r.stderr.strip())
            return 1
        pages[name] = os.path.join(out, "index.html")
    problems = []
    with tempfile.TemporaryDirectory(prefix="chromium-profile-") as prof:
        cdp = browser_test.Cdp(exe, prof)
        try:
            p, crops = check_crop(
                cdp, "file://" + os.path.abspath(pages["one-pixel"]), os.path.join(work, "one-pixel.png")
            )
            problems += p
            p, large = check_large(cdp, "file://" + os.path.abspath(pages["large"]))
            problems += p
            problems += browser_test.console_problems(cdp.events)
        finally:
            cdp.close()
    size = os.path.getsize(pages["large"])
    print("report_browser_test: one-pixel crop: %s" % "; ".join(c["caption"] for c in crops))
    print(
        "report_browser_test: %d-run report: %.0f KiB, loaded in %.2f s (load event at %.0f ms), %d failure cards on "
        "top (at y=%d), %d folded lines, page %d px tall; link %s opened its group: %s"
        % (
            args.runs,
            size / 1024.0,
            large["load_s"],
            large["load"],
            large["cards"],
            large["failuresTop"],
            large["folds"],
            large["height"],
            large["link"]["id"],
            large["opened"],
        )
    )
    if large["cards"] != 20:
        problems.append("expected 20 failure cards, found %d" % large["cards"])
    if large["folds"] > 13 * 5:
        problems.append("passes are not folded per pipeline x profile: %d lines" % large["folds"])
    for p in problems:
        print("  " + p)
    print("report_browser_test: %s (pages in %s)" % ("FAIL" if problems else "PASS", work))
    return 1 if problems else 0


if __name__ == "__main__":
    sys.exit(main())
