"""scripts/genfuzz without Halide: the same seed gives the same files; a few hundred generators cover what
real ones do (every element type, 1-D to 4-D, boundary conditions, inputs read below and above 0, RDoms,
histograms, Tuples, Func inputs, several outputs, fixed bounds and strides, scalars with and without
defaults, ranges and estimates, estimates present, absent or only for an autoscheduler); int32 arithmetic
cannot overflow; and `genfuzz check` on hand-made harness outputs: a meaningful verdict and a true reason
pass, a false reason (a size the harness got wrong, a degenerate flag) fails naming its class.
Usage: python3 -m harnesslib.genfuzz.genfuzz_test"""

import json
import os
import tempfile
import unittest

import numpy as np

from . import genfuzz, genfuzz_check, genfuzz_cpp, genfuzz_expr, genfuzz_model
from .. import zerospec
from .genfuzz_model import TYPES

# The yes/no features of a planted generator (its record's keys), each of which a few hundred must show.
PLANTED_FLAGS = (
    "func_inputs",
    "whole_inputs",
    "fixed_inputs",
    "fixed_outputs",
    "interleaved",
    "tuple_outputs",
    "histograms",
    "range_pairs",
)


class Generate(unittest.TestCase):
    def test_no_atom_cancels_in_a_sum(self):
        # b + (a - b) is a alone: beside a - abs(a) it made fz7_005's out0 constant for every non-negative fill
        a, b = genfuzz_expr.E("A", 0, 10), genfuzz_expr.E("B", 0, 10)

        class Fixed:  # the rng of Writer.combine: "+" (r < 0.35), then "-" (0.35 <= r < 0.55)
            def __init__(self, r):
                self.r = r

            def random(self):
                return self.r

        w = genfuzz_expr.Writer.__new__(genfuzz_expr.Writer)
        w.rng = Fixed(0.4)
        diff = w.combine(a, b)
        self.assertEqual(diff.text, "(A - B)")
        w.rng = Fixed(0.1)
        self.assertEqual(w.combine(b, diff).text, "max(B, (A - B))")
        self.assertEqual(w.combine(a, diff).text, "(A + (A - B))")
        w.rng = Fixed(0.4)
        self.assertEqual(w.combine(a, a).text, "A")  # no operation on two identical operands
        # select(c, x, B) - B is 0 wherever c is false (seed 2's fz2_046 and fz2_038: constant outputs)
        sel = genfuzz_expr.E("select(c, X, B)", 0, 10)
        self.assertEqual(w.combine(sel, b).text, "max(select(c, X, B), B)")
        w.rng = Fixed(0.85)
        self.assertEqual(w.combine(a, a).text, "A")

    def test_float_values_truncated_to_integers_are_strict(self):
        # Without strict_float, host (fma) and cpu truncated (v + 4097) * k, distributed by Halide's simplifier
        # into v * k + c and contracted into an fma on host only, to integers 1 apart (27 FAIL of seed 1)
        class G:
            work, name = "float", "g"

        w = genfuzz_cpp.Body.__new__(genfuzz_cpp.Body)
        w.g = G()
        v = genfuzz_expr.E("V", 0, 10)
        for t in ("uint8", "int16", "uint32", "bool"):
            self.assertIn("strict_float(", w.map_out(v, t), t)
        self.assertIn("strict_float(", w.bins(v, 16))
        G.work = "int"
        self.assertNotIn("strict_float(", w.map_out(v, "uint8"))

    def test_a_clamp_by_a_range_pair_is_scaled_by_the_data(self):
        # Scaled by [-16, 16] instead, clamp(v, lo, hi) of data in [0, 1000] saturated the output for any lo < hi
        # inside the data (fz7_001): no guess could make it mean anything
        for work in ("int", "float"):

            class G:
                pass

            G.work = work
            w = genfuzz_expr.Writer.__new__(genfuzz_expr.Writer)
            w.g = G()
            lo, hi = genfuzz_model.ScalarInput("a_lo", "int32", "lo"), genfuzz_model.ScalarInput("a_hi", "int32", "hi")
            e = w.clamp_pair(genfuzz_expr.E("V", 0, 1000, True), lo, hi)
            self.assertEqual((e.lo, e.hi), (0, 1000), work)

    def test_fixed_channels_agree(self):
        # fz2_057: in0 interleaved (channels fixed to [0, 3)) read at c, the output fixed to [-4, +50) in
        # dimension 2: no case can exist
        for i in range(400):
            g = genfuzz_model.sample_generator(2, i)
            fixed = {b.fixed[2] for b in g.inputs if 2 in b.fixed}
            for o in g.outputs:
                if 2 in o.fixed and fixed:
                    self.assertIn(o.fixed[2], fixed, g.name)

    def test_same_seed_same_files(self):
        a, _ = genfuzz.generate(5, 12, 5)
        b, _ = genfuzz.generate(5, 12, 5)
        self.assertEqual(a, b)
        self.assertEqual(
            sorted(a), ["genfuzz_5_0.cpp", "genfuzz_5_1.cpp", "genfuzz_5_2.cpp", "pipelines.cmake", "planted.json"]
        )
        c, _ = genfuzz.generate(6, 12, 5)
        self.assertNotEqual(a["genfuzz_5_0.cpp"], c["genfuzz_6_0.cpp"])
        self.assertIn("GENFUZZ_PIPELINES genfuzz_5_0.cpp:fz5_000", a["pipelines.cmake"])
        self.assertEqual(a["genfuzz_5_0.cpp"].count("HALIDE_REGISTER_GENERATOR("), 5)

    def test_coverage_of_a_few_hundred(self):
        _, planted = genfuzz.generate(1, 300, 50)
        seen = set()
        for p in planted.values():
            seen |= {"type:" + t for t in p["types"]} | {"dims:%d" % d for d in p["dims"]}
            seen |= set(p["features"]) | {"bc:" + b for b in p["boundary"]} | {"est:" + e for e in p["estimates"]}
            for offs in p["input_mins"].values():
                seen |= {"negative_min"} if min(offs) < 0 else set()
                seen |= {"positive_min"} if max(offs) > 0 else set()
            seen |= {k for k in PLANTED_FLAGS if p[k]}
            seen |= {"several_outputs"} if p["outputs"] > 1 else set()
            for s in p["scalars"].values():
                seen.add(
                    "scalar_%s_%s_%s"
                    % (
                        "default" if s["default"] is not None else "nodefault",
                        "range" if s["range"] else "norange",
                        "estimate" if s["estimate"] is not None else "noestimate",
                    )
                )
        want = {"type:" + t for t in TYPES} | {"dims:%d" % d for d in (1, 2, 3, 4)}
        want |= {"bc:repeat_edge", "bc:constant_exterior", "bc:mirror_image", "bc:mirror_interior", "bc:repeat_image"}
        want |= set(PLANTED_FLAGS)
        want |= {
            "est:none",
            "est:plain",
            "est:autoscheduler",
            "negative_min",
            "positive_min",
            "several_outputs",
            "rdom_update",
            "histogram_lut",
            "histogram_output",
            "rdom_total_output",
            "rdom_whole_input",
            "tuple_stage",
            "stencil",
            "compute_root",
            "parallel",
            "vectorize_guarded",
            "vectorize_shift_inwards",
            "scalar_nodefault_norange_noestimate",
            "scalar_default_norange_noestimate",
            "scalar_nodefault_range_estimate",
            "scalar_nodefault_norange_estimate",
        }
        self.assertEqual(want - seen, set())

    def test_no_difference_subtracts_what_its_left_side_holds(self):
        # (select(s, v, r) + s2) - r, (v * g + r) - r, v - abs(v): constant wherever the select picks r, always, or
        # on non-negative fills (seed 2's fz2_033, fz2_038, fz2_046, fz2_067, fz2_082 until the root checked for it)
        def groups(text):
            stack = []
            for i, ch in enumerate(text):
                if ch == "(":
                    stack.append(i)
                elif ch == ")" and stack:
                    yield text[stack.pop() + 1 : i]

        def top_level_minus(body):
            depth = 0
            for i, ch in enumerate(body):
                depth += ch == "("
                depth -= ch == ")"
                if depth == 0 and body.startswith(" - ", i):
                    return body[:i], body[i + 3 :]
            return None

        files, _ = genfuzz.generate(2, 100, 25)
        bad = []
        for name, text in files.items():
            for line in text.splitlines():
                if " = " not in line or "set_" in line:
                    continue
                for body in groups(line.split(" = ", 1)[1]):
                    sides = top_level_minus(body)
                    if sides and min(len(x) for x in sides) > 12 and (sides[1] in sides[0] or sides[0] in sides[1]):
                        bad.append("%s: %s" % (name, body[:160]))
        self.assertEqual(bad, [])

    def test_int_arithmetic_stays_in_int32(self):
        genfuzz.generate(2, 500, 100)  # the writer raises AssertionError on an interval beyond 2^30


