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
import math

from .genfuzz_model import TYPES

INTS = ["uint8", "uint16", "uint32", "uint64", "int8", "int16", "int32", "int64"]
FLOATS = ["float32", "float64"]
EPS = {"float32": 2.0 ** -23, "float64": 2.0 ** -52}
MANT = {"float32": 24, "float64": 53}
FLIMIT = 1e6          # float values stay below this magnitude (no inf, no loss of every digit)
INF = float("inf")
# Binary operators: name -> C++ format (a, b).
BINOPS = {"add": "(%s + %s)", "sub": "(%s - %s)", "mul": "(%s * %s)", "div": "(%s / %s)", "mod": "(%s %% %s)",
          "min": "min(%s, %s)", "max": "max(%s, %s)", "and": "(%s & %s)", "or": "(%s | %s)", "xor": "(%s ^ %s)",
          "absd": "absd(%s, %s)", "sat_add": "saturating_add(%s, %s)", "sat_sub": "saturating_sub(%s, %s)",
          "hadd": "halving_add(%s, %s)", "rhadd": "rounding_halving_add(%s, %s)", "shl": "(%s << %s)",
          "shr": "(%s >> %s)", "wmul": "widening_mul(%s, %s)"}
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
        return "cast<%s>(Expr((int64_t)(%dLL - 1)))" % (ctype(t), v + 1) if v < 0 else \
            "cast<%s>(Expr((int64_t)%dLL))" % (ctype(t), v)
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
    out = ["%s%s" % (x, _off(a.get("dx", 0))), "%s%s" % (y, _off(a.get("dy", 0))),
           "c" if a.get("ch") is None else str(a["ch"])]
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
        rest = ["y", "c"][:ctx.dims - 1]
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


# ---- intervals and errors ---------------------------------------------------------------------------
def _ulp(t, m):
    return EPS[t] * max(abs(m), 2.0 ** -126)


def _fdiv(a, b):
    """Halide's integer division: rounds down for b > 0, up for b < 0 (the remainder is never negative)."""
    q = a // b
    if a - q * b < 0:
        q += 1
    return q


def _fit(e, lo, hi, err, problems, what):
    """lo, hi, err of an integer result: a signed result outside the type is a problem, an unsigned one wraps."""
    tlo, thi = trange(e.t)
    if lo >= tlo and hi <= thi:
        return lo, hi, err
    if signed(e.t):
        problems.append("signed overflow in %s (%s: [%d, %d])" % (what, e.t, lo, hi))
        return max(lo, tlo), min(hi, thi), err
    return tlo, thi, (INF if err else 0)


def _corners(f, a, b):
    vs = [f(x, y) for x in (a.lo, a.hi) for y in (b.lo, b.hi)]
    return min(vs), max(vs)


def analyze(e, env, problems, fresh_only=False):
    """Sets e.lo, e.hi, e.err for e and every node below it. env(node) gives (lo, hi, err) of a load,
    gather, lut, total or param node's source. Problems (undefined behaviour) are appended as text.
    fresh_only: subtrees analysed before are taken as they are (the sampler builds bottom up)."""
    for k in e.args:
        if not (fresh_only and k.lo is not None):
            analyze(k, env, problems, fresh_only)
    settle(e, env, problems)
    return e


def settle(e, env, problems):
    """e's lo, hi, err from its children's (already analysed)."""
    e.lo, e.hi, e.err = _node(e, env, problems)
    if isf(e.t) and (abs(e.lo) > FLIMIT or abs(e.hi) > FLIMIT):
        problems.append("float magnitude above %g" % FLIMIT)
    if e.err != e.err:
        e.err = INF
    return problems


def _node(e, env, problems):
    op, a, t = e.op, e.a, e.t
    args = e.args
    if op == "const":
        return a["v"], a["v"], 0
    if op == "coord":
        return 0, a["mod"] - 1, 0
    if op in ("load", "total", "param"):
        return env(e)
    if op in ("gather", "lut"):
        i = args[0]
        if i.err:
            problems.append("index from an inexact value")
        if op == "gather" and not (-(1 << 31) <= i.lo and i.hi < (1 << 31)):
            problems.append("gather index beyond int32")
        return env(e)
    if op == "cmp":
        if args[0].err or args[1].err:
            problems.append("condition on an inexact value")
        return 0, 1, 0
    if op == "select":
        if args[0].err:
            problems.append("condition on an inexact value")
        return min(args[1].lo, args[2].lo), max(args[1].hi, args[2].hi), max(args[1].err, args[2].err)
    if op == "clamp":
        lo, hi = a["lo"], a["hi"]
        x = args[0]
        return min(max(x.lo, lo), hi), min(max(x.hi, lo), hi), x.err
    if op in ("cast", "satcast"):
        return _cast(e, args[0], op == "satcast", problems)
    if op == "un":
        return (_funary if isf(t) else _iunary)(e, args[0], problems)
    if op == "rshr":
        x, k = args[0], a["k"]
        q = lambda v: (v + (1 << (k - 1))) >> k
        lo, hi = trange(t)
        return max(q(x.lo), lo), min(q(x.hi), hi), (x.err / (1 << k) + 1 if x.err else 0)
    if op == "bin":
        return (_fbin if isf(t) else _ibin)(e, a["fn"], args[0], args[1], problems)
    raise ValueError("unknown node %s" % op)


