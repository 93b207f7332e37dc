"""Random valid schedules for `explore`'s pipelines, one per profile, and their Halide C++.

The cpu profile (the oracle, whose output is the golden) computes every stage at the root, serially.
A GPU profile (opencl*, cuda, vulkan*) tiles each root stage onto blocks and threads (tiles of 1-64 x
1-16, at most `max_threads` threads), with in-kernel vectors of 2-16 lanes, unrolled rows, the channel
loop inside each thread or outside the kernels; inlines stages, computes a producer at its consumer's
block (its loops on the block's threads, in shared memory) or inside each thread; leaves some stages on
the host (copies both ways); runs an RDom update on a tile (convolutions), on one GPU thread, on the host
or as atomic adds (histograms; not on Vulkan, whose Halide 21 backend has no atomics). The host profile
vectorizes (2-16 lanes, tail strategies), parallelizes over rows or strips, unrolls, and computes
producers per row with storage at the root or per strip (sliding windows).

Only combinations Halide accepts are sampled: a producer goes to its consumer's loops only when it is an
element-wise stage with that one consumer, itself element-wise and scheduled at the root (the loop names
exist); a loop between GPU block and thread loops is never made; the parallel loop is never inside storage
that outlives it. A schedule is data (explore_model.Sched), so the shrinker can simplify it field by field.
"""

from .explore_model import Sched, TABLES, reads

GPU_RUNTIMES = ("opencl", "cuda", "vulkan")


def flavour(profile, runtime):
    """cpu (the oracle), host or gpu."""
    if profile == "cpu":
        return "cpu"
    return "gpu" if runtime in GPU_RUNTIMES else "host"


def sample(p, profile, runtime, rng, max_threads=256):
    """{stage: Sched} for p on profile (consumers decided before their producers)."""
    kind = flavour(profile, runtime)
    out = {}
    if kind == "cpu":
        return {s.name: Sched() for s in p.stages}
    for s in reversed(p.stages):
        out[s.name] = (_gpu if kind == "gpu" else _host)(p, s, out, rng, max_threads, runtime)
    return {s.name: out[s.name] for s in p.stages}


def _sole_consumer(p, s, out):
    """The consumer a producer can be computed at: s's only consumer, element-wise, at the root."""
    cs = p.consumers(s.name)
    if s.kind != "map" or s.output or len(cs) != 1 or cs[0].kind != "map" or out[cs[0].name].where != "root":
        return None
    return cs[0]


def _tile(p, rng, max_threads, dims):
    if dims == 1:
        return (rng.choice([t for t in (8, 16, 32, 64, 128, 256) if t <= max_threads]),)
    while True:
        tx, ty = rng.choice([1, 2, 4, 8, 16, 32, 64]), rng.choice([1, 2, 4, 8, 16])
        if tx * ty <= max_threads:
            return (tx, ty)


def _gpu(p, s, out, rng, max_threads, runtime):
    c = Sched()
    cons = _sole_consumer(p, s, out)
    if s.kind == "map" and not s.output and s.name not in _table_like(p):
        r = rng.random()
        if r < 0.3:
            return Sched(where="inline")
        if cons is not None and out[cons.name].gpu and r < 0.6:
            c.at = cons.name
            if rng.random() < 0.6:
                c.where, c.shared = "block", rng.random() < 0.5
                c.gpu = (0,)  # its loops on the block's threads
                c.vec = rng.choice([0, 0, 2, 4])
                c.cinner = p.dims == 3
                if block_threads(p, s.name, out[cons.name], c.vec) > max_threads:
                    c = Sched(where="thread", at=cons.name)  # the consumer's tile and halo: too many threads
            else:
                c.where = "thread"
            return c
    if s.kind in ("hist", "cdf", "total"):
        if s.kind != "total" and rng.random() < 0.7:
            c.gpu = _tile(p, rng, max_threads, 1)
        elif s.kind == "total" and rng.random() < 0.6:
            c.single = True
        r = rng.random()
        if s.kind == "hist" and runtime != "vulkan" and r < 0.35:
            c.uatomic, c.ugpu = True, _tile(p, rng, max_threads, min(p.dims, 2))
        elif r < 0.7:
            c.usingle = True
        return c
    if s.kind == "lutmap":
        if rng.random() < 0.8:
            c.gpu = _tile(p, rng, max_threads, 1)
            c.vec = rng.choice([0, 0, 2, 4, 8])
        return c
    if not s.output and rng.random() < 0.1:
        return c  # computed on the host between GPU stages
    c.gpu = _tile(p, rng, max_threads, p.dims)
    c.tail = rng.choice(["", "", "GuardWithIf"])
    c.vec = rng.choice([0, 0, 0, 2, 4, 8, 16])
    c.unroll = rng.choice([0, 0, 0, 2, 4]) if p.dims >= 2 else 0
    c.cinner = p.dims == 3 and rng.random() < 0.5
    if s.kind == "conv":
        if rng.random() < 0.85:
            c.ugpu = c.gpu if rng.random() < 0.5 else _tile(p, rng, max_threads, p.dims)
            c.uvec = rng.choice([0, 0, 2, 4])
        if rng.random() < 0.1:
            c.gpu = ()  # the initialisation on the host, the sum on the GPU
    return c


