"""The random Halide generators of `genfuzz`: what one generator is made of (buffer and scalar inputs,
intermediate stages, outputs, each with the properties real generators have) and how a seed picks them.

A generator is sampled from one random.Random seeded with "<seed>:<index>", so the same seed gives the
same generators on every machine and Python version. The sampler only makes generators that can have a
meaningful case: every output reads an input through a carrier term, integer arithmetic stays inside
int32 by construction (inputs clamped where they are wide, scalars clamped where they multiply), values
are mapped onto the output type's range, and fixed bounds never conflict with what the pipeline reads.
What it planted is recorded (`planted`), so that a verdict's reason can be checked against it.

The emitter (genfuzz_cpp.py) turns a Generator into C++; schedules are one field per Func (Schedule), so
that random schedules (per profile) can be added without touching the algorithm.
"""

import random
from dataclasses import dataclass, field

# Element types: name -> (C++ type, Halide type, is float, bits, signed).
TYPES = {
    "bool": ("bool", "Bool()", False, 1, False),
    "uint8": ("uint8_t", "UInt(8)", False, 8, False),
    "uint16": ("uint16_t", "UInt(16)", False, 16, False),
    "uint32": ("uint32_t", "UInt(32)", False, 32, False),
    "uint64": ("uint64_t", "UInt(64)", False, 64, False),
    "int8": ("int8_t", "Int(8)", False, 8, True),
    "int16": ("int16_t", "Int(16)", False, 16, True),
    "int32": ("int32_t", "Int(32)", False, 32, True),
    "int64": ("int64_t", "Int(64)", False, 64, True),
    "float16": ("float16_t", "Float(16)", True, 16, True),
    "bfloat16": ("bfloat16_t", "BFloat(16)", True, 16, True),
    "float32": ("float", "Float(32)", True, 32, True),
    "float64": ("double", "Float(64)", True, 64, True),
}
# Scalar inputs: Halide's Input<T> takes arithmetic C++ types only (no float16).
SCALAR_TYPES = ["bool", "uint8", "uint16", "uint32", "int8", "int16", "int32", "int64", "float32", "float64"]
VARS = ["x", "y", "c", "n"]
BOUNDARY = ["repeat_edge", "constant_exterior", "mirror_image", "mirror_interior", "repeat_image"]


def is_float(t):
    return TYPES[t][2]


def value_range(t):
    """The values an input of type t holds as far as the arithmetic is concerned: integer types clamped
    to at most [-4096, 4095] before any arithmetic (so that int32 never overflows), floats [0, 1)."""
    _, _, flt, bits, signed = TYPES[t]
    if flt:
        return (0.0, 1.0)
    if bits == 1:
        return (0, 1)
    lo = -(1 << (bits - 1)) if signed else 0
    hi = (1 << (bits - 1)) - 1 if signed else (1 << bits) - 1
    return (max(lo, -4096), min(hi, 4095))


@dataclass
class Schedule:
    """How one Func is scheduled: inline (default), at the root, vectorized, parallel. Per profile later."""

    root: bool = False
    vectorize: int = 0  # lanes over dimension 0 (0: none)
    guard: bool = True  # TailStrategy::GuardWithIf for the vector split (else the default)
    parallel: bool = False  # over the last pure dimension


@dataclass
class BufferInput:
    name: str
    type: str
    dims: int
    func: bool = False  # Input<Func> instead of Input<Buffer<>>
    boundary: str = ""  # a BoundaryConditions function, "" for none
    offsets: list = field(default_factory=list)  # per dimension the offset it is read at (no boundary)
    fixed: dict = field(default_factory=dict)  # dimension -> (min, extent) the generator fixes
    interleaved: bool = False  # dim(0) stride = channels, dim(2) stride 1
    estimates: str = "none"  # none, plain, autoscheduler (only if using_autoscheduler())
    est: list = field(default_factory=list)  # per dimension (min, extent)
    whole: bool = False  # read in full by an RDom over its own extent


