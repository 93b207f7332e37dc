"""How much of `explore`'s grammar a set of pipelines covers: each operation on each type it applies to,
each conversion's target, each way of reading a source, stage kind, boundary condition, rank, several
outputs, and each schedule feature of a GPU and a host profile on each stage kind. universe() lists every
feature the sampler can make; coverage() counts those a set of pipelines has.
"""

from . import explore_expr as ex
from . import explore_sched
from .explore_expr import FLOATS, INTS
from .explore_model import KINDS
from ..genfuzz.genfuzz_model import BOUNDARY

INT_BIN = [
    "add",
    "sub",
    "mul",
    "div",
    "mod",
    "min",
    "max",
    "and",
    "or",
    "xor",
    "sat_add",
    "sat_sub",
    "hadd",
    "rhadd",
    "shl",
    "shr",
]
FLOAT_BIN = ["add", "sub", "mul", "div", "min", "max"]
READS = [
    "load",
    "load:offset",
    "load:down",
    "load:up",
    "load:channel",
    "load:rdom",
    "load:whole",
    "gather",
    "lut",
    "total",
    "coord",
]
GPU_SCHED = {
    "map": [
        "gpu",
        "vec=2",
        "vec=4",
        "vec=8",
        "vec=16",
        "unroll=2",
        "unroll=4",
        "cinner",
        "tail",
        "inline",
        "block",
        "block:shared",
        "thread",
        "host",
    ],
    "conv": ["gpu", "vec=4", "unroll=2", "ugpu", "uvec=2", "uvec=4", "host-init"],
    "hist": ["gpu", "usingle", "uatomic", "host"],
    "cdf": ["gpu", "usingle", "host"],
    "lutmap": ["gpu", "vec=4", "host"],
    "total": ["single", "usingle", "host"],
}
HOST_SCHED = {
    "map": [
        "vec=2",
        "vec=3",
        "vec=4",
        "vec=5",
        "vec=8",
        "vec=16",
        "tail",
        "par",
        "strip",
        "unroll=2",
        "unroll=3",
        "unroll=4",
        "inline",
        "at",
        "at:store=root",
        "at:store=strip",
    ],
    "conv": ["vec=4", "par", "uvec=4", "uvec=8"],
    "lutmap": ["vec=4"],
}


def universe():
    u = {"bin.%s:%s" % (f, t) for f in INT_BIN for t in INTS}
    u |= {"bin.wmul:%s" % t for t in INTS if ex.bits(t) >= 16}
    u |= {"bin.absd:%s" % t for t in INTS if not ex.signed(t)}
    u |= {"bin.%s:%s" % (f, t) for f in FLOAT_BIN for t in FLOATS}
    u |= {"rshr:%s" % t for t in INTS} | {"cmp.%s" % f for f in ex.CMPS}
    u |= {"un.abs:%s" % t for t in INTS if not ex.signed(t)} | {"un.neg:%s" % t for t in INTS if ex.signed(t)}
    u |= {"un.%s:%s" % (f, t) for f in ("abs", "neg", "sqrt", "floor") for t in FLOATS}
    u |= {"un.exp:float32", "un.sin:float32"}
    u |= {"%s:%s" % (op, t) for op in ("select", "clamp", "cast") for t in INTS + FLOATS}
    u |= (
        {"satcast:%s" % t for t in INTS}
        | set(READS)
        | {"param:%s" % t for t in ("uint8", "int16", "int32", "float32", "bool")}
    )
    u |= {"stage:" + k for k in KINDS} | {"bc:" + b for b in BOUNDARY} | {"dims:%d" % d for d in (1, 2, 3)}
    u |= {"outputs:several", "output:int", "output:float"}
    u |= {"gpu:%s:%s" % (k, f) for k, fs in GPU_SCHED.items() for f in fs}
    u |= {"host:%s:%s" % (k, f) for k, fs in HOST_SCHED.items() for f in fs}
    return u


def features(p, profiles, runtimes):
    out = {"dims:%d" % p.dims} | {"bc:" + i.bc for i in p.inputs}
    if len(p.outputs()) > 1:
        out.add("outputs:several")
    out |= {"output:float" if ex.isf(s.t) else "output:int" for s in p.outputs()}
    for s in p.stages:
        out.add("stage:" + s.kind)
        for n in s.expr.nodes() if s.expr is not None else []:
            out |= _node(n)
    for prof in profiles:
        kind = explore_sched.flavour(prof, runtimes.get(prof, "none"))
        if kind in ("gpu", "host") and prof in p.sched:
            out |= {"%s:%s" % (kind, f) for f in _sched(p, p.sched[prof], kind)}
    return out


def _node(n):
    op, a = n.op, n.a
    if op in ("bin", "un"):
        return {"%s.%s:%s" % (op, a["fn"], n.t)}
    if op == "cmp":
        return {"cmp.%s" % a["fn"]}
    if op in ("select", "clamp", "cast", "satcast", "rshr"):
        return {"%s:%s" % (op, n.t)}
    if op == "param":
        return {"param:%s" % n.t}
    if op == "load":
        f = {"load"}
        f |= {"load:offset"} if a.get("dx") or a.get("dy") else set()
        f |= {"load:%s" % a["scale"]} if a.get("scale") else set()
        f |= {"load:channel"} if a.get("ch") is not None else set()
        f |= {"load:%s" % a["at"]} if a.get("at") else set()
        return f
    if op in ("gather", "lut", "total", "coord"):
        return {op}
    return set()


def _sched(p, scheds, kind):
    out = set()
    for s in p.stages:
        c = scheds[s.name]
        k = s.kind
        if c.where == "inline":
            out.add("%s:inline" % k)
        elif c.where in ("block", "thread"):
            out.add("%s:%s%s" % (k, c.where, ":shared" if c.shared else ""))
        elif c.where == "at":
            out.add("%s:at%s" % (k, ":store=%s" % c.store if c.store else ""))
        if kind == "gpu" and c.where == "root":
            if not (c.gpu or c.single):
                out.add("%s:%s" % (k, "host-init" if k == "conv" and c.ugpu else "host"))
            out |= {"%s:gpu" % k} if c.gpu else set()
        for f in ("vec", "uvec", "unroll"):
            if getattr(c, f):
                out.add("%s:%s=%d" % (k, f, getattr(c, f)))
        for f in ("cinner", "tail", "par", "strip", "ugpu", "usingle", "uatomic", "single"):
            if getattr(c, f):
                out.add("%s:%s" % (k, f))
    return out


def coverage(pipelines, profiles, runtimes):
    u = universe()
    seen = set()
    for p in pipelines:
        seen |= features(p, profiles, runtimes)
    flavours = {explore_sched.flavour(q, runtimes.get(q, "none")) for q in profiles}
    u = {
        f
        for f in u
        if not (f.startswith("gpu:") and "gpu" not in flavours)
        and not (f.startswith("host:") and "host" not in flavours)
    }
    hit = seen & u
    return {
        "features": len(u),
        "covered": len(hit),
        "fraction": round(len(hit) / len(u), 4) if u else 0.0,
        "missing": sorted(u - hit)[:60],
    }
