"""The expression sampler of genfuzz_cpp.py: leaves (inputs read at offsets, scalars, stage reads), their
combinations and the interval of each, in the working type (float or int32) of one generator.

Integer products only where the interval stays far inside int32, no division by a value that can be
zero, and sums whose atoms cancel (b + (a - b)), differences whose one side appears inside the other
(select(c, x, s) - s) and operations on two identical operands are avoided, since they make outputs constant. In float
work every value a Func stores is wrapped in strict_float() (strict()): Halide may contract a * b + c into
an fma on targets that have one and its simplifier distributes (v + c0) * c1, so without it a float that
an output truncates to an integer (or compares, or bins) legitimately differs by one ulp between targets,
and the integer by 1. The rng is the model's, continued, so a seed gives the same text.
"""

import random

from .genfuzz_model import TYPES, VARS, is_float, value_range

INT_LIMIT = 1 << 24


class E:
    """An expression: C++ text (working type), interval, and whether it depends on a buffer input."""

    def __init__(self, text, lo, hi, data=False, lin=None):
        self.text, self.lo, self.hi, self.data = text, lo, hi, data
        # The expression as a sum of atoms with integer coefficients ({atom text: coefficient}); an expression
        # that is no sum or difference is one atom, itself.
        self.lin = lin if lin is not None else {text: 1}


def _sum(a, b, sign):
    """The atoms of a + sign * b, and whether an atom of either cancelled out (b + (a - b) is a alone: with
    abs() around it and a - abs(a) beside it, an output is constant for every non-negative fill)."""
    lin = dict(a.lin)
    for k, v in b.lin.items():
        lin[k] = lin.get(k, 0) + sign * v
    cancelled = any(v == 0 for v in lin.values())
    return {k: v for k, v in lin.items() if v}, cancelled


def nested(a, b):
    """Whether one of two expressions appears inside the other: a - b may then be 0 wherever a select, min or
    max picks the shared side (select(c, x, s) - s where c is false, v - abs(v) on non-negative fills)."""
    return b.text in a.text or a.text in b.text


def _num(v, work):
    if work == "float":
        return repr(float(v)) + "f"
    return str(int(v))


def _lit(t, v):
    """A C++ literal of scalar type t."""
    if t == "bool":
        return "true" if v else "false"
    if t == "float32":
        return repr(float(v)) + "f"
    if t == "float64":
        return repr(float(v))
    return "(%s)%d" % (TYPES[t][0], int(v))