@dataclass
class ScalarInput:
    name: str
    type: str
    role: str  # gain, offset, threshold, lo, hi, flag, shift
    default: object = None  # None: Halide's default (zero)
    range: tuple = None  # (min, max) stated in the Input
    estimate: object = None
    estimates: str = "none"  # where the estimate is stated (plain / autoscheduler)
    partner: str = ""  # the other end of a range pair


@dataclass
class Stage:
    """An intermediate Func: its definition text (in the working type) and schedule."""

    name: str
    dims: int
    tuple2: bool = False
    update: bool = False  # an RDom update (acc += ...)
    schedule: Schedule = field(default_factory=Schedule)


@dataclass
class Output:
    name: str
    types: list  # one type, or two for a Tuple output (Output<Func>)
    dims: int
    fixed: dict = field(default_factory=dict)
    interleaved: bool = False
    estimates: str = "none"
    est: list = field(default_factory=list)
    kind: str = "map"  # map (per element), histogram, total (0-D)
    schedule: Schedule = field(default_factory=Schedule)


@dataclass
class Generator:
    name: str
    seed: str
    work: str  # working type: float or int
    inputs: list = field(default_factory=list)
    scalars: list = field(default_factory=list)
    stages: list = field(default_factory=list)
    roots: list = field(default_factory=list)  # Funcs always computed at the root (histograms)
    outputs: list = field(default_factory=list)
    body: dict = field(default_factory=dict)  # Func name -> definition lines, filled by the expression sampler
    planted: dict = field(default_factory=dict)  # the properties planted, for the checker

    def types(self):
        """Every element type of a buffer (input or output) and scalar."""
        ts = {i.type for i in self.inputs} | {t for o in self.outputs for t in o.types}
        return sorted(ts | {s.type for s in self.scalars})


def _estimate_extents(rng, dims, channels=None):
    big = rng.random() < 0.15
    ext = [
        rng.choice([96, 128, 200, 256, 320, 512, 640] if not big else [1024, 1536, 2048]),
        rng.choice([64, 96, 120, 240, 384, 480] if not big else [768, 1024, 1536]),
        channels or rng.choice([3, 4, 2, 8]),
        rng.choice([2, 3, 4]),
    ]
    return [(0, e) for e in ext[:dims]]


def _estimate_mode(rng):
    return rng.choice(["none", "plain", "plain", "autoscheduler"])


def sample_generator(seed, index):
    """The generator number `index` of `seed` (deterministic)."""
    rng = random.Random("%s:%d" % (seed, index))
    g = Generator(name="fz%s_%03d" % (seed, index), seed="%s:%d" % (seed, index), work="int")
    dims = rng.choice([1, 2, 2, 2, 3, 3, 4])
    n_in = rng.choice([1, 1, 2, 2, 3])
    channels = rng.choice([3, 4]) if dims >= 3 and rng.random() < 0.25 else None
    for i in range(n_in):
        g.inputs.append(_sample_input(rng, "in%d" % i, dims, channels, first=(i == 0)))
    if any(is_float(i.type) for i in g.inputs) or rng.random() < 0.3:
        g.work = "float"
    for i in range(rng.choice([0, 1, 1, 2, 3])):
        g.scalars.append(_sample_scalar(rng, "s%d" % i, g.work))
    if rng.random() < 0.2 and sum(s.role in ("lo", "hi") for s in g.scalars) == 0:
        g.scalars += _range_pair(rng, g.work, len(g.scalars))
    n_out = rng.choice([1, 1, 1, 2, 3])
    for i in range(n_out):
        g.outputs.append(_sample_output(rng, "out%d" % i if n_out > 1 else "output", dims, channels, g, i))
    plant(g)
    return g


