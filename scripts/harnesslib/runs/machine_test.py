"""Noise-aware verdicts (machine.py) through compare, the history and the nightly's summary: a planted 20 %
slowdown on an unchanged machine is a regression; the same build on a machine that got busier, slower or
throttled is "environment changed: not judged" with the numbers; machine noise below the floor is ignored.
Usage: python3 -m harnesslib.runs.machine_test [-v]"""

import copy
import json
import os
import tempfile
import unittest

from . import compare, machine, sides
from .. import data
from ..testing import fixtures as fx
from ..nightly import nightly_summary

NAME = "BM_brighten/host/4096x4096/resident"


def block(cpu_ms=5.0, cpu_end=None, copy_gbps=10.0, psi=0.02, throttle=(), cpu_mhz=None, wait=None):
    b = {
        "profiles": ["host"],
        "calibration": {
            "start": {"threads": 2, "cpu_work_ms": cpu_ms, "cpu_work_1t_ms": cpu_ms, "host_copy_GBps": copy_gbps},
            "end": {
                "threads": 2,
                "cpu_work_ms": cpu_end or cpu_ms,
                "cpu_work_1t_ms": cpu_end or cpu_ms,
                "host_copy_GBps": copy_gbps,
            },
        },
        "during": {
            "seconds": 30.0,
            "psi_cpu_some": psi,
            "throttle": list(throttle),
            "temp_c_max": None,
            "cpu_mhz": {"min": cpu_mhz, "mean": cpu_mhz, "max": cpu_mhz} if cpu_mhz else None,
            "gpus": [],
            "wait_share": wait,
        },
    }
    return b