def _cast(e, x, sat, problems):
    t = e.t
    if isf(t):
        if isf(x.t):
            extra = _ulp(t, max(abs(x.lo), abs(x.hi))) if MANT[t] < MANT[x.t] else 0
            return float(x.lo), float(x.hi), x.err + extra
        m = max(abs(x.lo), abs(x.hi))
        extra = 0 if m <= 2 ** MANT[t] and not x.err else _ulp(t, m)
        return float(x.lo), float(x.hi), x.err + extra
    tlo, thi = trange(t)
    if isf(x.t):
        lo, hi = math.trunc(x.lo), math.trunc(x.hi)
        err = 0 if not x.err else math.floor(x.err) + 1
        if sat:
            return min(max(lo, tlo), thi), min(max(hi, tlo), thi), err
        if x.lo <= tlo - 1 or x.hi >= thi + 1:
            problems.append("float->%s cast out of range [%g, %g]" % (t, x.lo, x.hi))
        return max(lo, tlo), min(hi, thi), err
    if sat:
        return min(max(x.lo, tlo), thi), min(max(x.hi, tlo), thi), x.err
    if x.lo >= tlo and x.hi <= thi:
        return x.lo, x.hi, x.err
    return tlo, thi, (INF if x.err else 0)   # an integer cast that truncates: defined, any value


def _iunary(e, x, problems):
    fn = e.a["fn"]
    if fn == "abs":     # Halide's abs of a signed integer is the unsigned type of its width
        lo = 0 if x.lo <= 0 <= x.hi else min(abs(x.lo), abs(x.hi))
        return lo, max(abs(x.lo), abs(x.hi)), x.err
    if fn == "neg":
        return _fit(e, -x.hi, -x.lo, x.err, problems, "negation")
    problems.append("%s of an integer" % fn)
    return x.lo, x.hi, x.err


def _ibin(e, fn, x, y, problems):
    t = e.t
    tlo, thi = trange(t)
    ex, ey = x.err, y.err
    if fn in ("add", "sub", "mul"):
        f = {"add": lambda p, q: p + q, "sub": lambda p, q: p - q, "mul": lambda p, q: p * q}[fn]
        lo, hi = _corners(f, x, y)
        ax, ay = max(abs(x.lo), abs(x.hi)), max(abs(y.lo), abs(y.hi))
        err = ex + ey if fn != "mul" else ax * ey + ay * ex + ex * ey
        return _fit(e, lo, hi, err, problems, fn)
    if fn == "wmul":
        lo, hi = _corners(lambda p, q: p * q, x, y)
        ax, ay = max(abs(x.lo), abs(x.hi)), max(abs(y.lo), abs(y.hi))
        return lo, hi, ax * ey + ay * ex + ex * ey
    if fn in ("div", "mod"):
        if y.lo <= 0 <= y.hi:
            problems.append("%s by a divisor that can be 0 ([%d, %d])" % (fn, y.lo, y.hi))
            return tlo, thi, INF
        if fn == "mod":
            return 0, max(abs(y.lo), abs(y.hi)) - 1, (INF if ex or ey else 0)
        # monotone in each operand while the divisor keeps its sign: the corners bound it
        qs = [_fdiv(p, q) for p in (x.lo, x.hi) for q in (y.lo, y.hi)]
        err = INF if ey else (ex / min(abs(y.lo), abs(y.hi)) + 1 if ex else 0)
        return _fit(e, min(qs), max(qs), err, problems, "division")
    if fn in ("min", "max"):
        f = min if fn == "min" else max
        return f(x.lo, y.lo), f(x.hi, y.hi), max(ex, ey)
    if fn in ("and", "or", "xor"):
        err = INF if ex or ey else 0
        if x.lo < 0 or y.lo < 0:
            return tlo, thi, err
        if fn == "and":
            return 0, min(x.hi, y.hi), err
        return 0, (1 << max(x.hi, y.hi).bit_length()) - 1, err
    if fn == "absd":
        lo = max(0, x.lo - y.hi, y.lo - x.hi)
        return lo, max(x.hi - y.lo, y.hi - x.lo), ex + ey
    if fn in ("sat_add", "sat_sub"):
        f = (lambda p, q: p + q) if fn == "sat_add" else (lambda p, q: p - q)
        lo, hi = _corners(f, x, y)
        return min(max(lo, tlo), thi), min(max(hi, tlo), thi), ex + ey
    if fn in ("hadd", "rhadd"):
        r = 1 if fn == "rhadd" else 0
        return (x.lo + y.lo + r) // 2, (x.hi + y.hi + r) // 2, ((ex + ey) / 2 + 1 if ex or ey else 0)
    if fn in ("shl", "shr"):
        if y.err or y.lo < 0 or y.hi >= bits(t):
            problems.append("shift by an amount outside [0, %d) ([%s, %s])" % (bits(t), y.lo, y.hi))
            return tlo, thi, INF
        if fn == "shl":
            lo, hi = _corners(lambda p, q: p * (1 << q), x, y)
            return _fit(e, lo, hi, ex * (1 << y.hi), problems, "left shift")
        lo, hi = _corners(lambda p, q: p >> q, x, y)
        return lo, hi, (ex / (1 << y.lo) + 1 if ex else 0)
    raise ValueError("unknown integer operator %s" % fn)


