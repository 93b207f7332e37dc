"""The expressions of `explore`'s random pipelines: a typed tree (X) whose every node knows the interval
of values it can take and a bound on how far a correct GPU or vectorized build may differ from the cpu
build there (its error), and the Halide C++ that computes it.

Only defined behaviour is ever written: analyze() reports a signed overflow, a division or modulo whose
divisor interval holds 0, a shift by an amount outside [0, bits), a float->int cast outside the target's
range, a square root of a possibly negative value, or a condition, index or bit operation on a value
that is not exact (an inexact float rounded to an integer may flip) as problems; a pipeline with any
problem is never built. Unsigned arithmetic wraps (defined); a wrapped interval is the type's range.

Errors: integers are exact unless they come from an inexact float (then the bound counts the flips).
Floats carry an absolute bound from their operations: rounding of each operation (2 ulp), GPU division
and sqrt (4 ulp: OpenCL and Vulkan allow 2.5-3), exp (3 + 2|x| ulp: Vulkan), sin (2^-11 absolute on
[-pi, pi]: Vulkan) and what their operands carry, so that the tolerance of a pipeline follows from what
it computes (tolerance.py): exact for integer pipelines.
"""

from ..genfuzz.genfuzz_model import TYPES

INTS = ["uint8", "uint16", "uint32", "uint64", "int8", "int16", "int32", "int64"]
FLOATS = ["float32", "float64"]
EPS = {"float32": 2.0**-23, "float64": 2.0**-52}
MANT = {"float32": 24, "float64": 53}
FLIMIT = 1e6  # float values stay below this magnitude (no inf, no loss of every digit)
INF = float("inf")
# Binary operators: name -> C++ format (a, b).
BINOPS = {
    "add": "(%s + %s)",
    "sub": "(%s - %s)",
    "mul": "(%s * %s)",
    "div": "(%s / %s)",
    "mod": "(%s %% %s)",
    "min": "min(%s, %s)",
    "max": "max(%s, %s)",
    "and": "(%s & %s)",
    "or": "(%s | %s)",
    "xor": "(%s ^ %s)",
    "absd": "absd(%s, %s)",
    "sat_add": "saturating_add(%s, %s)",
    "sat_sub": "saturating_sub(%s, %s)",
    "hadd": "halving_add(%s, %s)",
    "rhadd": "rounding_halving_add(%s, %s)",
    "shl": "(%s << %s)",
    "shr": "(%s >> %s)",
    "wmul": "widening_mul(%s, %s)",
}
CMPS = {"lt": "<", "le": "<=", "gt": ">", "ge": ">=", "eq": "==", "ne": "!="}
UNARY = ["abs", "neg", "sqrt", "exp", "sin", "floor"]


def isf(t):
    return TYPES[t][2]


def bits(t):
    return TYPES[t][3]


def signed(t):
    return TYPES[t][4]


def ctype(t):
    return TYPES[t][0]


def trange(t):
    if isf(t):
        return (-FLIMIT, FLIMIT)
    b = bits(t)
    return (-(1 << (b - 1)), (1 << (b - 1)) - 1) if signed(t) else (0, (1 << b) - 1)


def unsigned_of(t):
    return "uint%d" % bits(t)


def wider(t):
    return ("int" if signed(t) else "uint") + str(2 * bits(t))


class X:
    """One node: op, type t, children args, attributes a (op-specific); lo, hi, err after analyze()."""

    __slots__ = ("op", "t", "args", "a", "lo", "hi", "err")

    def __init__(self, op, t, args=(), **a):
        self.op, self.t, self.args, self.a = op, t, list(args), a
        self.lo = self.hi = self.err = None

    def copy(self):
        return X(self.op, self.t, [k.copy() for k in self.args], **dict(self.a))

    def nodes(self):
        """Every node below and including this one, parents first."""
        out = [self]
        for k in self.args:
            out += k.nodes()
        return out

    def size(self):
        return len(self.nodes())

    def shape(self):
        """The node's shape without constants and offsets: what two findings share when they are one bug."""
        if self.op in ("const", "coord"):
            return "%s:%s" % (self.op, self.t)
        name = self.a.get("fn") or self.a.get("src", "")
        if self.op in ("load", "gather", "lut", "total", "param"):
            name = "src"
        inner = ",".join(k.shape() for k in self.args)
        return "%s%s:%s(%s)" % (self.op, "." + name if name else "", self.t, inner)

    def __repr__(self):
        return self.shape()


