"""The interval and error analysis of explore's expressions (explore_expr.py): each node's value range and
worst error bound, settled so that no int overflows, no float leaves its range and every division is safe,
what the model (explore_model.py) and the sampler (explore_sample.py) reason with."""

import math

from .explore_expr import EPS, FLIMIT, INF, MANT, bits, isf, signed, trange


# ---- intervals and errors ---------------------------------------------------------------------------
def ulp(t, m):
    return EPS[t] * max(abs(m), 2.0**-126)


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
            extra = ulp(t, max(abs(x.lo), abs(x.hi))) if MANT[t] < MANT[x.t] else 0
            return float(x.lo), float(x.hi), x.err + extra
        m = max(abs(x.lo), abs(x.hi))
        extra = 0 if m <= 2 ** MANT[t] and not x.err else ulp(t, m)
        return float(x.lo), float(x.hi), x.err + extra
    tlo, thi = trange(t)
    if isf(x.t):
        if not (math.isfinite(x.lo) and math.isfinite(x.hi) and math.isfinite(x.err)):
            problems.append("float->%s cast of a value without a finite bound" % t)
            return tlo, thi, INF
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
    return tlo, thi, (INF if x.err else 0)  # an integer cast that truncates: defined, any value


def _iunary(e, x, problems):
    fn = e.a["fn"]
    if fn == "abs":  # Halide's abs of a signed integer is the unsigned type of its width
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
        return lo, hi, err + 2 * ulp(t, max(abs(lo), abs(hi)))
    if fn == "div":
        if y.lo <= 0.25 and y.hi >= -0.25:
            problems.append("float division by a divisor near 0 ([%g, %g])" % (y.lo, y.hi))
            return -FLIMIT, FLIMIT, INF
        lo, hi = _corners(lambda p, q: p / q, x, y)
        r, d = max(abs(lo), abs(hi)), min(abs(y.lo), abs(y.hi))
        return lo, hi, (ex + r * ey) / d + 4 * ulp(t, r)
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
        return lo, hi, min(lin, math.sqrt(x.err)) + 4 * ulp(t, hi)
    if t != "float32":
        problems.append("%s of %s (Vulkan's GLSL.std.450 has it for 16- and 32-bit floats only)" % (fn, t))
    if fn == "exp":
        if x.hi > 10:
            problems.append("exp of a value above 10")
            return 0.0, FLIMIT, INF
        hi = math.exp(x.hi)
        return math.exp(x.lo), hi, hi * x.err * (1 + x.err) + (3 + 2 * m) * ulp(t, hi)
    if fn == "sin":
        if m > 3.1:
            problems.append("sin of a value outside [-3.1, 3.1] (Vulkan bounds its error only on [-pi, pi])")
        return -1.0, 1.0, x.err + 2.0**-11
    raise ValueError("unknown float function %s" % fn)
