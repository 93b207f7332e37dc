"""The grammar of `explore`: how a seed picks a random pipeline's algorithm (explore_model.Pipeline).

A pipeline is sampled from one random.Random seeded with "explore:<seed>:<index>" (the same pipelines on
every machine and Python 3). What it covers, as real pipelines do: element-wise arithmetic on every
integer type and float32/float64 (add, sub, mul, division and modulo by constants and by data kept away
from 0, min/max, bitwise ops, absd, saturating and halving adds, widening multiplies, rounding shifts,
shifts by constants, by coordinates and by data), casts that wrap and saturate, select on comparisons,
clamp, abs, float sqrt/exp/sin/floor; stencils (reads at offsets behind every boundary condition, RDom
convolutions); resampling (reads at 2x and x/2) and gathers (data-dependent reads); histograms, their
prefix sums and look-up tables; totals over a whole input; scalar parameters; 1-D to 3-D; one to three
outputs of any type. Every expression is built bottom up and each node kept only when analyze() finds
no undefined behaviour in it, so a sampled pipeline is always defined; check() confirms it.
"""

import random

from . import explore_expr as ex, explore_interval as iv
from .explore_expr import X, INTS, FLOATS
from .explore_model import Input, Param, Pipeline, Stage, check, reads, tolerance, TABLES
from ..genfuzz.genfuzz_model import BOUNDARY

from .explore_vocab import INT_OPS, FLOAT_OPS, FILL, SIZES


def sample_pipeline(seed, index):
    """Pipeline number `index` of `seed` (deterministic); the first sampled attempt that is defined."""
    rng = random.Random("explore:%s:%d" % (seed, index))
    for _ in range(100):
        p = Sampler(rng, "ex%s_%04d" % (seed, index), "%s:%d" % (seed, index)).pipeline()
        if not check(p) and tolerance(p) is not None:
            return p
    raise AssertionError("explore: no defined pipeline in 100 attempts for %s:%d" % (seed, index))