def _fbin(e, fn, x, y, problems):
    t = e.t
    ex, ey = x.err, y.err
    ax, ay = max(abs(x.lo), abs(x.hi)), max(abs(y.lo), abs(y.hi))
    if fn in ("add", "sub", "mul"):
        f = {"add": lambda p, q: p + q, "sub": lambda p, q: p - q, "mul": lambda p, q: p * q}[fn]
        lo, hi = _corners(f, x, y)
        err = ex + ey if fn != "mul" else ax * ey + ay * ex + ex * ey
        return lo, hi, err + 2 * _ulp(t, max(abs(lo), abs(hi)))
    if fn == "div":
        if y.lo <= 0.25 and y.hi >= -0.25:
            problems.append("float division by a divisor near 0 ([%g, %g])" % (y.lo, y.hi))
            return -FLIMIT, FLIMIT, INF
        lo, hi = _corners(lambda p, q: p / q, x, y)
        r, d = max(abs(lo), abs(hi)), min(abs(y.lo), abs(y.hi))
        return lo, hi, (ex + r * ey) / d + 4 * _ulp(t, r)
    if fn in ("min", "max"):
        f = min if fn == "min" else max
        return f(x.lo, y.lo), f(x.hi, y.hi), max(ex, ey)
    problems.append("%s of a float" % fn)
    return x.lo, x.hi, INF


def _funary(e, x, problems):
    t, fn = e.t, e.a["fn"]
    m = max(abs(x.lo), abs(x.hi))
    if fn == "abs":
        return (0.0 if x.lo <= 0 <= x.hi else min(abs(x.lo), abs(x.hi))), m, x.err
    if fn == "neg":
        return -x.hi, -x.lo, x.err
    if fn == "floor":
        return math.floor(x.lo), math.floor(x.hi), (x.err + 1 if x.err else 0)
    if fn == "sqrt":
        if x.lo < 0:
            problems.append("sqrt of a possibly negative value")
            return 0.0, math.sqrt(m), INF
        lo, hi = math.sqrt(x.lo), math.sqrt(x.hi)
        lin = x.err / (2 * lo) if lo > 0 else INF
        return lo, hi, min(lin, math.sqrt(x.err)) + 4 * _ulp(t, hi)
    if t != "float32":
        problems.append("%s of %s (Vulkan's GLSL.std.450 has it for 16- and 32-bit floats only)" % (fn, t))
    if fn == "exp":
        if x.hi > 10:
            problems.append("exp of a value above 10")
            return 0.0, FLIMIT, INF
        hi = math.exp(x.hi)
        return math.exp(x.lo), hi, hi * x.err * (1 + x.err) + (3 + 2 * m) * _ulp(t, hi)
    if fn == "sin":
        if m > 3.1:
            problems.append("sin of a value outside [-3.1, 3.1] (Vulkan bounds its error only on [-pi, pi])")
        return -1.0, 1.0, x.err + 2.0 ** -11
    raise ValueError("unknown float function %s" % fn)
