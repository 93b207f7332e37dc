"""Pins every consumer of the outcome table (harness/src/base/outcome.h) to it: the table as
`aot-harness outcomes --json` prints it must equal scripts/harnesslib/outcomes.json, which data.py
(severity order, exit codes) and the dashboard (colours) read; the C++ report's colours and its
summary's worst-of are checked through `aot-harness report`.
Usage: python3 -m harnesslib.dashboard.outcomes_test AOT_HARNESS [-v]"""

import json
import os
import re
import subprocess
import sys
import tempfile
import unittest

from . import dashboard
from .. import data

HARNESS = None


def harness(*args):
    r = subprocess.run([HARNESS] + list(args), capture_output=True, text=True)
    if r.returncode != 0:
        raise AssertionError("aot-harness %s: exit %d: %s" % (" ".join(args), r.returncode, r.stderr))
    return r.stdout


class OutcomeTable(unittest.TestCase):
    @classmethod
    def setUpClass(cls):
        cls.table = json.loads(harness("outcomes", "--json"))

    def test_generated_file_is_current(self):
        with open(
            os.path.join(os.path.dirname(os.path.abspath(data.__file__)), "outcomes.json"), encoding="utf-8"
        ) as f:
            committed = json.load(f)
        self.assertEqual(
            committed,
            self.table,
            "scripts/harnesslib/outcomes.json is stale: regenerate it with "
            "`build/bin/aot-harness outcomes --json > scripts/harnesslib/outcomes.json`",
        )

    def test_python_order_and_exit_codes(self):
        names = [o["name"] for o in self.table]
        self.assertEqual(data.OUTCOMES, names)
        self.assertEqual(sorted(names, key=data.severity), names)
        self.assertEqual([o["severity"] for o in self.table], list(range(len(names))))
        for o in self.table:
            self.assertEqual(data.EXIT_CODE[o["name"]], o["exit_code"])
        self.assertGreater(data.severity("NOT_AN_OUTCOME"), max(data.SEVERITY.values()))

    def test_python_worst(self):
        # data.worst() names what the C++ summary names: the later of every pair in the table's order.
        self.assertEqual(data.worst([]), "PASS")
        self.assertEqual(data.worst(["NOT_AN_OUTCOME", "ERROR"]), "NOT_AN_OUTCOME")
        for i, a in enumerate(self.table):
            for b in self.table[i:]:
                self.assertEqual(data.worst([b["name"], a["name"]]), b["name"])

    def test_dashboard_colours(self):
        self.assertEqual(dashboard.COLOURS, {o["name"]: o["colour"] for o in self.table})

    def test_report_colours_and_worst(self):
        # One run per outcome, then every pair: the report's CSS has each table colour, and its summary
        # names the same worst outcome as the table's order (console and results.json use the same).
        runs = [
            {
                "pipeline": "p",
                "profile": "cpu",
                "case": o["name"].lower(),
                "mode": "host",
                "outcome": o["name"],
                "message": "",
                "metrics": {},
                "duration_ms": 1.0,
                "target": "x",
            }
            for o in self.table
        ]
        with tempfile.TemporaryDirectory(prefix="outcomes-test-") as tmp:
            res = os.path.join(tmp, "results.json")
            with open(res, "w", encoding="utf-8") as f:
                json.dump({"environment": {}, "runs": runs}, f)
            harness("report", "--results", res, "--out", tmp)
            with open(os.path.join(tmp, "index.html"), encoding="utf-8") as f:
                html = f.read()
            for o in self.table:
                self.assertIn(".o-%s{background:%s;color:%s}" % (o["name"], o["colour"], o["text_colour"]), html)
            worst = self.table[-1]["name"]
            self.assertRegex(html, r"<h1>[^<]*<span class=\"chip o-%s\">worst: %s<" % (worst, re.escape(worst)))
            for i, a in enumerate(self.table):
                for b in self.table[i + 1 :]:
                    with open(res, "w", encoding="utf-8") as f:
                        json.dump({"runs": [r for r in runs if r["outcome"] in (a["name"], b["name"])]}, f)
                    harness("report", "--results", res, "--out", tmp)
                    with open(os.path.join(tmp, "index.html"), encoding="utf-8") as f:
                        self.assertIn("worst: %s<" % b["name"], f.read(), (a["name"], b["name"]))


if __name__ == "__main__":
    HARNESS = sys.argv.pop(1)
    unittest.main()