class Sampler:
    def __init__(self, rng, name, seed):
        self.rng, self.name, self.seed = rng, name, seed

    # ---- the pipeline --------------------------------------------------------------------------------
    def pipeline(self):
        rng = self.rng
        dims = rng.choice([1, 2, 2, 2, 2, 3, 3])
        p = self.p = Pipeline(name=self.name, seed=self.seed, dims=dims, size=list(rng.choice(SIZES[dims])))
        self.float_work = rng.random() < 0.35
        pool = (["float32", "float32", "float64"] + INTS[:3]) if self.float_work else INTS + INTS[:3]
        for i in range(rng.choice([1, 1, 2, 2, 3])):
            t = rng.choice(pool)
            lo, hi = rng.choice(FILL[t])
            bc = rng.choice(BOUNDARY)
            p.inputs.append(Input(name="in%d" % i, t=t, lo=lo, hi=hi, bc=bc))
        for i in range(rng.choice([0, 0, 1, 1, 2])):
            t = rng.choice(["uint8", "int16", "int32", "float32", "bool"])
            lo, hi = {
                "uint8": (0, 255),
                "int16": (-100, 100),
                "int32": (-1000, 1000),
                "float32": (-4.0, 4.0),
                "bool": (0, 1),
            }[t]
            v = rng.choice([lo, hi, (lo + hi) // 2 if t != "float32" else 0.5, 1 if t != "float32" else 1.5])
            p.params.append(Param(name="p%d" % i, t=t, lo=lo, hi=hi, value=v))
        self.env = {}
        check(p, partial=True)  # bounds of inputs and params
        self.env = dict(p.bounds)
        for _ in range(rng.choice([1, 2, 2, 3, 3, 4, 5])):
            self.stage(final=False)
        for _ in range(rng.choice([1, 1, 1, 2, 3])):
            self.stage(final=True)
        prune(p)
        return p

    def work_type(self):
        if self.float_work:
            return self.rng.choice(["float32", "float32", "float32", "float64"])
        return self.rng.choice(["int32", "int32", "int16", "uint16", "uint8", "int8", "uint32", "int64", "uint64"])

    def new_name(self, prefix):
        return "%s%d" % (prefix, len(self.p.stages))

    def add(self, s):
        self.p.stages.append(s)
        problems = check(self.p, partial=True)
        if problems:
            self.p.stages.pop()
            check(self.p, partial=True)
            return False
        self.env = dict(self.p.bounds)
        return True

    def stage(self, final):
        p, rng = self.p, self.rng
        kinds = ["map"] * 6 + ["conv"] * 2
        if not final:
            kinds += ["lutmap", "total"] + (["hist"] if any(not ex.isf(i.t) for i in p.inputs) else [])
            kinds += ["cdf"] if any(s.kind == "hist" for s in p.stages) else []
        for _ in range(8):
            kind = rng.choice(kinds)
            t = rng.choice(INTS + FLOATS) if final and rng.random() < 0.6 else self.work_type()
            s = getattr(self, "s_" + kind)(t)
            s.output = final
            if self.add(s):
                return s
        return None

    def s_map(self, t):
        if self.rng.random() < 0.4:  # computed in the working type, then converted (quantized)
            e = self.convert(self.expr(self.work_type(), 3), t)
        else:
            e = self.expr(t, 3)
        return Stage(name=self.new_name("f"), kind="map", t=t, dims=self.p.dims, expr=self.settled(e))

    def s_conv(self, t):
        rng, p = self.rng, self.p
        if ex.isf(t):
            t = rng.choice(["float32", "float64"])
        else:
            t = rng.choice(["int32", "int32", "uint16", "uint32", "int16", "int64"])
        src = rng.choice([i.name for i in p.inputs] + elementwise(p))
        ry = rng.choice([0, 1, 1, 2]) if p.dims >= 2 else 0
        rx = rng.choice([1, 1, 2, 3])
        term = self.convert(X("load", self.type_of(src), src=src, at="rdom", ry=ry), t)
        if rng.random() < 0.4:
            term = X(
                "bin", t, [term, ex.const(t, rng.choice([2, 3, -1]) if ex.signed(t) else rng.choice([2, 3]))], fn="mul"
            )
        self.settled(term)
        lim = ex.trange(t)[1] // ((2 * rx + 1) * (2 * ry + 1))
        if max(abs(term.lo), abs(term.hi)) > lim:  # keep the sum inside t
            term = X("clamp", t, [term], lo=-lim if ex.signed(t) else 0, hi=lim)
        return Stage(
            name=self.new_name("conv"), kind="conv", t=t, dims=p.dims, expr=self.settled(term), src=src, radius=(rx, ry)
        )

    def s_hist(self, t):
        src = self.rng.choice([i for i in self.p.inputs if not ex.isf(i.t)])
        n = self.rng.choice([16, 32, 64, 256])
        # the bin in int64; from a uint32 input (0 <= values <= 2^31) in int32: Halide 21's bounds inference
        # loses every bound of a histogram index computed from int64(uint32) ("hist is accessed over an
        # unbounded domain" on the cpu oracle itself), while int32(uint32) keeps them
        wide = "int32" if src.t == "uint32" and src.lo == 0 and src.hi <= 1 << 31 else "int64"
        v = ex.cast(wide, X("load", src.t, src=src.name, at="whole"))
        span = max(int(src.hi - src.lo), 1)
        k = max(span.bit_length() - n.bit_length() + 1, 0)
        b = X(
            "bin",
            wide,
            [
                X("bin", wide, [v, ex.const(wide, int(src.lo))], fn="sub"),
                ex.const(wide, min(k, 62 if wide == "int64" else 30)),
            ],
            fn="shr",
        )
        return Stage(
            name=self.new_name("hist"),
            kind="hist",
            t=self.rng.choice(["int32", "uint32"]),
            dims=1,
            expr=self.settled(b),
            src=src.name,
            n=n,
        )

    def s_cdf(self, t):
        h = self.rng.choice([s for s in self.p.stages if s.kind == "hist"])
        return Stage(name=self.new_name("cdf"), kind="cdf", t=h.t, dims=1, src=h.name, n=h.n)

    def s_lutmap(self, t):
        n = self.rng.choice([16, 64, 256])
        self.coord_only = True
        try:
            e = self.expr(t, 2, lut_index=n)
        finally:
            self.coord_only = False
        return Stage(name=self.new_name("lut"), kind="lutmap", t=t, dims=1, expr=e, n=n)

    def s_total(self, t):
        src = self.rng.choice(self.p.inputs)
        t = "float64" if ex.isf(src.t) else "int64"
        return Stage(
            name=self.new_name("total"),
            kind="total",
            t=t,
            dims=0,
            expr=self.settled(self.convert(X("load", src.t, src=src.name, at="whole"), t)),
            src=src.name,
        )

    # ---- expressions ---------------------------------------------------------------------------------
    coord_only = False

    def type_of(self, name):
        for i in self.p.inputs + self.p.params:
            if i.name == name:
                return i.t
        return self.p.stage(name).t

    def settled(self, e, problems=None):
        iv.analyze(
            e,
            lambda n: self.env[n.a["src"] if "src" in n.a else n.a["name"]],
            problems if problems is not None else [],
            fresh_only=True,
        )
        return e

    def ok(self, e):
        problems = []
        self.settled(e, problems)
        return not problems

    def convert(self, e, t, exact=False):
        """e as type t: a plain cast where the values fit (or wrap, for integers), else saturating."""
        if e.t == t:
            return e
        if e.t == "bool":
            return X("select", t, [e, ex.const(t, 1), ex.const(t, 0)])
        self.settled(e)
        sat = self.rng.random() < 0.5 and not (ex.isf(t) and not ex.isf(e.t))
        if ex.isf(e.t) and not ex.isf(t):
            lo, hi = ex.trange(t)
            sat = sat or e.lo <= lo - 1 or e.hi >= hi + 1
        return self.settled(ex.cast(t, e, sat=sat))

    def leaf(self, t, exact, lut_index=0):
        rng, p = self.rng, self.p
        if self.coord_only:
            if rng.random() < 0.7:
                return self.convert(X("coord", "int32", var="x", mod=lut_index), t)
            return self.const(t)
        srcs = [i.name for i in p.inputs] + elementwise(p)
        if exact:
            srcs = [n for n in srcs if self.env[n][2] == 0]
        r = rng.random()
        tables = [s for s in p.stages if s.kind in TABLES]
        totals = [s for s in p.stages if s.kind == "total" and (not exact or self.env[s.name][2] == 0)]
        if r < 0.08 or not srcs:
            return self.const(t)
        if r < 0.14:
            return self.convert(
                X("coord", "int32", var=rng.choice(["x", "y"][: p.dims]), mod=rng.choice([2, 7, 16, 64])), t
            )
        if r < 0.2 and p.params:
            q = rng.choice(p.params)
            return self.convert(X("param", q.t, name=q.name), t)
        if r < 0.27 and tables:
            s = rng.choice(tables)
            return self.convert(X("lut", s.t, [self.index()], src=s.name, n=s.n), t)
        if r < 0.31 and totals:
            s = rng.choice(totals)
            return self.convert(X("total", s.t, src=s.name), t)
        if r < 0.37:
            src = rng.choice(p.inputs)
            return self.convert(X("gather", src.t, [self.index()], src=src.name), t)
        src = rng.choice(srcs)
        a = {}
        if rng.random() < 0.5:
            a["dx"] = rng.choice([-2, -1, 1, 2, 3])
        if p.dims >= 2 and rng.random() < 0.4:
            a["dy"] = rng.choice([-2, -1, 1, 2])
        if rng.random() < 0.12:
            a["scale"] = rng.choice(["down", "up"])
        if p.dims == 3 and rng.random() < 0.2:
            a["ch"] = rng.randrange(p.size[2])
        return self.convert(X("load", self.type_of(src), src=src, **a), t, exact)

    def index(self):
        """An exact int32 index (of a gather or a table), any value (reads are clamped or bounded)."""
        e = self.expr("int32", 1, exact=True)
        return e

    def const(self, t):
        rng = self.rng
        if ex.isf(t):
            return ex.const(t, rng.choice([0.5, 0.25, 1.5, 2.0, 3.0, -1.0, 0.1, 0.75]))
        lo, hi = ex.trange(t)
        v = rng.choice([0, 1, 2, 3, 7, 15, 100, -1, -3, -100, lo, hi, hi // 2])
        return ex.const(t, min(max(v, lo), hi))

    def expr(self, t, depth, exact=False, lut_index=0):
        """A defined expression of type t (exact: no inexact float in it)."""
        rng = self.rng
        if depth <= 0 or rng.random() < 0.2:
            return self.settled(self.leaf(t, exact, lut_index))
        for _ in range(4):
            e = self.node(t, depth, exact, lut_index)
            if e is not None and self.ok(e) and (not exact or e.err == 0):
                return e
        return self.settled(self.leaf(t, exact, lut_index))

    def node(self, t, depth, exact, li):
        rng = self.rng
        sub = lambda tt=t, d=depth - 1, exa=exact: self.expr(tt, d, exa, li)
        if ex.isf(t):
            op = rng.choice(FLOAT_OPS)
        else:
            op = rng.choice(INT_OPS)
        if op == "select":
            ct = rng.choice(["int32", "uint8", "int16", t if not ex.isf(t) else "int32"])
            cond = X("cmp", "bool", [sub(ct, depth - 1, True), sub(ct, 0, True)], fn=rng.choice(list(ex.CMPS)))
            bools = [q for q in self.p.params if q.t == "bool"]
            if bools and rng.random() < 0.3:
                cond = X("param", "bool", name=rng.choice(bools).name)
            return X("select", t, [cond, sub(), sub()])
        if op == "clamp":
            a = sub()
            lo, hi = sorted([self.const(t).a["v"], self.const(t).a["v"]])
            return X("clamp", t, [a], lo=lo, hi=hi)
        if op == "cast":
            other = rng.choice((FLOATS if not exact else []) + INTS)
            return self.convert(sub(other), t)
        if op in ("abs", "neg", "sqrt", "exp", "sin", "floor"):
            return self.unary(op, t, sub)
        if op == "rshr":
            return X("rshr", t, [sub()], k=rng.randrange(1, ex.bits(t)))
        if op == "wmul":
            if ex.bits(t) < 16:
                return None
            n = ("int" if ex.signed(t) else "uint") + str(ex.bits(t) // 2)
            return X("bin", t, [sub(n), sub(n)], fn="wmul")
        if op == "absd":
            a, b = sub(), sub()
            u = ex.unsigned_of(t) if not ex.isf(t) else t
            return self.convert(X("bin", u, [a, b], fn="absd"), t)
        if op in ("shl", "shr"):
            return X("bin", t, [sub(), self.amount(t, depth)], fn=op)
        if op in ("div", "mod"):
            return X("bin", t, [sub(), self.divisor(t, sub)], fn=op)
        a, b = sub(), sub()
        e = X("bin", t, [a, b], fn=op)
        if not self.ok(e) and op in ("add", "sub", "mul") and ex.signed(t) and not ex.isf(t):
            # keep the operands small enough that the signed result cannot overflow
            lim = ex.trange(t)[1]
            k = int(lim**0.5) // 2 if op == "mul" else lim // 4
            e = X("bin", t, [X("clamp", t, [a], lo=-k, hi=k), X("clamp", t, [b], lo=-k, hi=k)], fn=op)
        return e

    def unary(self, op, t, sub):
        if not ex.isf(t):
            if op == "abs" and ex.signed(t):
                return self.convert(X("un", ex.unsigned_of(t), [sub()], fn="abs"), t)
            if op == "neg" and ex.signed(t):
                a = sub()
                lo, hi = ex.trange(t)
                return X("un", t, [X("clamp", t, [a], lo=lo + 1, hi=hi)], fn="neg")
            return sub()
        a = sub()
        if op == "sqrt":
            return X("un", t, [X("un", t, [a], fn="abs")], fn="sqrt")
        if op in ("exp", "sin"):
            if t != "float32":
                return X("un", t, [a], fn="floor")
            b = 4.0 if op == "exp" else 3.0
            return X("un", t, [X("clamp", t, [a], lo=-b, hi=b)], fn=op)
        return X("un", t, [a], fn=op)

    def amount(self, t, depth):
        """A shift amount in [0, bits): a constant, the x coordinate modulo a small number, or data masked."""
        rng, n = self.rng, ex.bits(t)
        r = rng.random()
        if r < 0.45:
            return ex.const(t, rng.randrange(0, n))
        if r < 0.75:
            return self.convert(X("coord", "int32", var=rng.choice(["x", "y"][: self.p.dims]), mod=min(n, 16)), t)
        return X("clamp", t, [self.expr(t, depth - 1, exact=True)], lo=0, hi=min(n - 1, 7))

    def divisor(self, t, sub):
        rng = self.rng
        lo, hi = ex.trange(t)
        r = rng.random()
        if r < 0.5:
            ks = [1, 2, 3, 4, 5, 7, 8, 16, 255, 1000]
            k = min(rng.choice(ks), hi)
            if ex.signed(t) and rng.random() < 0.3:
                k = -k
            return ex.const(t, k)
        d = sub()
        k = rng.choice([1, 2, 3])
        if ex.signed(t) and rng.random() < 0.3:
            return X("bin", t, [d, ex.const(t, -k)], fn="min")
        return X("bin", t, [d, ex.const(t, k)], fn="max")


def elementwise(p):
    """The stages a later stage may read element by element: of the pipeline's rank, not tables, not outputs."""
    return [s.name for s in p.stages if s.dims == p.dims and s.kind not in TABLES and not s.output]


def prune(p):
    """Drops the stages that no output needs."""
    need = {s.name for s in p.outputs()}
    for s in reversed(p.stages):
        if s.name in need:
            need |= reads(s)
    p.stages = [s for s in p.stages if s.name in need]
    p.inputs = [i for i in p.inputs if i.name in need] or p.inputs[:1]
    p.params = [q for q in p.params if q.name in need]