class Writer:
    def __init__(self, g, rng=None):
        self.g = g
        self.rng = rng or random.Random(g.seed + ":body")
        self.w = "float" if g.work == "float" else "int32_t"
        self.decl, self.body, self.sched, self.est = [], [], [], []
        self.n_funcs = 0

    def strict(self, text):
        """A float value as every target computes it (no fma contraction, no reassociation): see above."""
        return "strict_float(%s)" % text if self.g.work == "float" else text

    # ---- leaves -------------------------------------------------------------------------------------
    def conv(self, text, t):
        """A value of type t as the working type, clamped where it is wide (int work)."""
        lo, hi = value_range(t)
        if self.g.work == "float":
            return E("cast<float>(%s)" % text, lo, hi, True)
        bits = TYPES[t][3]
        if bits <= 8:
            return E("cast<int32_t>(%s)" % text, lo, hi, True)
        if bits >= 32 and not TYPES[t][4]:
            # Halide 21 bounds min(u, 4095) of a 32/64-bit unsigned u from above only, so a histogram
            # indexed by it is "accessed over an unbounded domain"; the remainder is bounded both ways.
            return E("cast<int32_t>(%s %% 4096)" % text, 0, 4095, True)
        return E("cast<int32_t>(clamp(%s, %s, %s))" % (text, lo if TYPES[t][4] else 0, hi), lo, hi, True)

    def coords(self, dims, offsets, consumer_dims, rdom=None):
        args = []
        for k in range(dims):
            if k < consumer_dims:
                v = VARS[k]
                off = offsets[k] if k < len(offsets) else 0
                if rdom is not None and k == 0:
                    v = "%s + %s" % (v, rdom)
                scale = self.rng.random()
                if k < 2 and scale < 0.08:
                    v = "2 * %s" % v  # a downsampling read
                elif k < 2 and scale < 0.14:
                    v = "%s / 2" % v  # an upsampling read
                args.append("%s%+d" % (v, off) if off else v)
            else:
                args.append("0")
        return ", ".join(args)

    def input_leaf(self, b, consumer_dims, jitter=True):
        src = b.name + "_bc" if b.boundary else b.name
        offs = list(b.offsets) or [0] * b.dims
        if b.boundary and jitter:
            offs = [self.rng.choice([-2, -1, 0, 0, 1, 2]) if k < 2 else 0 for k in range(b.dims)]
        return self.conv("%s(%s)" % (src, self.coords(b.dims, offs, consumer_dims)), b.type)

    def scalar(self, s):
        t = s.type
        if self.g.work == "float":
            return E("cast<float>(%s)" % s.name, 0.5, 2.0)
        if is_float(t):
            return E("cast<int32_t>(clamp(cast<float>(%s), -16.0f, 16.0f))" % s.name, -16, 16)
        lo = -16 if TYPES[t][4] else 0
        return E("cast<int32_t>(clamp(%s, %d, 16))" % (s.name, lo), lo, 16)

    # ---- expressions --------------------------------------------------------------------------------
    def combine(self, a, b):
        r = self.rng.random()
        if a.text == b.text:  # max(v, v), select(v > v, v, v), v / (|v| + 1): v, or a constant
            return a
        if r < 0.55:
            sign = 1 if r < 0.35 else -1
            lin, cancelled = _sum(a, b, sign)
            # A difference whose one side appears inside the other cancels where a select, min or max inside
            # it picks that side (select(c, x, s) - s is 0 whenever c is false): avoided like a - a.
            cancelled = cancelled or (sign < 0 and nested(a, b))
            if not cancelled:  # (a - a), b + (a - b): an atom gone, often a constant output
                return E(
                    "(%s %s %s)" % (a.text, "+" if sign > 0 else "-", b.text),
                    a.lo + b.lo if sign > 0 else a.lo - b.hi,
                    a.hi + b.hi if sign > 0 else a.hi - b.lo,
                    a.data or b.data,
                    lin,
                )
            return E("max(%s, %s)" % (a.text, b.text), max(a.lo, b.lo), max(a.hi, b.hi), a.data or b.data)
        if r < 0.7:
            ps = [a.lo * b.lo, a.lo * b.hi, a.hi * b.lo, a.hi * b.hi]
            if self.g.work == "float" or max(abs(p) for p in ps) < INT_LIMIT:
                return E("(%s * %s)" % (a.text, b.text), min(ps), max(ps), a.data or b.data)
            return E("(%s + %s)" % (a.text, b.text), a.lo + b.lo, a.hi + b.hi, a.data or b.data)
        if r < 0.8:
            f = self.rng.choice(["min", "max"])
            return E("%s(%s, %s)" % (f, a.text, b.text), min(a.lo, b.lo), max(a.hi, b.hi), a.data or b.data)
        if r < 0.9:
            return E(
                "select(%s > %s, %s, %s)" % (a.text, b.text, a.text, b.text),
                min(a.lo, b.lo),
                max(a.hi, b.hi),
                a.data or b.data,
            )
        if self.g.work == "float":
            return E(
                "(%s / (abs(%s) + 1.0f))" % (a.text, b.text),
                -max(abs(a.lo), abs(a.hi)),
                max(abs(a.lo), abs(a.hi)),
                a.data or b.data,
            )
        k = self.rng.choice([2, 3, 5])
        return E(
            "((%s * %d + %s) / %d)" % (a.text, k, b.text, k + 1),
            (a.lo * k + b.lo) // (k + 1) - 1,
            (a.hi * k + b.hi) // (k + 1) + 1,
            a.data or b.data,
        )

    def unary(self, a):
        if self.g.work == "float" and self.rng.random() < 0.3:
            m = max(abs(a.lo), abs(a.hi))
            return E("sqrt(abs(%s) + 1.0f)" % a.text, 1.0, (m + 1) ** 0.5, a.data)
        if self.rng.random() < 0.5:
            m = max(abs(a.lo), abs(a.hi))
            return E("cast<%s>(abs(%s))" % (self.w, a.text), 0, m, a.data)
        return a

    def apply_scalar(self, carrier, s, other):
        c = self.scalar(s)
        if s.role == "gain":  # any gain but 0 keeps the carrier
            lo, hi = _mul(carrier, c)
            return E("(%s * %s + %s)" % (carrier.text, c.text, other.text), lo + other.lo, hi + other.hi, True)
        if s.role == "offset":
            return E("(%s + %s)" % (carrier.text, c.text), carrier.lo + c.lo, carrier.hi + c.hi, True)
        if s.role == "threshold":
            return E(
                "select(%s > %s, %s, %s)" % (carrier.text, c.text, carrier.text, other.text),
                min(carrier.lo, other.lo),
                max(carrier.hi, other.hi),
                True,
            )
        if s.role == "flag":
            return E(
                "select(%s, %s, %s)" % (s.name, carrier.text, other.text),
                min(carrier.lo, other.lo),
                max(carrier.hi, other.hi),
                True,
            )
        if s.role == "shift":
            return E(
                "(%s >> clamp(cast<int32_t>(%s), 0, 7))" % (carrier.text, s.name),
                min(carrier.lo, 0),
                max(carrier.hi, 0),
                True,
            )
        return carrier

    def clamp_pair(self, carrier, lo_s, hi_s):
        """clamp(v, lo, hi) with lo and hi in the data's units, as real generators clamp: the output is scaled
        by the carrier's interval, so any lo < hi inside the values v takes gives a varied output. (Scaled
        by an interval of its own, [-16, 16], the clamp of data far outside it saturated the output, and no
        guess of lo and hi inside the data could mean anything.)"""
        if self.g.work == "float":
            lo, hi = "cast<float>(%s)" % lo_s.name, "cast<float>(%s)" % hi_s.name
            return E("clamp(%s, %s, %s)" % (carrier.text, lo, hi), carrier.lo, carrier.hi, True)
        # Cast first: Halide's clamp wants one type, and -4096 is no uint8 (an 8-bit pair failed to build).
        lo = "clamp(cast<int32_t>(%s), -4096, 4095)" % lo_s.name
        hi = "clamp(cast<int32_t>(%s), -4096, 4095)" % hi_s.name
        return E("clamp(%s, %s, %s)" % (carrier.text, lo, hi), carrier.lo, carrier.hi, True)

    def leaf(self, consumer_dims, sources):
        r = self.rng.random()
        if r < 0.7 or not self.g.stages:
            kind, obj = self.rng.choice(sources)
        else:
            kind, obj = "stage", self.rng.choice(self.g.stages)
        if kind == "input":
            return self.input_leaf(obj, consumer_dims)
        if kind == "total":
            return obj
        st = obj
        offs = [self.rng.choice([-1, 0, 1]) if k < 2 else 0 for k in range(st.dims)]
        args = self.coords(st.dims, offs, consumer_dims)
        if st.tuple2:
            i = self.rng.randrange(2)
            lo, hi = self.stage_range[st.name][i]
            return E("%s(%s)[%d]" % (st.name, args, i), lo, hi, True)
        lo, hi = self.stage_range[st.name]
        return E("%s(%s)" % (st.name, args), lo, hi, True)

    def tree(self, consumer_dims, sources, depth):
        if depth == 0 or self.rng.random() < 0.3:
            if self.rng.random() < 0.12:
                v = self.rng.choice(VARS[: max(consumer_dims, 1)]) if consumer_dims else None
                if v:
                    return E("cast<%s>(%s %% 7)" % (self.w, v), 0, 6)
            return self.leaf(consumer_dims, sources)
        a = self.tree(consumer_dims, sources, depth - 1)
        b = self.tree(consumer_dims, sources, depth - 1)
        return self.unary(self.combine(a, b))


def _mul(a, b):
    ps = [a.lo * b.lo, a.lo * b.hi, a.hi * b.lo, a.hi * b.hi]
    return min(ps), max(ps)
