"""What one of `explore`'s random pipelines is: inputs (each with the range its values are filled from and
a boundary condition), scalar parameters, stages in producer order (element-wise maps, RDom
convolutions, histograms, their prefix sums, look-up tables, whole-input totals), which stages are
outputs, the case's size, and per profile one schedule per stage (Sched).

check() analyses every expression in producer order (explore_expr.analyze) with the intervals the
sources give, so that a pipeline is known to be defined (no problem) and its outputs' error bounds are
known before it is built; tolerance() turns them into the spec's tolerance. Pipelines are plain data:
the sampler (explore_sample.py) makes them, the shrinker (explore_shrink.py) copies and cuts them.
"""

import copy
from dataclasses import dataclass, field

from . import explore_expr as ex, explore_interval as iv

# Stage kinds: map (an expression per element), conv (an RDom sum of a source around each element),
# hist (a histogram of an input over its whole extent), cdf (a prefix sum of a histogram), lutmap (a
# 1-D table of an expression of its index), total (the sum of an input, 0-D).
KINDS = ["map", "conv", "hist", "cdf", "lutmap", "total"]
TABLES = ("hist", "cdf", "lutmap")  # 1-D stages read through a clamped index (lut nodes)


@dataclass
class Input:
    name: str
    t: str
    lo: float
    hi: float
    bc: str = "repeat_edge"  # the BoundaryConditions function every element-wise read goes through


@dataclass
class Param:
    name: str
    t: str
    lo: float
    hi: float
    value: float  # the value the case passes (inside [lo, hi])


@dataclass
class Stage:
    name: str
    kind: str
    t: str
    dims: int
    expr: object = None  # map: the value; conv/total: the term per element; hist: the bin; lutmap: the entry
    src: str = ""  # conv, hist, total: the source read over an RDom; cdf: the histogram
    n: int = 0  # hist, cdf, lutmap: entries
    radius: tuple = (1, 1)  # conv: half-widths in x and y (y 0 for a 1-D conv)
    output: bool = False


@dataclass
class Sched:
    """How one stage is computed for one profile. where: root, inline, block (GPU: at the consumer's
    block, its loops on the block's threads), thread (GPU: inside each of the consumer's threads), at
    (host: at the consumer's row loop). gpu: the thread tile () = not on the GPU; single: one GPU thread.
    The update of an RDom stage (conv, hist, cdf, total) has its own fields (u*)."""

    where: str = "root"
    at: str = ""
    gpu: tuple = ()
    single: bool = False
    vec: int = 0
    unroll: int = 0
    par: bool = False
    strip: int = 0  # host: rows per parallel strip (split y) (0: parallel over y itself)
    store: str = ""  # host, where == at: store_root or strip (store at the consumer's strip loop)
    cinner: bool = False  # 3-D: the channel loop innermost (inside each GPU thread)
    shared: bool = False  # block: in GPU shared memory (explicitly)
    tail: str = ""  # host vectorize: GuardWithIf, RoundUp... ("" = Halide's default)
    ugpu: tuple = ()
    usingle: bool = False
    uatomic: bool = False  # hist: the update as atomic adds over a GPU tile of the RDom
    uvec: int = 0

    def features(self):
        return {k for k, v in self.__dict__.items() if v not in ("", 0, (), False, None)}


@dataclass
class Pipeline:
    name: str
    seed: str
    dims: int
    size: list  # output extents (x, y, c as dims says)
    inputs: list = field(default_factory=list)
    params: list = field(default_factory=list)
    stages: list = field(default_factory=list)
    sched: dict = field(default_factory=dict)  # profile -> {stage name: Sched}
    origin: str = ""  # the pipeline this one was shrunk from
    bounds: dict = field(default_factory=dict)  # name -> (lo, hi, error bound), set by check()

    def stage(self, name):
        return next(s for s in self.stages if s.name == name)

    def outputs(self):
        return [s for s in self.stages if s.output]

    def copy(self, name=None):
        """A copy to change (expressions, stages and schedules copied)."""
        p = Pipeline(
            name=name or self.name,
            seed=self.seed,
            dims=self.dims,
            size=list(self.size),
            inputs=[copy.copy(i) for i in self.inputs],
            params=[copy.copy(q) for q in self.params],
            origin=self.origin,
        )
        for s in self.stages:
            t = copy.copy(s)
            t.expr = s.expr.copy() if s.expr is not None else None
            p.stages.append(t)
        p.sched = {prof: {k: copy.copy(c) for k, c in sc.items()} for prof, sc in self.sched.items()}
        p.bounds = dict(self.bounds)  # as of the last check(): run check() again after changing p
        return p

    def consumers(self, name):
        """The stages that read stage or input `name`."""
        return [s for s in self.stages if name in reads(s)]

    def types(self):
        return sorted(
            {i.t for i in self.inputs}
            | {s.t for s in self.stages}
            | {p.t for p in self.params}
            | {n.t for s in self.stages if s.expr for n in s.expr.nodes()}
        )