def bench_doc(median_ms, blk, n=9):
    """A Google Benchmark JSON of one host benchmark (n repetitions around median_ms) with a machine block."""
    reps = [median_ms * (1 + 0.004 * (i - n // 2)) for i in range(n)]
    return {
        "context": {"date": "2026-11-28T10:00:00+00:00", "machine.host": json.dumps(blk)},
        "benchmarks": [
            {
                "name": NAME + "/manual_time",
                "run_name": NAME + "/manual_time",
                "run_type": "iteration",
                "repetition_index": i,
                "iterations": 10,
                "real_time": t,
                "cpu_time": t,
                "time_unit": "ms",
                "pixels_per_second": 4096 * 4096 / t * 1e3,
            }
            for i, t in enumerate(reps)
        ],
    }


def side(median_ms, blk):
    s = data.empty_side("x")
    data.add_document(s, bench_doc(median_ms, blk), "x.json")
    return s


def verdict(base, cand):
    res = compare.compare_sides(base, cand)
    return res, res["bench"]["benchmarks"][0]


class Verdicts(unittest.TestCase):
    def test_planted_slowdown_on_a_quiet_machine_is_caught(self):
        res, r = verdict(side(10.0, block(psi=0.03)), side(12.0, block(cpu_ms=5.15, psi=0.05)))
        self.assertEqual(r["verdict"], "regression", r.get("not_judged"))
        self.assertTrue(res["failed"])

    def test_same_build_under_load_is_not_called_different(self):
        res, r = verdict(side(10.0, block(psi=0.03)), side(13.5, block(cpu_ms=7.0, cpu_end=6.0, psi=0.55)))
        self.assertEqual(r["verdict"], "environment changed")
        self.assertEqual(r["stat_verdict"], "regression")
        self.assertFalse(res["failed"])
        self.assertEqual(res["not_judged"], 1)
        self.assertIn("environment changed: not judged: ", r["not_judged"])
        self.assertIn("cpu work (1 thread) between the runs 5 ms -> 6.5 ms (30 % slower)", r["not_judged"])
        # ... nor an improvement when the load left
        res, r = verdict(side(13.5, block(cpu_ms=7.0, psi=0.55)), side(10.0, block(psi=0.03)))
        self.assertEqual((r["verdict"], r["stat_verdict"]), ("environment changed", "improvement"))
        self.assertIn("share of the time a task waited for a CPU 55 % -> 3 %", r["not_judged"])

    def test_load_between_the_calibrations_shows_in_the_cpu_pressure(self):
        res, r = verdict(side(10.0, block(psi=0.02)), side(12.5, block(psi=0.40)))
        self.assertEqual(r["verdict"], "environment changed", r)

    def test_the_benchmarks_own_wait_for_a_cpu(self):
        # CPU pressure saturated in both runs (niced background work), the benchmark's own threads waited more
        res, r = verdict(side(10.0, block(psi=0.99, wait=0.08)), side(12.5, block(psi=0.99, wait=0.45)))
        self.assertEqual(r["verdict"], "environment changed", r)
        self.assertIn(
            "share of the time the benchmark's threads waited for a CPU 8 % -> 45 % (1.7x the wall time "
            "for the same work)",
            r["not_judged"],
        )
        res, r = verdict(side(10.0, block(psi=0.99, wait=0.08)), side(12.5, block(psi=0.99, wait=0.10)))
        self.assertEqual(r["verdict"], "regression", r)

    def test_a_gpu_profiles_host_copy_is_shown_not_judged(self):
        def gpu(host_gbps, dev_gbps, profiles=("cuda",)):
            b = block(copy_gbps=host_gbps)
            b["profiles"] = list(profiles)
            for k in ("start", "end"):
                b["calibration"][k]["device_copy_GBps"] = {"cuda": dev_gbps}
            return b

        # measured on the H200: host copy 230 -> 199 GB/s between identical runs, the cuda copy 4 %
        env = machine.environment({"cuda": gpu(230.0, 2600.0)}, {"cuda": gpu(199.0, 2550.0)}, "cuda")
        self.assertEqual(env["largest"], 0.0, env["moves"])
        env = machine.environment({"cuda": gpu(230.0, 2600.0)}, {"cuda": gpu(230.0, 2000.0)}, "cuda")
        self.assertGreater(env["largest"], 0.2, "the device copy still decides")
        both = ("cuda", "host")  # one block for every profile (pipeline-benchmarks): the host copy counts
        env = machine.environment({"run": gpu(230.0, 2600.0, both)}, {"run": gpu(199.0, 2550.0, both)}, "cuda")
        self.assertGreater(env["largest"], 0.1, env["moves"])

    def test_throttling_is_never_judged(self):
        res, r = verdict(side(10.0, block()), side(12.0, block(throttle=["gpu0 hw_thermal_slowdown"])))
        self.assertEqual(r["verdict"], "environment changed")
        self.assertIn("throttling seen (candidate: gpu0 hw_thermal_slowdown)", r["not_judged"])

    def test_slower_clock_is_not_the_code(self):
        res, r = verdict(side(10.0, block(cpu_mhz=3000)), side(12.0, block(cpu_mhz=2400)))
        self.assertEqual(r["verdict"], "environment changed")
        self.assertIn("cpu MHz 3000 MHz -> 2400 MHz (25 % slower)", r["not_judged"])

    def test_noise_below_the_floor_is_ignored(self):
        res, r = verdict(side(10.0, block(cpu_ms=5.0)), side(12.0, block(cpu_ms=5.0 * (1 + machine.FLOOR * 0.8))))
        self.assertEqual(r["verdict"], "regression")

    def test_a_big_effect_beside_a_small_move_is_judged(self):
        # the machine moved 15 % (above the floor), the benchmark 3x: more than RATIO explains, the build did that
        res, r = verdict(side(10.0, block(cpu_ms=5.0)), side(30.0, block(cpu_ms=5.75)))
        self.assertEqual(r["verdict"], "regression")
        res, r = verdict(side(10.0, block(cpu_ms=5.0)), side(20.0, block(cpu_ms=5.75)))  # 2x: it could be the machine
        self.assertEqual(r["verdict"], "environment changed")

    def test_without_a_machine_record_it_judges_as_before(self):
        b = side(10.0, block())
        c = side(12.0, block(cpu_ms=9.0))
        c["machine"] = {}
        res, r = verdict(b, c)
        self.assertEqual(r["verdict"], "regression")
        self.assertEqual(res["bench"]["environment"], {})


class History(unittest.TestCase):
    def test_machine_blocks_survive_the_history(self):
        with tempfile.TemporaryDirectory() as t:
            db = os.path.join(t, "h.sqlite")
            quiet, busy = block(psi=0.03), block(cpu_ms=7.0, psi=0.6)
            for i, (ms, blk) in enumerate(((10.0, quiet), (13.5, busy))):
                p = fx.write(os.path.join(t, "b%d.json" % i), bench_doc(ms, blk))
                r = fx.run_script("history", "ingest", "--db", db, "--bench", p, "--commit", "c0ffee")
                self.assertEqual(r.returncode, 0, r.stderr)
            s1, s2 = sides.run_side(db, "1"), sides.run_side(db, "2")
            self.assertEqual(s1["machine"], {"host": quiet})
            self.assertEqual(s2["machine"], {"host": busy})
            c = fx.run_script("compare", "1", "2", "--db", db)
            self.assertEqual(c.returncode, 0, c.stdout + c.stderr)
            self.assertIn("ENVIRONMENT CHANGED", c.stdout)
            self.assertIn("1 benchmark(s) not judged", c.stdout)
            self.assertIn("machine, host: base: clocks not exposed", c.stdout)
            res = compare.compare_sides(s1, s2)
            md = nightly_summary.render(dict(s2["run"]), dict(s1["run"]), res, {}, [], "file:///d/index.html")
            self.assertIn("## Not judged: the machine changed (1 benchmark(s))", md)
            self.assertIn("| host | clocks not exposed", md)
            self.assertIn("Dashboard: [file:///d/index.html]", md)


class Summary(unittest.TestCase):
    def test_regression_with_its_bisect_command_and_commit(self):
        res = compare.compare_sides(side(10.0, block()), side(12.0, block()))
        run, base = {"id": 8, "git_commit": "b" * 40, "host": "h"}, {"id": 7, "git_commit": "a" * 40}
        md = nightly_summary.render(run, base, res, {}, [], "")
        self.assertIn("# Nightly run #8: 0 new failure(s), 1 regression(s)", md)
        self.assertIn(
            "aot-harness bisect-commit aaaaaaaaaaaa bbbbbbbbbbbb --pipeline brighten --profile host --case 4096x4096",
            md,
        )
        name = res["bench"]["benchmarks"][0]["name"]  # as compare names it (Google Benchmark's /manual_time kept)
        md = nightly_summary.render(
            run,
            base,
            res,
            {},
            [],
            "",
            {
                name: {
                    "first_bad": "c" * 40,
                    "first_bad_subject": "ccccccc make it slower (me, 2026-11-28)",
                    "seconds": 61.0,
                    "first_bad_what": "+20 % vs GOOD",
                }
            },
        )
        self.assertIn("First bad commit: `ccccccc make it slower (me, 2026-11-28)` (bisect-commit, 61.0 s)", md)

    def test_new_failures_and_flips(self):
        base, cand = data.empty_side("b"), data.empty_side("c")
        doc = fx.load("pocl", "results.json")
        recs = copy.deepcopy(doc["runs"][:3])
        for r in recs:
            base["tests"][data.test_key(r)] = dict(r, outcome="PASS")
            cand["tests"][data.test_key(r)] = dict(r, outcome="PASS")
        k0, k1 = data.test_key(recs[0]), data.test_key(recs[1])
        cand["tests"][k0] = dict(recs[0], outcome="FAIL", message="max abs error 7 > 0")
        base["tests"][k1] = dict(recs[1], outcome="FAIL")
        base["has_results"] = cand["has_results"] = True
        res = compare.compare_sides(base, cand)
        md = nightly_summary.render(
            {"id": 2, "git_commit": "x"}, {"id": 1, "git_commit": "x"}, res, cand["tests"], [], ""
        )
        self.assertIn("## New failures (1)\n\n- `%s`: PASS → **FAIL**: max abs error 7 > 0" % k0, md)
        self.assertIn("Same commit in both runs: not a code change.", md)
        self.assertIn("## Outcome flips (1)\n\n- `%s`: FAIL → PASS (better)" % k1, md)


if __name__ == "__main__":
    unittest.main()
