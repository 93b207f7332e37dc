"""`aot-harness explore`'s shrinking without Halide or a driver: the shrink rounds (explore_rounds.shrink_all)
driven by a fake explorer whose "driver" computes a signed shift right by a per-lane amount wrongly
(Halide 21's SPIR-V bug class), so that what the shrinker keeps can be checked: every wrong-values
divergence is shrunk (not only two per profile), one per wrong output, a subexpression becomes a new input
of its range, a map is inlined into its reader, and the known-findings file labels a rediscovery.
Usage: python3 -m harnesslib.explore.explore_shrink_test"""

import os
import unittest

from . import explore, explore_report, explore_rounds, explore_shrink, explore_verdict
from .. import paths
from . import explore_expr as ex
from .explore_expr import X
from .explore_model import Input, Pipeline, Sched, Stage, check

RUNTIMES = {"cpu": "none", "host": "none", "opencl": "opencl", "vulkan": "vulkan", "cuda": "cuda"}


def signed_lane_shift(p, s):
    """The fake driver's bug: s's value holds a signed >> by an amount of the coordinates, of a value that
    can be negative."""
    check(p)
    return any(
        n.op == "bin"
        and n.a["fn"] == "shr"
        and ex.signed(n.t)
        and n.args[0].lo < 0
        and any(k.op == "coord" for k in n.args[1].nodes())
        for n in (s.expr.nodes() if s.expr else [])
    )


class FakeExplorer:
    """What shrink_all needs of explore.Explorer; `wrong(p, stage)` says which outputs the driver gets wrong."""

    class A:
        shrink_width, shrink_rounds = 6, 200

    def __init__(self, pipelines, wrong):
        self.a, self.runtimes = self.A(), RUNTIMES
        self.project = type("P", (), {"work": "/nonexistent"})()
        self.pipelines = {p.name: p for p in pipelines}
        self.built, self.wrong, self.builds = dict(self.pipelines), wrong, 0

    def over_budget(self):
        return False

    def say(self, text):
        pass

    def build(self, pipelines, tag):
        self.builds += 1
        self.built.update({p.name: p for p in pipelines})

    def bless_and_run(self, names, profiles, out):
        runs = []
        for n in names:
            p = self.built[n]
            outs = {s.name: {"passed": not self.wrong(p, s)} for s in p.outputs()}
            bad = sorted(k for k, v in outs.items() if not v["passed"])
            runs.append(
                {
                    "pipeline": n,
                    "profile": profiles[0],
                    "outcome": "FAIL" if bad else "PASS",
                    "message": "%s: 9 of 64 elements outside the tolerance" % bad[0] if bad else "matches golden",
                    "metrics": {"outputs": outs},
                }
            )
        return {"runs": runs}

    def divergence(self, name, profile):
        r = self.bless_and_run([name], [profile], "")["runs"][0]
        v = explore_verdict.divergence(r)
        return {
            "record": r,
            "pipeline": name,
            "profile": profile,
            "class": v[0],
            "detail": v[1],
            "driver": "fake",
            "signature": explore_verdict.signature(v[0], v[1], profile),
        }


def hand_made(name, exprs, inputs, size=(64, 8)):
    """A 2-D pipeline of element-wise output stages (name -> expr), GPU tiles on vulkan."""
    p = Pipeline(name=name, seed="test", dims=2, size=list(size), inputs=inputs)
    for sname, (t, e, output) in exprs.items():
        p.stages.append(Stage(name=sname, kind="map", t=t, dims=2, expr=e, output=output))
    p.sched = {
        "cpu": {s.name: Sched() for s in p.stages},
        "vulkan": {s.name: Sched(gpu=(16, 4)) if s.output else Sched(where="inline") for s in p.stages},
    }
    assert check(p) == [], check(p)
    return p


def load(src, t, **a):
    return X("load", t, src=src, **a)


def lane_amount():
    return ex.cast("int32", X("coord", "int32", var="x", mod=8))