def reads(stage):
    """The names a stage reads (stages, inputs, params)."""
    out = {stage.src} if stage.src else set()
    if stage.expr is not None:
        out |= {n.a["src"] for n in stage.expr.nodes() if "src" in n.a}
        out |= {n.a["name"] for n in stage.expr.nodes() if n.op == "param"}
    return out


def elements(p):
    n = 1
    for e in p.size:
        n *= e
    return n


def check(p, partial=False):
    """Analyses every stage (in producer order) and returns the problems (undefined behaviour, a read of
    something not defined before, a read of an output, no output unless partial); none: p is defined."""
    problems = []
    env = {
        i.name: (
            min(i.lo, 0) if i.bc == "constant_exterior" else i.lo,
            max(i.hi, 0) if i.bc == "constant_exterior" else i.hi,
            0,
        )
        for i in p.inputs
    }
    env.update({q.name: (q.lo, q.hi, 0) for q in p.params})
    count = 4 * elements(p)  # a bound on what an RDom over a whole input counts (inputs may be larger)
    for s in p.stages:
        missing = reads(s) - set(env)
        read_outputs = sorted(n for n in reads(s) if any(o.name == n for o in p.outputs()))
        if read_outputs:  # the output's buffer would have to grow to what its reader needs, and so on
            problems.append("%s reads the output %s" % (s.name, ", ".join(read_outputs)))
        if missing:
            problems.append("%s reads %s before it is defined" % (s.name, ", ".join(sorted(missing))))
            continue
        look = lambda n: env[n.a["src"] if "src" in n.a else n.a["name"]]
        if s.expr is not None:
            iv.analyze(s.expr, look, problems)
        e = s.expr
        if e is not None and _inexact_ints(e, top=s.output and s.kind == "map"):
            problems.append("%s: an integer from an inexact float feeds more arithmetic" % s.name)
        if s.kind == "map" or s.kind == "lutmap":
            if e.t != s.t:
                problems.append("%s: value of type %s in a %s stage" % (s.name, e.t, s.t))
            env[s.name] = (e.lo, e.hi, e.err)
        elif s.kind in ("conv", "total"):
            taps = (2 * s.radius[0] + 1) * (2 * s.radius[1] + 1) if s.kind == "conv" else count
            lo, hi = taps * min(e.lo, 0), taps * max(e.hi, 0)
            err = taps * e.err + (taps * 2 * iv.ulp(s.t, max(abs(lo), abs(hi))) if ex.isf(s.t) else 0)
            _in_type(s, lo, hi, problems)
            env[s.name] = (lo, hi, err)
        elif s.kind == "hist":
            if e.err:
                problems.append("%s: bin of an inexact value" % s.name)
            _in_type(s, 0, count, problems)
            env[s.name] = (0, count, 0)
        elif s.kind == "cdf":
            lo, hi, err = env[s.src]
            _in_type(s, 0, hi, problems)
            env[s.name] = (0, hi, err * s.n)
    if not p.outputs() and not partial:
        problems.append("no output")
    p.bounds = env
    return problems


def _inexact_ints(e, top):
    """Integer nodes with an error bound: allowed only as an output's last conversion (the flips of a
    rounded float are then counted once, not multiplied by what follows)."""
    nodes = e.nodes()[1:] if top else e.nodes()
    return [n for n in nodes if not ex.isf(n.t) and n.err]


def _in_type(s, lo, hi, problems):
    tlo, thi = ex.trange(s.t)
    if lo < tlo or hi > thi:
        problems.append("%s: a sum in [%s, %s] leaves %s" % (s.name, lo, hi, s.t))


def output_errors(p):
    """{output: its error bound} (check() must have run)."""
    return {s.name: p.bounds[s.name][2] for s in p.outputs()}


def tolerance(p):
    """The spec's tolerance: Exact when every output is exact, else Absolute with 4x the largest bound
    (an integer output of an inexact float: its flips; at least one ulp of the float output's size)."""
    errs = output_errors(p)
    worst = max(errs.values()) if errs else 0
    if worst == 0:
        return {
            "kind": "exact",
            "reason": "integer arithmetic only (or exact floats): every build must agree bit for bit",
        }
    if worst == ex.INF:
        return None
    floor = max(
        (iv.ulp(s.t, max(abs(p.bounds[s.name][0]), abs(p.bounds[s.name][1]))) for s in p.outputs() if ex.isf(s.t)),
        default=0,
    )
    atol = 4 * worst + 4 * floor
    if any(not ex.isf(s.t) for s in p.outputs()):
        atol = max(atol, 1.0) if any(errs[s.name] for s in p.outputs() if not ex.isf(s.t)) else atol
    return {
        "kind": "absolute",
        "atol": float("%.3g" % atol),
        "reason": "4x the error bound of the outputs' float operations (rounding, GPU division, sqrt, exp, sin)",
    }
