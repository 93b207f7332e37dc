"""Smaller versions of a diverging pipeline, for `explore`'s shrinker: fewer outputs, fewer stages (a map
inlined into its readers, which keeps every value; a stage read as a new input of its type and range), fewer
inputs and parameters, smaller expressions (a subexpression replaced by an operand, a constant, or a new input
of its type and range, so that the operation above it still sees the same kind of values), smaller sizes,
and a simpler schedule on the diverging profile (each field of each stage's Sched back towards the cpu oracle's: at the root, no vectors, no
unrolling, smaller tiles, no shared memory, nothing atomic).

candidates(p, profile) lists them cheapest first (cost(): stages, then outputs, expression nodes, schedule
fields, elements); every one is defined (explore_model.check) and has a schedule Halide accepts
(sched_problems), so any that still diverges the same way is a smaller reproducer. The explore loop builds
a round of them at once and keeps the cheapest that still diverges.
"""

import hashlib
import math

from . import explore_cpp, explore_sched
from . import explore_expr as ex
from .explore_expr import X
from .explore_model import Input, Sched, check, reads, tolerance
from .explore_sample import prune

MAX_THREADS = 256  # explore's default --max-threads: no candidate needs a larger work-group
FILLABLE = 2**53  # an input's fill range is two doubles: integers beyond this are not exact


def cost(p, profile):
    nodes = sum(s.expr.size() for s in p.stages if s.expr is not None)
    fields = sum(len(c.features()) for c in p.sched.get(profile, {}).values())
    return (
        len(p.stages) * 1000
        + len(p.outputs()) * 200
        + len(p.inputs) * 50
        + len(p.params) * 50
        + nodes * 10
        + fields * 5
        + int(math.log2(max(1, _elements(p))))
    )


def _elements(p):
    n = 1
    for e in p.size:
        n *= e
    return n


def named(p, base):
    """p named after the hash of what it is (the same candidate gets the same name, and its build is reused)."""
    q = p.copy("explorecand")
    text = explore_cpp.generator_source(q) + explore_cpp.spec(q)
    q.name = "%s_%s" % (base, hashlib.sha1(text.encode()).hexdigest()[:8])
    return q


def sched_problems(p, profile):
    """Schedule combinations Halide refuses (a producer at a consumer's loops the consumer does not have)."""
    out = []
    sc = p.sched[profile]
    for s in p.stages:
        c = sc[s.name]
        if c.where in ("block", "thread", "at"):
            cons = [q for q in p.stages if s.name in reads(q)]
            if len(cons) != 1 or cons[0].name != c.at or cons[0].kind != "map" or sc[c.at].where != "root":
                out.append(
                    "%s computed at %s, which is not its only element-wise consumer at the root" % (s.name, c.at)
                )
            elif c.where in ("block", "thread") and not sc[c.at].gpu:
                out.append("%s at %s's GPU loops, but %s is not on the GPU" % (s.name, c.at, c.at))
            elif c.where == "block" and explore_sched.block_threads(p, s.name, sc[c.at], c.vec) > MAX_THREADS:
                out.append("%s at %s's block: more than %d threads" % (s.name, c.at, MAX_THREADS))
            if c.store == "root" and sc[c.at].par:
                out.append("%s stored outside its consumer's parallel loop" % s.name)
            if c.store == "strip" and not (sc[c.at].par and sc[c.at].strip):
                out.append("%s stored per strip of a consumer without strips" % s.name)
        if c.where == "inline" and (s.output or s.kind != "map"):
            out.append("%s cannot be inlined" % s.name)
    return out


def _valid(p, profile):
    return not check(p) and tolerance(p) is not None and not sched_problems(p, profile)


def candidates(p, profile, base):
    """[(what, pipeline)] smaller than p, defined, cheapest first."""
    out, seen = [], set()
    check(p)  # every node's interval (a copy forgets them): a cut gives its new input the cut node's range
    for what, q in _moves(p, profile):
        prune(q)
        for prof in q.sched:
            for name in list(q.sched[prof]):
                if not any(s.name == name for s in q.stages):
                    del q.sched[prof][name]
        if not _valid(q, profile):
            continue
        q = named(q, base)
        if q.name in seen:
            continue
        seen.add(q.name)
        out.append((cost(q, profile), len(out), what, q))
    out.sort(key=lambda t: (t[0], t[1]))
    return [(what, q) for c, _, what, q in out if c < cost(p, profile)]


