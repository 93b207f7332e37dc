"""Tests of scripts/compare, scripts/driver-diff and scripts/history on the recorded fixtures, through the
scripts themselves (exit codes included). Usage: python3 -m harnesslib.runs.compare_test [-v]"""

import json
import os
import sqlite3
import tempfile
import unittest

from ..testing import fixtures as fx


class Scripts(unittest.TestCase):
    @classmethod
    def setUpClass(cls):
        cls.tmp = tempfile.TemporaryDirectory(prefix="compare-test-")
        t = cls.tmp.name
        cls.slow = fx.write(os.path.join(t, "slow", "bench.json"), fx.plant_slowdown(fx.load("pocl", "bench.json")))
        cls.failed = fx.write(os.path.join(t, "failed", "results.json"), fx.plant_fail(fx.load("pocl", "results.json")))

    @classmethod
    def tearDownClass(cls):
        cls.tmp.cleanup()

    def test_help(self):
        for s in ("compare", "driver-diff", "history", "dashboard", "nightly"):
            r = fx.run_script(s, "--help")
            self.assertEqual(r.returncode, 0, s)
            self.assertIn("usage" if s != "nightly" else "Usage", r.stdout.lower() if s != "nightly" else r.stdout)

    def test_planted_slowdown_exits_1(self):
        r = fx.run_script("compare", fx.fixture("pocl", "bench.json"), self.slow, "--json")
        self.assertEqual(r.returncode, 1, r.stdout + r.stderr)
        res = json.loads(r.stdout)
        regs = [b for b in res["bench"]["benchmarks"] if b["verdict"] == "regression"]
        self.assertEqual([b["name"] for b in regs], [fx.SLOW_BENCH])
        self.assertAlmostEqual(regs[0]["change"], 0.2, places=9)
        self.assertLess(regs[0]["p_adj"], 0.05)
        print(
            "\nplanted 20 %% slowdown of %s: U = %g, p = %.2g, Holm-adjusted p = %.2g"
            % (fx.SLOW_BENCH, regs[0]["u"], regs[0]["p"], regs[0]["p_adj"])
        )

    def test_same_build_exits_0(self):
        r = fx.run_script("compare", fx.fixture("pocl", "bench.json"), fx.fixture("pocl-rerun", "bench.json"), "--json")
        self.assertEqual(r.returncode, 0, r.stdout + r.stderr)
        res = json.loads(r.stdout)
        self.assertEqual(res["regressions"], 0)
        self.assertEqual(len(res["bench"]["benchmarks"]), 16)

    def test_min_effect_option(self):
        r = fx.run_script("compare", fx.fixture("pocl", "bench.json"), self.slow, "--min-effect", "0.25")
        self.assertEqual(r.returncode, 0, r.stdout)

    def test_flip_exits_1(self):
        r = fx.run_script("compare", fx.fixture("pocl"), os.path.dirname(self.failed))
        self.assertEqual(r.returncode, 1, r.stdout + r.stderr)
        self.assertIn("PASS -> FAIL", r.stdout)

    def test_bad_input_exits_2(self):
        r = fx.run_script("compare", "/nonexistent.json", fx.fixture("pocl", "bench.json"))
        self.assertEqual(r.returncode, 2)
        self.assertIn("cannot read", r.stderr)
        r = fx.run_script("compare", "3", "4")
        self.assertEqual(r.returncode, 2)

    def test_driver_diff_lists_planted_fail(self):
        out = os.path.join(self.tmp.name, "dd")
        r = fx.run_script("driver-diff", fx.fixture("pocl"), os.path.dirname(self.failed), "--out", out)
        self.assertEqual(r.returncode, 1, r.stdout + r.stderr)
        with open(os.path.join(out, "driver-diff.md")) as f:
            md = f.read()
        self.assertIn("| blur3x3/opencl-mali/small/host | PASS | FAIL | worse |", md)
        with open(os.path.join(out, "driver-diff.html")) as f:
            self.assertIn("PASS</td><td>FAIL", f.read())

    def test_driver_diff_pocl_vs_oclgrind(self):
        r = fx.run_script("driver-diff", fx.fixture("pocl"), fx.fixture("oclgrind"))
        self.assertEqual(r.returncode, 1)
        self.assertIn("## New TEARDOWN_FAULTs", r.stdout)
        self.assertIn("| PASS | TEARDOWN_FAULT | worse |", r.stdout)
        self.assertIn("Oclgrind 21.10", r.stdout)

    def test_driver_diff_same_driver_is_safe(self):
        r = fx.run_script(
            "driver-diff",
            fx.fixture("pocl"),
            fx.fixture("pocl") + "/results.json," + fx.fixture("pocl-rerun", "bench.json"),
        )
        self.assertEqual(r.returncode, 0, r.stdout)
        self.assertIn("SAFE", r.stdout)

    def test_driver_diff_folds_drift_per_pipeline_profile_output(self):
        # blur3x3/opencl: both cases in all four buffer modes drift (8 records, one group; the worst is odd in
        # wrapped-device-only); brighten/opencl drifts in PSNR, where lower is worse.
        old, new = [], []
        for case in ("small", "odd"):
            for k, mode in enumerate(("host", "device", "wrapped-host-visible", "wrapped-device-only")):
                for side, err in ((old, 0.5), (new, 1.0 + k + (case == "odd"))):
                    side.append(
                        {
                            "pipeline": "blur3x3",
                            "profile": "opencl",
                            "case": case,
                            "mode": mode,
                            "outcome": "PASS",
                            "metrics": {
                                "tolerance": "AbsTol(8)",
                                "outputs": {"output": {"max_abs_error": err, "mismatches": 0}},
                            },
                        }
                    )
        for side, psnr in ((old, 60.0), (new, 48.5)):
            side.append(
                {
                    "pipeline": "brighten",
                    "profile": "opencl",
                    "case": "small",
                    "mode": "host",
                    "outcome": "PASS",
                    "metrics": {"outputs": {"output": {"psnr_db": psnr}}},
                }
            )
        for side, psnr in ((old, 60.0), (new, 52.0)):
            side.append(
                {
                    "pipeline": "brighten",
                    "profile": "opencl",
                    "case": "odd",
                    "mode": "host",
                    "outcome": "PASS",
                    "metrics": {"outputs": {"output": {"psnr_db": psnr}}},
                }
            )
        d = os.path.join(self.tmp.name, "drift")
        a = fx.write(os.path.join(d, "old.json"), {"environment": {}, "runs": old})
        b = fx.write(os.path.join(d, "new.json"), {"environment": {}, "runs": new})
        r = fx.run_script("driver-diff", a, b, "--ignore-perf")
        self.assertEqual(r.returncode, 0, r.stdout + r.stderr)
        self.assertIn("10 metric drift(s) in 2 group(s)", r.stdout)
        rows = [l for l in r.stdout.splitlines() if l.startswith("| blur3x3/opencl |") or l.startswith("| brighten/")]
        self.assertEqual(len(rows), 2, r.stdout)
        self.assertEqual(
            rows[0],
            "| blur3x3/opencl | output | AbsTol(8) | max_abs_error | 0.5 | 5.0 (odd/wrapped-device-only;"
            " was 0.5) | 8 record(s): odd, small x device, host, wrapped-device-only, "
            "wrapped-host-visible |",
        )
        self.assertIn("| psnr_db | 60.0 | 48.5 (small/host; was 60.0) | 2 record(s): odd, small x host |", rows[1])

    def test_driver_diff_names_drivers_as_they_report_themselves(self):
        # Two lavapipe versions share the driver name and driverVersion (llvmpipe 0.0.1): the report must tell them
        # apart by the identity the harness records (vendor, driverName, driverInfo).
        def side(info):
            dev = {
                "platform": "Vulkan llvmpipe",
                "vendor": "Mesa",
                "driver_name": "llvmpipe",
                "driver_version": "0.0.1",
                "driver_info": info,
                "identity": "Vulkan Mesa llvmpipe, " + info,
            }
            return {
                "environment": {},
                "runs": [
                    {
                        "pipeline": "blur3x3",
                        "profile": "vulkan",
                        "case": "small",
                        "mode": "host",
                        "outcome": "PASS",
                        "metrics": {"device": dev},
                    }
                ],
            }

        d = os.path.join(self.tmp.name, "lavapipes")
        a = fx.write(os.path.join(d, "22.json"), side("Mesa 22.3.6 (LLVM 15.0.6)"))
        b = fx.write(os.path.join(d, "25.json"), side("Mesa 25.0.7-2~bpo12+1 (LLVM 15.0.6)"))
        r = fx.run_script("driver-diff", a, b, "--ignore-perf")
        self.assertEqual(r.returncode, 0, r.stdout + r.stderr)
        self.assertIn(
            "| drivers | Vulkan Mesa llvmpipe, Mesa 22.3.6 (LLVM 15.0.6) | "
            "Vulkan Mesa llvmpipe, Mesa 25.0.7-2~bpo12+1 (LLVM 15.0.6) |",
            r.stdout,
        )

    def test_history_ingest_and_run_ids(self):
        db = os.path.join(self.tmp.name, "h.sqlite")
        ids = []
        for res, bench in (
            (fx.fixture("pocl", "results.json"), fx.fixture("pocl", "bench.json")),
            (self.failed, self.slow),
        ):
            r = fx.run_script("history", "ingest", "--results", res, "--bench", bench, "--db", db)
            self.assertEqual(r.returncode, 0, r.stderr)
            ids.append(r.stdout.strip())
        con = sqlite3.connect(db)
        self.assertEqual(con.execute("SELECT COUNT(*) FROM tests").fetchone()[0], 40)
        self.assertEqual(con.execute("SELECT COUNT(*) FROM samples").fetchone()[0], 2 * 16 * 9)
        drivers = {r[0] for r in con.execute("SELECT value FROM environment WHERE key LIKE '%driver_version'")}
        self.assertEqual(drivers, {"3.1+debian"})
        r = fx.run_script("compare", ids[0], ids[1], "--db", db)
        self.assertEqual(r.returncode, 1, r.stdout + r.stderr)
        self.assertIn("PASS -> FAIL", r.stdout)
        r = fx.run_script("compare", "latest~1", "latest~1", "--db", db)
        self.assertEqual(r.returncode, 0, r.stdout + r.stderr)

    def test_history_ingest_keeps_what_finished(self):
        db = os.path.join(self.tmp.name, "partial.sqlite")
        broken = os.path.join(self.tmp.name, "broken.json")
        with open(broken, "w") as f:
            f.write('{"benchmarks": [')  # a benchmark run killed midway
        r = fx.run_script("history", "ingest", "--results", fx.fixture("pocl", "results.json"), "--db", db)
        run = r.stdout.strip()
        r = fx.run_script("history", "ingest", "--run", run, "--bench", broken, "--db", db)
        self.assertEqual(r.returncode, 2)
        self.assertIn("not valid JSON", r.stderr)
        con = sqlite3.connect(db)
        self.assertEqual(con.execute("SELECT COUNT(*) FROM tests WHERE run_id=?", (run,)).fetchone()[0], 20)


if __name__ == "__main__":
    unittest.main()