def _sample_input(rng, name, dims, channels, first):
    t = rng.choice([t for t in TYPES if t != "bool" or not first])  # the first input carries every output
    d = dims
    if not first and rng.random() < 0.2:
        d = max(1, dims - 1)  # fewer dimensions: broadcast over the last ones
    b = BufferInput(name=name, type=t, dims=d)
    b.func = rng.random() < 0.12
    mode = rng.choice(["boundary", "boundary", "offset", "offset", "plain", "whole"])
    if first and mode == "whole":
        mode = "plain"  # every output reads the first input element by element
    if b.func and mode in ("boundary", "whole"):
        mode = "offset"  # an Input<Func> has no bounds to clamp against
    if mode == "boundary":
        b.boundary = rng.choice(BOUNDARY)
    elif mode == "offset":
        b.offsets = [rng.choice([-5, -3, -2, -1, 1, 2, 4, 7]) if k < 2 else 0 for k in range(d)]
    elif mode == "whole":
        b.whole = True
    if not b.func:
        if channels and d >= 3 and rng.random() < 0.5:
            b.interleaved = True
            b.fixed[2] = (0, channels)
        if d >= 2 and not b.whole and rng.random() < 0.15 and not b.interleaved:
            # A fixed extent in one dimension (a generator made for one size), starting where the
            # pipeline reads it first when that is below 0 (an input at a negative min).
            k = rng.randrange(min(d, 2))
            lo = min(0, b.offsets[k]) if b.offsets else 0
            b.fixed[k] = (lo, rng.choice([20, 40, 100]))
    b.estimates = _estimate_mode(rng)
    if b.estimates != "none":
        b.est = _estimate_extents(rng, d, channels)
        for k, (m, e) in b.fixed.items():
            b.est[k] = (m, e)
    return b


def _sample_scalar(rng, name, work):
    t = rng.choice(SCALAR_TYPES)
    if t == "bool":
        role = "flag"
    elif work == "int" and not is_float(t) and rng.random() < 0.2 and t != "int64":
        role = "shift"
    else:
        role = rng.choice(["gain", "gain", "offset", "threshold"])
    s = ScalarInput(name=name, type=t, role=role)
    lim = 16 if not is_float(t) else 2.0
    r = rng.random()
    if t != "bool":
        if r < 0.35:
            s.default = _scalar_value(rng, t, role)
        if rng.random() < 0.35:
            s.range = (0, 7) if role == "shift" else ((0.0, lim) if is_float(t) else (0, lim))
            if s.default is not None:
                s.default = min(max(s.default, s.range[0]), s.range[1])
        if rng.random() < 0.4:
            s.estimate = _scalar_value(rng, t, role)
            if s.range:
                s.estimate = min(max(s.estimate, s.range[0]), s.range[1])
            s.estimates = rng.choice(["plain", "autoscheduler"])
    else:
        s.default = rng.choice([None, True, False])
    return s


def _scalar_value(rng, t, role):
    if role == "shift":
        return rng.choice([1, 2, 3])
    if is_float(t):
        return rng.choice([0.25, 0.5, 1.5, 2.0])
    return rng.choice([1, 2, 3, 5])


# How generators name the two ends of a range ({} is the rest of the name); the last says nothing.
PAIR_NAMES = [
    ("{}_lo", "{}_hi"),
    ("{}_min", "{}_max"),
    ("min_{}", "max_{}"),
    ("{}Low", "{}High"),
    ("{}_start", "{}_end"),
    ("{}_a", "{}_b"),
]


def _range_pair(rng, work, n):
    """Two scalars that bound a range (clamp(v, lo, hi)), with neither default nor estimate: any lo < hi
    inside the values works, lo == hi gives a constant. Named as real generators name them, or not."""
    t = rng.choice(["float32", "float64"]) if work == "float" else rng.choice(["int32", "int16", "uint8"])
    lo, hi = rng.choice(PAIR_NAMES)
    stem = rng.choice(["s%d" % n, "level%d" % n, "db%d" % n])
    return [
        ScalarInput(name=lo.format(stem), type=t, role="lo", partner=hi.format(stem)),
        ScalarInput(name=hi.format(stem), type=t, role="hi", partner=lo.format(stem)),
    ]