def _moves(p, profile):
    for o in p.outputs():
        if len(p.outputs()) > 1:
            q = p.copy()
            q.stage(o.name).output = False
            yield "drop output %s" % o.name, q
    for s in p.stages:
        if _inlinable(p, s):
            yield "inline %s into its readers" % s.name, _inline(p, s)
        if not s.output and s.kind in ("map", "conv") and s.dims == p.dims and _fillable(s.t, *p.bounds[s.name][:2]):
            yield "%s as an input" % s.name, _as_input(p, s.name, s.t, *p.bounds[s.name][:2])
        if not s.output and not any(c.kind == "cdf" and c.src == s.name for c in p.stages):
            yield "bypass stage %s" % s.name, _bypass(p, s.name)
    for i in p.inputs[1:]:
        yield "read %s instead of %s" % (p.inputs[0].name, i.name), _replace_input(p, i.name)
    for q_ in p.params:
        yield "parameter %s as a constant" % q_.name, _const_param(p, q_)
    for s in p.stages:
        if s.kind == "conv":
            yield from _conv_moves(p, s)
        if s.expr is not None:
            yield from _expr_moves(p, s)
    for k in range(len(p.size) if p.dims < 3 else 2):
        if p.size[k] > 1:
            q = p.copy()
            q.size[k] = max(1, p.size[k] // 2)
            yield "size %s" % "x".join(map(str, q.size)), q
    yield from _sched_moves(p, profile)


def _replace_nodes(p, pred, make):
    """A copy of p whose expression nodes matching pred are replaced by make(node)."""
    q = p.copy()
    for s in q.stages:
        if s.expr is not None:
            s.expr = _subst(s.expr, pred, make)
    return q


def _subst(e, pred, make):
    if pred(e):
        return make(e)
    e.args = [_subst(k, pred, make) for k in e.args]
    return e


def _bypass(p, name):
    st = p.stage(name)
    first = p.inputs[0]

    def make(n):
        if n.op == "load":
            a = {k: v for k, v in n.a.items() if k != "src"}
            return ex.cast(st.t, X("load", first.t, src=first.name, **a))
        if n.op == "lut":
            return ex.cast(st.t, n.args[0])
        return ex.const(st.t, 1)

    q = _replace_nodes(p, lambda n: n.a.get("src") == name, make)
    for s in q.stages:
        if s.src == name:
            s.src = first.name
    return q


def _fillable(t, lo, hi):
    return t != "bool" and max(abs(lo), abs(hi)) <= (ex.FLIMIT if ex.isf(t) else FILLABLE)


def _new_input(q, t, lo, hi):
    used = {i.name for i in q.inputs}
    name = next("in%d" % k for k in range(len(used) + 1) if "in%d" % k not in used)
    q.inputs.append(Input(name=name, t=t, lo=lo if ex.isf(t) else int(lo), hi=hi if ex.isf(t) else int(hi)))
    return name


def _as_input(p, stage, t, lo, hi):
    """Every read of `stage` reads a new input of its type and range instead (at the same offsets)."""
    q = p.copy()
    name = _new_input(q, t, lo, hi)
    q = _replace_nodes(
        q,
        lambda n: n.op == "load" and n.a.get("src") == stage,
        lambda n: X("load", n.t, src=name, **{k: v for k, v in n.a.items() if k != "src"}),
    )
    for s in q.stages:
        if s.src == stage:
            s.src = name
    return q


def _cut(p, stage, index, node):
    """Node `index` of stage's expression replaced by a read of a new input of the node's type and range."""
    q = p.copy()
    name = _new_input(q, node.t, node.lo, node.hi)
    st = q.stage(stage)
    target = st.expr.nodes()[index]
    st.expr = _subst(st.expr, lambda n: n is target, lambda n: X("load", node.t, src=name))
    return q


def _centre_loads(p, name):
    return [n for s in p.stages if s.expr is not None for n in s.expr.nodes() if n.a.get("src") == name]


def _inlinable(p, s):
    """A map whose every reader reads it at the centre: its expression can replace the reads (same values)."""
    if s.output or s.kind != "map" or s.dims != p.dims or any(c.src == s.name for c in p.stages):
        return False
    loads = _centre_loads(p, s.name)
    return bool(loads) and all(
        n.op == "load"
        and not (n.a.get("dx") or n.a.get("dy") or n.a.get("scale") or n.a.get("at"))
        and n.a.get("ch") is None
        for n in loads
    )


def _inline(p, s):
    return _replace_nodes(
        p, lambda n: n.op == "load" and n.a.get("src") == s.name, lambda n: ex.cast(n.t, s.expr.copy())
    )


def _replace_input(p, name):
    first = p.inputs[0]

    def make(n):
        a = dict(n.a)
        a["src"] = first.name
        return ex.cast(n.t, X(n.op, first.t, n.args, **a))

    q = _replace_nodes(p, lambda n: n.a.get("src") == name and n.op in ("load", "gather"), make)
    for s in q.stages:
        if s.src == name:
            s.src = first.name
    return q


def _const_param(p, param):
    def make(n):
        if param.t == "bool":
            return X("cmp", "bool", [ex.const("int32", int(bool(param.value))), ex.const("int32", 0)], fn="ne")
        return ex.const(param.t, param.value)

    return _replace_nodes(p, lambda n: n.op == "param" and n.a["name"] == param.name, make)


def _conv_moves(p, s):
    rx, ry = s.radius
    for r in ((rx - 1, ry), (rx, ry - 1)):
        if min(r) >= 0 and r != (rx, ry) and r[0] >= 1:
            q = p.copy()
            q.stage(s.name).radius = r
            yield "radius %s of %s" % (r, s.name), q
    q = p.copy()
    st = q.stage(s.name)
    st.kind, st.src = "map", ""
    st.expr = _subst(
        st.expr, lambda n: n.op == "load" and n.a.get("at") == "rdom", lambda n: X("load", n.t, src=n.a["src"])
    )
    yield "%s as an element-wise map" % s.name, q


def _expr_moves(p, s):
    nodes = s.expr.nodes()
    for i, n in enumerate(nodes):
        if (
            i > 0
            and s.kind in ("map", "conv")
            and n.op not in ("const", "coord", "param", "load")
            and n.t != "bool"
            and n.lo is not None
            and _fillable(n.t, n.lo, n.hi)
        ):
            # the operation above it sees values of the same type and range, from data instead of arithmetic
            yield "%s: %s as an input" % (s.name, n.op), _cut(p, s.name, i, n)
        if n.op in ("const", "coord", "param") or (
            n.op == "load"
            and not n.a.get("dx")
            and not n.a.get("dy")
            and not n.a.get("scale")
            and n.a.get("ch") is None
        ):
            continue
        for k, child in enumerate(n.args):
            if child.t == "bool":
                continue
            yield (
                "%s: %s -> its operand %d" % (s.name, n.op, k),
                _at(p, s.name, i, lambda c=child, t=n.t: ex.cast(t, c.copy())),
            )
        if n.op == "load":
            yield (
                "%s: load at the centre" % s.name,
                _at(
                    p,
                    s.name,
                    i,
                    lambda n=n: X("load", n.t, src=n.a["src"], **{k: v for k, v in n.a.items() if k in ("at", "ry")}),
                ),
            )
        if i > 0 and n.t != "bool" and not (n.op == "load" and n.a.get("at")):
            yield "%s: %s -> 1" % (s.name, n.op), _at(p, s.name, i, lambda t=n.t: ex.const(t, 1))


def _at(p, stage, index, make):
    q = p.copy()
    st = q.stage(stage)
    target = st.expr.nodes()[index]
    st.expr = _subst(st.expr, lambda n: n is target, lambda n: make())
    return q


def _sched_moves(p, profile):
    sc = p.sched.get(profile, {})
    dims = p.dims
    for s in p.stages:
        c = sc.get(s.name)
        if c is None:
            continue
        on_gpu = any(v.gpu or v.single or v.ugpu for v in sc.values())
        root = _default_tile(s, dims) if on_gpu and c.where in ("block", "thread", "inline") else c.gpu
        if c.where in ("block", "thread", "inline", "at"):
            if c.where == "inline" and not on_gpu:
                root = ()
            yield (
                "%s at the root" % s.name,
                _with(p, profile, s.name, where="root", at="", gpu=root, vec=0, shared=False, cinner=False, store=""),
            )
        for f in (
            "vec",
            "uvec",
            "unroll",
            "tail",
            "cinner",
            "shared",
            "uatomic",
            "usingle",
            "single",
            "par",
            "strip",
            "store",
            "ugpu",
        ):
            v = getattr(c, f)
            if v in ("", 0, (), False) or (f == "gpu"):
                continue
            kw = {f: type(v)()}
            if f == "uatomic":
                kw["ugpu"] = ()
            if f == "par":
                kw["strip"] = 0
            yield "%s: no %s" % (s.name, f), _with(p, profile, s.name, **kw)
        if c.gpu and c.gpu != (0,):
            for k in range(len(c.gpu)):
                if c.gpu[k] > 1:
                    t = list(c.gpu)
                    t[k] //= 2
                    yield "%s: tile %s" % (s.name, tuple(t)), _with(p, profile, s.name, gpu=tuple(t))


def _default_tile(s, dims):
    return (16,) if s.kind in ("hist", "cdf", "lutmap") or dims == 1 else (8, 8)


def _with(p, profile, name, **kw):
    q = p.copy()
    c = q.sched[profile][name]
    for k, v in kw.items():
        setattr(c, k, v)
    if kw.get("where") == "root":
        for other in q.sched[profile].values():  # producers computed at this one go to the root too
            if other.at == name:
                other.where, other.at, other.gpu = "root", "", c.gpu
    return q


def only_profile(p, profile):
    """A copy of p with the cpu oracle's schedule and `profile`'s only (what a shrink candidate builds)."""
    q = p.copy()
    q.sched = {"cpu": {s.name: Sched() for s in q.stages}, profile: q.sched[profile]}
    return q