class Shrinking(unittest.TestCase):
    def test_every_wrong_values_divergence_is_shrunk(self):
        # one profile's wrong values share a signature (their message says nothing): capping them at two
        # left seed 1's pipeline 28 unshrunk on lavapipe
        ps = []
        for k in range(4):
            lhs = X("bin", "int32", [ex.cast("int32", load("in0", "int16")), ex.const("int32", k + 1)], fn="add")
            ps.append(
                hand_made(
                    "t%d" % k,
                    {"f0": ("int32", X("bin", "int32", [lhs, lane_amount()], fn="shr"), True)},
                    [Input("in0", "int16", -2048, 2047)],
                )
            )
        fx = FakeExplorer(ps, signed_lane_shift)
        divs = explore_rounds.shrink_all(fx, [fx.divergence(p.name, "vulkan") for p in ps])
        self.assertEqual([bool(d.get("steps")) for d in divs], [True] * 4, [d.get("not_shrunk") for d in divs])

    def test_each_wrong_output_gets_its_own_reproducer(self):
        p = explore.plan(1, 28, ["vulkan"], RUNTIMES, 256)  # f3 and f4: two wrong outputs
        wrong = lambda q, s: (
            signed_lane_shift(q, s)
            or (s.name == "f3" and any(n.op == "rshr" and n.args[0].lo < 0 for n in s.expr.nodes()))
        )
        fx = FakeExplorer([p], wrong)
        divs = explore_rounds.shrink_all(fx, [fx.divergence(p.name, "vulkan")])
        self.assertEqual(sorted(d["focus"] for d in divs), ["f3", "f4"])
        for d in divs:
            q = d["cur"]
            self.assertEqual([s.name for s in q.stages], [d["focus"]], d["steps"])
            self.assertLessEqual(q.stages[0].expr.size(), 6, q.stages[0].expr.shape())

    def test_a_subexpression_becomes_an_input_of_its_range(self):
        # (int32(u8) - int32(u8)) >> (x % 8): each operand alone is never negative, so replacing the
        # difference by an operand loses the bug; an int32 input with the difference's range keeps it
        diff = X(
            "bin",
            "int32",
            [ex.cast("int32", load("in0", "uint8")), ex.cast("int32", load("in1", "uint8", dx=1))],
            fn="sub",
        )
        p = hand_made(
            "t",
            {"f0": ("int32", X("bin", "int32", [diff, lane_amount()], fn="shr"), True)},
            [Input("in0", "uint8", 0, 255), Input("in1", "uint8", 0, 255)],
        )
        fx = FakeExplorer([p], signed_lane_shift)
        d = explore_rounds.shrink_all(fx, [fx.divergence(p.name, "vulkan")])[0]
        q = d["cur"]
        self.assertEqual(len(q.inputs), 1, d["steps"])
        self.assertEqual((q.inputs[0].t, q.inputs[0].lo, q.inputs[0].hi), ("int32", -255, 255))
        self.assertEqual(q.stages[0].expr.shape(), "bin.shr:int32(load.src:int32(),coord:int32)")

    def test_a_map_read_at_the_centre_is_inlined(self):
        inner = X("bin", "int32", [ex.cast("int32", load("in0", "int16")), ex.const("int32", 3)], fn="sub")
        p = hand_made(
            "t",
            {
                "f0": ("int32", inner, False),
                "f1": ("int32", X("bin", "int32", [load("f0", "int32"), lane_amount()], fn="shr"), True),
            },
            [Input("in0", "int16", -100, 100)],
        )
        moves = dict(explore_shrink.candidates(explore_shrink.only_profile(p, "vulkan"), "vulkan", "t"))
        q = moves["inline f0 into its readers"]
        self.assertEqual([s.name for s in q.stages], ["f1"])
        self.assertEqual(
            q.stages[0].expr.shape(),
            "bin.shr:int32(bin.sub:int32(cast:int32(load.src:int16()),const:int32),coord:int32)",
        )


class Known(unittest.TestCase):
    def test_message_patterns_match_the_messages_as_explore_keeps_them(self):
        # explore matches a finding's message with its numbers scrubbed ('floor_f64' is 'floor_fN' there)
        known = explore_report.load_known(
            os.path.join(paths.project_dir(), "harness", "test", "explore", "known_findings.json")
        )
        msg = (
            "variant ex2_0012__vulkan failed to compile (the build kept a stub): generator ex2_0012__vulkan failed "
            "for target x86-64-linux-vulkan: Unhandled exception: Error: Vulkan: unhandled SPIR-V GLSL builtin "
            "function 'floor_f64' encountered."
        )
        cls, detail = explore_verdict.divergence({"outcome": "ERROR", "message": msg})
        self.assertIsNotNone(
            explore_report._known({"runtime": "vulkan", "class": cls, "message": detail, "shape": ""}, known), detail
        )

    def finding(self, p):
        class Ex:
            runtimes = RUNTIMES

        d = {
            "record": {},
            "pipeline": p.name,
            "profile": "vulkan",
            "class": "wrong-values",
            "driver": "lavapipe",
            "detail": "S: N of N elements (N%) outside the tolerance (exact, max abs error N)",
            "signature": "",
            "cur": p,
            "minimized": p.name,
        }
        return explore_report.group(Ex(), [d])[0]

    def test_the_known_file_labels_rediscoveries(self):
        known = explore_report.load_known(
            os.path.join(paths.project_dir(), "harness", "test", "explore", "known_findings.json")
        )
        # (int32(saturating_cast<uint16_t>(u32)) / -255) % 3, seed 1's pipeline 43 as first minimized by hand
        v = ex.cast("int32", ex.cast("uint16", load("in0", "uint32"), sat=True))
        e = X(
            "bin", "int32", [X("bin", "int32", [v, ex.const("int32", -255)], fn="div"), ex.const("int32", 3)], fn="mod"
        )
        f = self.finding(hand_made("k", {"f0": ("int32", e, True)}, [Input("in0", "uint32", 0, 100000)]))
        self.assertEqual(explore_report._known(f, known)["blame"], "halide")
        # as explore shrinks it (lavapipe 22, seed 1 pipeline 43): the modulo of a negative int32 by 3
        f = self.finding(
            hand_made(
                "m",
                {"f0": ("int32", X("bin", "int32", [load("in1", "int32"), ex.const("int32", 3)], fn="mod"), True)},
                [Input("in1", "int32", -257, 0)],
            )
        )
        self.assertEqual(explore_report._known(f, known)["blame"], "halide")
        # the signed shift right of golden/xfail.json, as explore shrank seed 2's pipeline 24: its own entry
        shift = X("rshr", "int8", [load("in0", "int8")], k=3)
        f = self.finding(hand_made("s", {"f0": ("int8", shift, True)}, [Input("in0", "int8", -62, 62)]))
        self.assertIn("OpShiftRightLogical", explore_report._known(f, known)["evidence"])
        # an unsigned one is neither
        shift = X("bin", "uint16", [load("in0", "uint16"), ex.const("uint16", 3)], fn="shr")
        f = self.finding(hand_made("u", {"f0": ("uint16", shift, True)}, [Input("in0", "uint16", 0, 100)]))
        self.assertIsNone(explore_report._known(f, known))


if __name__ == "__main__":
    unittest.main()