def const(t, v):
    return X("const", t, v=v)


def cast(t, e, sat=False):
    return e if e.t == t and not sat else X("satcast" if sat else "cast", t, [e])


# ---- C++ ---------------------------------------------------------------------------------------------
def _lit(t, v):
    if t == "float32":
        return "Expr(%rf)" % float(v)
    if t == "float64":
        return "Expr(%r)" % float(v)
    # C++ has no negative literals: -2147483648 is -(a long), which Expr cannot take unambiguously
    if -(1 << 31) < v < (1 << 31):
        return "cast<%s>(%d)" % (ctype(t), v)
    if v < 0 or t == "int64":
        return (
            "cast<%s>(Expr((int64_t)(%dLL - 1)))" % (ctype(t), v + 1)
            if v < 0
            else "cast<%s>(Expr((int64_t)%dLL))" % (ctype(t), v)
        )
    return "cast<%s>(Expr((uint64_t)%dULL))" % (ctype(t), v)


def coords(a, dims, rdom="r"):
    """The coordinates of a load: x scaled (down: 2x, up: x/2) and offset, y offset, c as it is or one
    channel; at an RDom (at: rdom, the RDom around x, y) or an input's whole extent (at: whole)."""
    if a.get("at") == "whole":
        return ", ".join("%s.%s" % (rdom, v) for v in "xyz"[:dims])
    x = {"": "x", "down": "2 * x", "up": "x / 2"}[a.get("scale", "")]
    y = "y"
    if a.get("at") == "rdom":
        x, y = "x + %s.x" % rdom, ("y + %s.y" % rdom if a.get("ry") else "y")
    out = [
        "%s%s" % (x, _off(a.get("dx", 0))),
        "%s%s" % (y, _off(a.get("dy", 0))),
        "c" if a.get("ch") is None else str(a["ch"]),
    ]
    return ", ".join(out[:dims])


def _off(d):
    return " + %d" % d if d > 0 else " - %d" % -d if d < 0 else ""


class Ctx:
    """Where an expression is written: the Func's dimensions, its RDom's name, and the Func a read of a
    source goes to (func(name, whole): an input's boundary-condition Func unless the read is in bounds)."""

    def __init__(self, dims, func, rdom="r"):
        self.dims, self.func, self.rdom = dims, func, rdom


def cpp(e, ctx):
    """The C++ of e, an Expr of exactly e.t."""
    r = lambda k: cpp(k, ctx)
    op, a = e.op, e.a
    if op == "const":
        return _lit(e.t, a["v"])
    if op == "coord":
        return "cast<%s>(%s %% %d)" % (ctype(e.t), a["var"], a["mod"])
    if op == "load":
        return "%s(%s)" % (ctx.func(a["src"], a.get("at") == "whole"), coords(a, ctx.dims, ctx.rdom))
    if op == "gather":
        rest = ["y", "c"][: ctx.dims - 1]
        return "%s(%s)" % (ctx.func(a["src"], False), ", ".join(["cast<int32_t>(%s)" % r(e.args[0])] + rest))
    if op == "lut":
        return "%s(clamp(cast<int32_t>(%s), 0, %d))" % (a["src"], r(e.args[0]), a["n"] - 1)
    if op == "total":
        return "%s()" % a["src"]
    if op == "param":
        return a["name"]
    if op == "cast":
        return "cast<%s>(%s)" % (ctype(e.t), r(e.args[0]))
    if op == "satcast":
        return "saturating_cast<%s>(%s)" % (ctype(e.t), r(e.args[0]))
    if op == "bin":
        return BINOPS[a["fn"]] % (r(e.args[0]), r(e.args[1]))
    if op == "rshr":
        return "rounding_shift_right(%s, %d)" % (r(e.args[0]), a["k"])
    if op == "cmp":
        return "(%s %s %s)" % (r(e.args[0]), CMPS[a["fn"]], r(e.args[1]))
    if op == "select":
        return "select(%s, %s, %s)" % tuple(r(k) for k in e.args)
    if op == "clamp":
        return "clamp(%s, %s, %s)" % (r(e.args[0]), _lit(e.t, a["lo"]), _lit(e.t, a["hi"]))
    if op == "un":
        if a["fn"] == "neg":
            return "(-%s)" % r(e.args[0])
        return "%s(%s)" % (a["fn"], r(e.args[0]))
    raise ValueError("unknown node %s" % op)