def write(path, obj):
    os.makedirs(os.path.dirname(path), exist_ok=True)
    with open(path, "w") as f:
        json.dump(obj, f)


class Check(unittest.TestCase):
    """A work directory as genfuzz_run.sh leaves it, for three generators of seed 9."""

    def setUp(self):
        self.tmp = tempfile.TemporaryDirectory()
        self.work = self.tmp.name
        _, self.planted = genfuzz.generate(9, 3, 3)
        self.names = sorted(self.planted)
        self.plantedf = os.path.join(self.work, "planted.json")
        write(self.plantedf, self.planted)
        self.runs = []
        listing = {"pipelines": [{"name": n, "profiles": [{"name": "cpu", "reason": ""}]} for n in self.names]}
        write(os.path.join(self.work, "list.json"), listing)
        for n in self.names:
            write(
                os.path.join(self.work, "describe", n + ".json"),
                {"cases": [{"name": "small", "outputs": {"output": {"shape": [64, 48]}}, "scalars": {}}]},
            )
            os.makedirs(os.path.join(self.work, "golden", n), exist_ok=True)
            np.save(os.path.join(self.work, "golden", n, "small.npy"), np.arange(64 * 48, dtype=np.uint16))

    def tearDown(self):
        self.tmp.cleanup()

    def record(self, name, outcome, message=""):
        for pr in ("cpu", "host"):
            self.runs.append(
                {
                    "pipeline": name,
                    "profile": pr,
                    "case": "small",
                    "outcome": outcome,
                    "message": message,
                    "metrics": {},
                }
            )

    def check(self):
        write(self.plantedf, self.planted)
        write(os.path.join(self.work, "results.json"), {"runs": self.runs})
        out = os.path.join(self.work, "out.json")
        with open(os.devnull, "w") as null:
            import contextlib

            with contextlib.redirect_stdout(null):
                rc = genfuzz.main(
                    ["check", self.work, "--planted", self.plantedf, "--min-meaningful", "0.3", "--json", out]
                )
        with open(out) as f:
            return rc, json.load(f)

    def test_meaningful_and_true_reasons_pass(self):
        self.record(self.names[0], "PASS", "matches golden")
        self.record(self.names[1], "FAIL", "max abs error 1")
        self.record(
            self.names[2],
            "ERROR",
            "unsupported element type %s; the harness supports ..." % self.planted[self.names[2]]["types"][0],
        )
        rc, s = self.check()
        self.assertEqual(
            (rc, s["meaningful"], s["no_verdict"]["true"], s["no_verdict"]["false"]), (0, 2, [self.names[2]], [])
        )
        self.assertEqual(s["fail_verdicts"], [self.names[1]])

    def test_false_reasons_fail_with_their_class(self):
        self.record(self.names[0], "PASS", "matches golden")
        self.record(self.names[1], "ERROR", "Input buffer in0 is accessed at 63, which is beyond the max (19)")
        self.record(self.names[2], "ERROR", "unsupported element type complex128; the harness supports ...")
        rc, s = self.check()
        self.assertEqual(rc, 1)
        self.assertEqual(s["no_verdict"]["false"], [self.names[1], self.names[2]])
        self.assertIn("input-too-small", s["classes"])
        self.assertEqual(s["classes"]["unsupported-type:complex128"]["judged"], "false")

    def test_a_limitation_needs_its_planted_property(self):
        bounds = "no case could be made (small: Applying the constraints on Input buffer in0 to the required region)"
        self.planted[self.names[1]]["fixed_inputs"] = {"in0": {"1": [0, 40]}}
        self.planted[self.names[2]]["fixed_inputs"] = {}
        self.record(self.names[0], "PASS", "matches golden")
        self.record(self.names[1], "ERROR", bounds)
        self.record(self.names[2], "ERROR", bounds)
        rc, s = self.check()
        self.assertEqual(
            (rc, s["no_verdict"]["limitation"], s["no_verdict"]["false"]), (1, [self.names[1]], [self.names[2]])
        )

    def test_an_invalid_generator_fails(self):
        for n in self.names[:2]:
            self.record(n, "PASS", "matches golden")
        self.record(
            self.names[2],
            "ERROR",
            "generator %s__cpu failed for target x: Unhandled exception: Error: "
            "hist1 is accessed over an unbounded domain" % self.names[2],
        )
        rc, s = self.check()
        self.assertEqual((rc, s["no_verdict"]["invalid"]), (1, [self.names[2]]))

    def test_degenerate_golden_is_no_verdict(self):
        self.planted[self.names[0]]["bool_outputs"] = []
        for n in self.names:
            self.record(n, "PASS", "matches golden")
        np.save(os.path.join(self.work, "golden", self.names[0], "small.npy"), np.zeros(64 * 48, np.uint8))
        rc, s = self.check()
        self.assertEqual((s["meaningful"], s["no_verdict"]["false"]), (2, [self.names[0]]))
        self.assertEqual(rc, 1)

    def test_degenerate_rule_is_the_harness_s_per_output(self):
        # Constant, or all but a handful (2, or 0.5 %) one value in 64 elements or more; few distinct values
        # alone (a 0/1/2 sign map, a half-true mask) are no flaw.
        self.assertTrue(zerospec.is_degenerate(64, 0))
        self.assertTrue(zerospec.is_degenerate(64, 2))
        self.assertFalse(zerospec.is_degenerate(64, 3))
        self.assertTrue(zerospec.is_degenerate(3072, 15))
        self.assertFalse(zerospec.is_degenerate(3072, 16))
        self.assertFalse(zerospec.is_degenerate(47, 1))
        self.assertTrue(zerospec.is_degenerate(2, 0))
        self.assertFalse(zerospec.is_degenerate(1, 0))
        one_true = np.zeros(3072, bool)
        one_true[1234] = True
        self.assertTrue(zerospec.any_degenerate([one_true]))
        sign = np.where(np.arange(3072) % 97 == 0, 1, np.where((np.arange(3072) // 3) % 2, 2, 0)).astype(np.uint8)
        self.assertFalse(zerospec.any_degenerate([sign]))
        rich = np.arange(64, dtype=np.float32)
        self.assertTrue(zerospec.any_degenerate([rich, np.full(8, 3, np.int16)]))
        self.assertFalse(zerospec.any_degenerate([rich, np.arange(8, dtype=np.int16) % 2 == 0]))
        self.planted[self.names[0]]["bool_outputs"] = []
        for n in self.names:
            self.record(n, "PASS", "matches golden")
        nearly = np.zeros(64 * 48, np.int32)
        nearly[7] = 1
        np.save(os.path.join(self.work, "golden", self.names[0], "small.npy"), nearly)
        rc, s = self.check()
        self.assertEqual((s["meaningful"], s["no_verdict"]["false"]), (2, [self.names[0]]))

    def test_nondet_is_a_flag_not_a_verdict(self):
        self.record(self.names[0], "PASS", "matches golden")
        self.record(self.names[1], "PASS", "matches golden")
        self.record(self.names[2], "NONDET", "the cpu variant gave 2 different outputs for the same inputs")
        rc, s = self.check()
        self.assertEqual(s["meaningful"], 2)
        self.assertEqual(s["classes"]["nondeterministic"]["generators"], [self.names[2]])
        # The fuzzer plants nothing non-deterministic: the flag is the harness's (or a schedule's) bug.
        self.assertEqual((rc, s["no_verdict"]["false"]), (1, [self.names[2]]))

    def test_estimates_for_an_autoscheduler_met_by_a_tuple_outputs_case(self):
        # seed 2's fz2_074: a Tuple output is described per component (output.0, output.1)
        planted = {
            "scalars": {},
            "fixed_outputs": {},
            "output_estimates": {"output": "autoscheduler"},
            "output_estimate_extents": {"output": [200]},
        }
        case = {"name": "small", "outputs": {"output.0": {"shape": [200]}, "output.1": {"shape": [200]}}}
        self.assertEqual(genfuzz_check.claims(planted, {"cases": [case]}), [])
        case["outputs"] = {"output.0": {"shape": [64]}, "output.1": {"shape": [64]}}
        self.assertEqual(len(genfuzz_check.claims(planted, {"cases": [case]})), 1)

    def test_classify(self):
        self.assertEqual(
            genfuzz_check.classify("unsupported element type float16; use")[0:2], ("unsupported-type", "float16")
        )
        self.assertEqual(genfuzz_check.classify("generator does not compile: x.cpp:3: error")[0], "does-not-compile")
        self.assertEqual(genfuzz_check.classify("something new")[0], "other")
        slow = "no case could be made (small: the cpu variant did not finish the case within 30 s (the smallest"
        self.assertEqual(genfuzz_check.classify(slow)[0], "too-slow")
        self.assertEqual(genfuzz_check.judge("too-slow", "", {}), "true")


if __name__ == "__main__":
    unittest.main()