def _sample_output(rng, name, dims, channels, g, index):
    kind = "map"
    r = rng.random()
    readable = any(not i.func and i.type != "bool" for i in g.inputs)
    if index > 0 and r < 0.25 and readable:
        kind = "histogram"
    elif index > 0 and r < 0.32 and readable:
        kind = "total"
    if kind == "histogram":
        o = Output(name=name, types=[rng.choice(["int32", "uint32", "int32", "uint16"])], dims=1, kind=kind)
        o.fixed[0] = (0, rng.choice([16, 32, 64, 256]))
        return o
    if kind == "total":
        return Output(
            name=name, types=[rng.choice(["float32", "float64"]) if g.work == "float" else "int64"], dims=0, kind=kind
        )
    t = rng.choice(list(TYPES))
    if g.work == "int" and is_float(t) and rng.random() < 0.5:
        t = rng.choice(["uint8", "int16", "uint16", "int32"])
    types = [t]
    d = dims if index == 0 else rng.choice([dims, max(1, dims - 1)])
    o = Output(name=name, types=types, dims=d)
    if rng.random() < 0.15:
        types.append(rng.choice(["float32", "int16", "uint8", "float16"]))  # a Tuple output
    if len(types) == 1:
        if channels and d >= 3 and rng.random() < 0.5:
            o.interleaved = True
            o.fixed[2] = (0, channels)
        elif rng.random() < 0.15:
            k = rng.randrange(d)
            o.fixed[k] = (rng.choice([0, 0, -4, 16]), rng.choice([24, 32, 50]))
            # Read at c in dimension 2: an input that fixes its channels (interleaved) fixes the output's too.
            o.fixed[k] = next((i.fixed[k] for i in g.inputs if k == 2 and k in i.fixed), o.fixed[k])
    o.estimates = _estimate_mode(rng)
    if o.estimates != "none":
        o.est = _estimate_extents(rng, d, channels)
        for k, (m, e) in o.fixed.items():
            o.est[k] = (m, e)
    return o


def plant(g):
    """The properties the checker may hold a verdict's reason against."""
    p = g.planted
    p["types"] = g.types()
    p["dims"] = sorted({o.dims for o in g.outputs} | {i.dims for i in g.inputs})
    p["boundary"] = sorted({i.boundary for i in g.inputs if i.boundary})
    p["input_mins"] = {i.name: i.offsets for i in g.inputs if any(i.offsets)}
    p["func_inputs"] = [i.name for i in g.inputs if i.func]
    p["whole_inputs"] = [i.name for i in g.inputs if i.whole]
    p["fixed_inputs"] = {i.name: {str(k): v for k, v in i.fixed.items()} for i in g.inputs if i.fixed}
    p["fixed_outputs"] = {o.name: {str(k): v for k, v in o.fixed.items()} for o in g.outputs if o.fixed}
    p["interleaved"] = [b.name for b in g.inputs + g.outputs if b.interleaved]
    p["tuple_outputs"] = [o.name for o in g.outputs if len(o.types) > 1]
    p["histograms"] = [o.name for o in g.outputs if o.kind == "histogram"]
    p["totals"] = [o.name for o in g.outputs if o.kind == "total"]
    p["outputs"] = len(g.outputs)
    p["estimates"] = sorted({b.estimates for b in g.inputs + g.outputs})
    p["scalars"] = {
        s.name: {
            "type": s.type,
            "role": s.role,
            "default": s.default,
            "range": s.range,
            "estimate": s.estimate,
            "partner": s.partner,
        }
        for s in g.scalars
    }
    p["range_pairs"] = [s.name for s in g.scalars if s.role == "lo"]
    p["bool_outputs"] = [o.name for o in g.outputs if "bool" in o.types]
    p["output_estimates"] = {o.name: o.estimates for o in g.outputs if o.dims > 0}
    p["output_estimate_extents"] = {o.name: [e for _, e in o.est] for o in g.outputs if o.dims > 0 and o.est}
    p["output_types"] = sorted({t for o in g.outputs for t in o.types})