def block_threads(p, name, cc, vec):
    """GPU threads of stage `name` computed at its consumer's block on the block's threads (its loops over the
    region the consumer's tile cc reads of it, vectorized by vec): the tile widened by the reads' offsets,
    doubled by a read at 2x."""
    cons = next(q for q in p.stages if name in reads(q))
    loads = [n for n in cons.expr.nodes() if n.op == "load" and n.a.get("src") == name]
    dx = max([abs(n.a.get("dx", 0)) for n in loads] + [0])
    dy = max([abs(n.a.get("dy", 0)) for n in loads] + [0])
    cols = cc.gpu[0] * max(cc.vec, 1) * (2 if any(n.a.get("scale") == "down" for n in loads) else 1) + 2 * dx + 1
    rows = cc.gpu[1] * max(cc.unroll, 1) + 2 * dy if len(cc.gpu) > 1 else 1
    return -(-cols // max(vec, 1)) * rows


def _table_like(p):
    return {s.name for s in p.stages if s.kind in TABLES}


def _host(p, s, out, rng, max_threads, runtime):
    c = Sched()
    cons = _sole_consumer(p, s, out)
    if s.kind == "map" and not s.output:
        r = rng.random()
        if r < 0.3:
            return Sched(where="inline")
        if cons is not None and p.dims >= 2 and r < 0.6:
            cc = out[cons.name]
            c.where, c.at = "at", cons.name
            c.vec = rng.choice([0, 4, 8, 3])
            if cc.strip and rng.random() < 0.5:
                c.store = "strip"
            elif not cc.par and rng.random() < 0.5:
                c.store = "root"
            return c
    if s.kind in ("hist", "cdf", "total"):
        return c
    c.vec = rng.choice([0, 2, 3, 4, 5, 8, 16])
    if c.vec:
        c.tail = rng.choice(["", "", "GuardWithIf", "Predicate"] + (["RoundUp"] if not s.output else []))
    if p.dims >= 2 and rng.random() < 0.6:
        c.par = True
        c.strip = rng.choice([0, 4, 8, 16])
    elif p.dims >= 2 and rng.random() < 0.3:
        c.unroll = rng.choice([2, 3, 4])
    if s.kind == "conv":
        c.uvec = rng.choice([0, 4, 8])
    return c


# ---- C++ ------------------------------------------------------------------------------------------------
def lines(p, scheds):
    """The C++ statements of one profile's schedule."""
    out = []
    for s in p.stages:
        out += _stage_lines(p, s, scheds[s.name], scheds)
    return out


def _stage_lines(p, s, c, scheds):
    f = s.name
    if c.where == "inline":
        return []
    if c.where == "block":
        first = "%s.compute_at(%s, xo)" % (f, c.at)
        if c.cinner:
            first += ".reorder(c, x, y)" if p.dims == 3 else ""
        if c.vec:
            first += ".split(x, x, xv, %d).vectorize(xv)" % c.vec
        first += ".gpu_threads(%s)" % ("x, y" if p.dims >= 2 else "x")
        if c.shared:
            first += ".store_in(MemoryType::GPUShared)"
        return [first + ";"]
    if c.where == "thread":
        return ["%s.compute_at(%s, xi);" % (f, c.at)]
    if c.where == "at":
        cc = scheds[c.at]
        loop = "yi" if cc.par and cc.strip else "y"
        line = "%s.compute_at(%s, %s)" % (f, c.at, loop)
        if c.store == "root":
            line += ".store_root()"
        elif c.store == "strip":
            line += ".store_at(%s, yo)" % c.at
        if c.vec:
            line += ".vectorize(x, %d)" % c.vec
        return [line + ";"]
    out = [] if s.output else ["%s.compute_root();" % f]
    dims = {"hist": 1, "cdf": 1, "lutmap": 1, "total": 0}.get(s.kind, p.dims)
    if c.gpu:
        out.append(f + _gpu_tile(dims, c.gpu, c.vec, c.unroll, c.cinner, c.tail) + ";")
    elif c.single:
        out.append("%s.gpu_single_thread();" % f)
    else:
        out += _host_lines(f, dims, c)
    if s.kind in ("conv", "hist", "cdf", "total"):
        u = "%s.update()" % f
        if c.uatomic:
            out.append(u + ".atomic()" + _rvar_tile(p, "r_" + f, c.ugpu) + ";")
        elif c.ugpu:
            out.append(u + _gpu_tile(dims, c.ugpu, c.uvec, 0, False) + ";")
        elif c.usingle:
            out.append(u + ".gpu_single_thread();")
        elif s.kind == "conv" and c.uvec:
            out.append(u + ".vectorize(x, %d)%s;" % (c.uvec, ".parallel(y)" if c.par and dims >= 2 else ""))
        elif len(out) > (0 if s.output else 1):
            out.append(u + ".unscheduled();")  # on purpose: the update runs serially (on the host)
    return out


def _gpu_tile(dims, tile, vec, unroll, cinner, tail=""):
    tail = ", TailStrategy::%s" % tail if tail else ""
    if dims == 1:
        t = tile[0]
        s = ".split(x, xo, xi, %d%s)" % (t * max(vec, 1), tail)
        if vec:
            s += ".split(xi, xi, xv, %d).reorder(xv, xi, xo).vectorize(xv)" % vec
        return s + ".gpu_blocks(xo).gpu_threads(xi)"
    tx, ty = tile
    s = ".split(x, xo, xi, %d%s).split(y, yo, yi, %d%s)" % (tx * max(vec, 1), tail, ty * max(unroll, 1), tail)
    inner = []
    if vec:
        s += ".split(xi, xi, xv, %d)" % vec
        inner.append("xv")
    if unroll:
        s += ".split(yi, yi, yu, %d)" % unroll
        inner.append("yu")
    if cinner and dims == 3:
        inner.append("c")
    s += ".reorder(%s)" % ", ".join(inner + ["xi", "yi", "xo", "yo"])
    if vec:
        s += ".vectorize(xv)"
    if unroll:
        s += ".unroll(yu)"
    return s + ".gpu_blocks(xo, yo).gpu_threads(xi, yi)"


def _rvar_tile(p, r, tile):
    if p.dims == 1 or len(tile) == 1:
        return ".split(%s.x, rxo, rxi, %d).gpu_blocks(rxo).gpu_threads(rxi)" % (r, tile[0])
    return (
        ".split(%s.x, rxo, rxi, %d).split(%s.y, ryo, ryi, %d).reorder(rxi, ryi, rxo, ryo)"
        ".gpu_blocks(rxo, ryo).gpu_threads(rxi, ryi)" % (r, tile[0], r, tile[1])
    )


def _host_lines(f, dims, c):
    out = []
    if dims >= 2 and c.par:
        if c.strip:
            out.append("%s.split(y, yo, yi, %d).parallel(yo);" % (f, c.strip))
        else:
            out.append("%s.parallel(y);" % f)
    elif dims >= 2 and c.unroll:
        out.append("%s.unroll(y, %d);" % (f, c.unroll))
    if c.vec and dims >= 1:
        tail = ", TailStrategy::%s" % c.tail if c.tail else ""
        out.append("%s.vectorize(x, %d%s);" % (f, c.vec, tail))
    return out


def features(p, profile, scheds):
    """The schedule features of one profile's schedule, for the grammar's coverage."""
    out = set()
    for s in p.stages:
        c = scheds[s.name]
        base = "%s:%s" % (profile, s.kind)
        if c.where != "root":
            out.add("%s:%s%s" % (profile, c.where, ":shared" if c.shared else ""))
        for k in sorted(c.features() - {"where", "at", "shared"}):
            v = getattr(c, k)
            if k in ("vec", "uvec", "unroll"):
                out.add("%s:%s=%d" % (base, k, v))
            elif k in ("gpu", "ugpu"):
                out.add("%s:%s" % (base, k))
            elif k == "tail":
                out.add("%s:tail=%s" % (profile, v))
            else:
                out.add("%s:%s" % (base, k))
    return out
