"""C++ for the generators of genfuzz_model.py: one Halide Generator class per model, with its inputs and
outputs, boundary conditions, intermediate stages (stencils, Tuples, RDom updates, histogram look-ups),
reductions, the constraints it states (fixed bounds, strides), its estimates and its schedule.

Expressions come from genfuzz_expr.py; every output is its carrier (an input read element by element)
combined with the rest, mapped onto the output type's range.
"""

from .genfuzz_expr import E, INT_LIMIT, Writer, _lit, _mul, _num, nested
from .genfuzz_model import TYPES, VARS, Stage, plant, is_float


class Body(Writer):
    """Writes one generator: generate()'s lines, then the class around them (source())."""

    def bins(self, v, bins):
        """An int bin in [0, bins) of a working-type value with interval [v.lo, v.hi]."""
        lo, hi = v.lo, max(v.hi, v.lo + 1)
        if self.g.work == "float":
            e = "cast<int32_t>(%s)" % self.strict(
                "(%s - %s) * %s" % (v.text, _num(lo, "float"), _num(bins / (hi - lo), "float"))
            )
        else:
            e = "((%s - %d) * %d / %d)" % (v.text, lo, bins, hi - lo + 1)
        return "clamp(%s, 0, %d)" % (e, bins - 1)

    def rdom_over(self, b, r):
        ext = ", ".join("%s.dim(%d).min(), %s.dim(%d).extent()" % (b.name, k, b.name, k) for k in range(b.dims))
        self.body.append("RDom %s(%s);" % (r, ext))
        return ", ".join("%s.%s" % (r, "xyzw"[k]) for k in range(b.dims))

    def new_func(self, prefix):
        self.n_funcs += 1
        name = "%s%d" % (prefix, self.n_funcs)
        self.body.append('Func %s{"%s"};' % (name, name))
        return name

    def map_out(self, root, t):
        if self.g.work != "float" and max(abs(root.lo), abs(root.hi)) >= 1 << 30:
            raise AssertionError("%s: an int32 value in [%d, %d] could overflow" % (self.g.name, root.lo, root.hi))
        ct, lo, hi = TYPES[t][0], root.lo, max(root.hi, root.lo + 1)
        flt = self.g.work == "float"
        if t == "bool":  # the parity of the value: about half true whatever its distribution
            if flt:
                return "(%s < 1.0f)" % self.strict("floor(%s * 257.0f) %% 2.0f" % root.text)
            return "((%s %% 2) == 0)" % root.text
        if is_float(t):
            if t in ("float16", "bfloat16") or not flt:
                v = root.text if flt else "cast<float>(%s)" % root.text
                return "cast<%s>((%s - %s) * %s)" % (ct, v, _num(lo, "float"), _num(1.0 / (hi - lo), "float"))
            return "cast<%s>(%s)" % (ct, root.text)
        bits, signed = TYPES[t][3], TYPES[t][4]
        span = 200 if bits == 8 else 4000 if bits == 16 else 10000
        base = -(span // 2) if signed else 0
        if flt:
            return "saturating_cast<%s>(%s)" % (
                ct,
                self.strict(
                    "(%s - %s) * %s + %s"
                    % (root.text, _num(lo, "float"), _num(span / (hi - lo), "float"), _num(base, "float"))
                ),
            )
        if hi - lo > span:
            d = -(-(hi - lo) // span)
            return "saturating_cast<%s>((%s - %d) / %d + %d)" % (ct, root.text, lo, d, base)
        return "saturating_cast<%s>((%s - %d) * %d + %d)" % (ct, root.text, lo, span // (hi - lo), base)

    def write(self):
        g, rng, f = self.g, self.rng, self.g.planted.setdefault("features", [])
        for b in g.inputs:
            if b.boundary:
                value = ", cast(%s.type(), 0)" % b.name if b.boundary == "constant_exterior" else ""
                self.body.append("Func %s_bc = BoundaryConditions::%s(%s%s);" % (b.name, b.boundary, b.name, value))
        sources = [("input", b) for b in g.inputs if not b.whole]
        for b in g.inputs:
            if b.whole:  # its mean, over an RDom of its whole extent
                name = self.new_func("mean")
                r = self.rdom_over(b, "r_" + name)
                v = self.conv("%s(%s)" % (b.name, r), b.type)
                count = " * ".join("%s.dim(%d).extent()" % (b.name, k) for k in range(b.dims))
                if g.work == "float":
                    self.body.append("%s() = sum(%s) / cast<float>(%s);" % (name, v.text, count))
                else:
                    self.body.append(
                        "%s() = cast<int32_t>(sum(cast<int64_t>(%s)) / cast<int64_t>(%s));" % (name, v.text, count)
                    )
                sources.append(("total", E("%s()" % name, v.lo, v.hi, True)))
                f.append("rdom_whole_input")
        self.stage_range = {}
        dims = g.inputs[0].dims
        for _ in range(rng.choice([0, 0, 1, 1, 2])):
            self.stage(dims, sources, f)
        for o in g.outputs:
            self.output(o, sources, f)
        self.constraints()
        self.schedule(f)
        g.planted["features"] = sorted(set(f))

    def stage(self, dims, sources, f):
        g, rng = self.g, self.rng
        kind = rng.choice(["stencil", "tuple", "acc", "lut"])
        st = Stage(name="", dims=dims, tuple2=(kind == "tuple"), update=(kind in ("acc", "lut")))
        vs = ", ".join(VARS[:dims])
        data = [s for s in sources if s[0] == "input"]
        if kind == "lut":
            srcs = [b for k, b in data if not b.func and b.type != "bool"]
            if not srcs:
                kind = "stencil"
            else:
                b = rng.choice(srcs)
                bins = rng.choice([16, 64, 256])
                hist = self.new_func("hist")
                g.roots.append(hist)  # a histogram read at data-dependent bins is computed once, as real ones are
                r = self.rdom_over(b, "r_" + hist)
                self.body.append("%s(x) = 0;" % hist)
                self.body.append("%s(%s) += 1;" % (hist, self.bins(self.conv("%s(%s)" % (b.name, r), b.type), bins)))
                st.name = self.new_func("lut")
                carrier = self.input_leaf(b, dims)
                hi = 4096
                cast = "cast<float>" if g.work == "float" else ""
                self.body.append("%s(%s) = %s(%s(%s));" % (st.name, vs, cast, hist, self.bins(carrier, bins)))
                self.stage_range[st.name] = (0, hi)
                f += ["histogram_lut", "rdom_update"]
        if kind == "stencil":
            st.name = self.new_func("stencil")
            _, b = rng.choice(data)
            taps = [self.input_leaf(b, dims) for _ in range(3)]
            self.body.append("%s(%s) = %s;" % (st.name, vs, self.strict(" + ".join(t.text for t in taps))))
            self.stage_range[st.name] = (sum(t.lo for t in taps), sum(t.hi for t in taps))
            f.append("stencil")
        elif kind == "tuple":
            st.name = self.new_func("pair")
            a, b = self.tree(dims, data, 1), self.tree(dims, data, 1)
            self.body.append("%s(%s) = Tuple(%s, %s);" % (st.name, vs, self.strict(a.text), self.strict(b.text)))
            self.stage_range[st.name] = [(a.lo, a.hi), (b.lo, b.hi)]
            f.append("tuple_stage")
        elif kind == "acc":
            st.name = self.new_func("acc")
            _, b = rng.choice(data)
            lo, k = rng.choice([(-1, 3), (0, 4), (-2, 5)])
            r = "r_" + st.name
            self.body.append("RDom %s(%d, %d);" % (r, lo, k))
            src = b.name + "_bc" if b.boundary else b.name
            offs = list(b.offsets) or [0] * b.dims
            leaf = self.conv("%s(%s)" % (src, self.coords(b.dims, offs, dims, rdom=r)), b.type)
            self.body.append("%s(%s) = %s;" % (st.name, vs, "0.0f" if g.work == "float" else "0"))
            self.body.append("%s(%s) += %s;" % (st.name, vs, leaf.text))
            self.stage_range[st.name] = (k * min(leaf.lo, 0), k * max(leaf.hi, 0))
            f.append("rdom_update")
        st.schedule.root = rng.random() < 0.5
        g.stages.append(st)

    def root_expr(self, o, sources, scalars):
        data = [s for s in sources if s[0] == "input" and s[1].type != "bool"]  # a bool carries 2 values
        carrier = self.input_leaf(self.rng.choice(data)[1], o.dims)
        rest = self.tree(o.dims, sources, self.rng.choice([1, 2]))
        for s in scalars:
            if s.role in ("lo", "hi"):
                continue
            if s.role == "gain" and self.g.work != "float":
                lo, hi = _mul(carrier, self.scalar(s))
                if max(abs(lo), abs(hi)) >= INT_LIMIT:
                    s.role = "offset"  # a product that could leave int32: added instead

            carrier = self.apply_scalar(carrier, s, rest)
        # carrier - rest cancels where one holds the other: (v + s) - v, a scalar's select(s, v, rest), v * g + rest
        # or select(v > t, v, rest) less rest, v - abs(v) on non-negative fills, v - select(v > m, v, m) (seed 2:
        # ten constant outputs).
        if self.rng.random() < 0.5 or nested(carrier, rest):
            root = E("(%s + %s)" % (carrier.text, rest.text), carrier.lo + rest.lo, carrier.hi + rest.hi, True)
        else:
            root = E("(%s - %s)" % (carrier.text, rest.text), carrier.lo - rest.hi, carrier.hi - rest.lo, True)
        pair = [s for s in scalars if s.role in ("lo", "hi")]
        if len(pair) == 2:
            root = self.clamp_pair(root, pair[0], pair[1])
        return root

    def output(self, o, sources, f):
        g, rng = self.g, self.rng
        vs = ", ".join(VARS[: o.dims])
        if o.kind == "histogram":
            b = rng.choice([b for b in g.inputs if not b.func and b.type != "bool"])
            r = self.rdom_over(b, "r_" + o.name)
            ct = TYPES[o.types[0]][0]
            self.body.append("%s(x) = cast<%s>(0);" % (o.name, ct))
            v = self.conv("%s(%s)" % (b.name, r), b.type)
            self.body.append("%s(%s) += cast<%s>(1);" % (o.name, self.bins(v, o.fixed[0][1]), ct))
            f.append("histogram_output")
            return
        if o.kind == "total":
            b = rng.choice([b for b in g.inputs if not b.func and b.type != "bool"])
            r = self.rdom_over(b, "r_" + o.name)
            v = self.conv("%s(%s)" % (b.name, r), b.type)
            acc = "cast<int64_t>" if o.types[0] == "int64" else "cast<%s>" % TYPES[o.types[0]][0]
            self.body.append("%s() = sum(%s(%s));" % (o.name, acc, v.text))
            f.append("rdom_total_output")
            return
        mine = [s for s in g.scalars if s.name in self.scalar_owner.get(o.name, [])]
        values = []
        for t in o.types:
            values.append(self.map_out(self.root_expr(o, sources, mine), t))
            mine = []
        if len(values) == 1:
            self.body.append("%s(%s) = %s;" % (o.name, vs, values[0]))
        else:
            self.body.append("%s(%s) = Tuple(%s);" % (o.name, vs, ", ".join(values)))
            f.append("tuple_output")

    def constraints(self):
        g = self.g
        for b in g.inputs + g.outputs:
            if getattr(b, "func", False) or (hasattr(b, "types") and len(b.types) > 1):
                continue
            if b.interleaved:
                c = b.fixed[2][1]
                self.body.append("%s.dim(0).set_stride(%d);" % (b.name, c))
                self.body.append("%s.dim(2).set_stride(1);" % b.name)
            for k, (m, e) in sorted(b.fixed.items()):
                self.body.append("%s.dim(%d).set_bounds(%d, %d);" % (b.name, k, m, e))
        for b in g.inputs + g.outputs:
            if b.estimates == "none" or not b.est:
                continue
            self.est_line(
                b.estimates, "%s.set_estimates({%s});" % (b.name, ", ".join("{%d, %d}" % (m, e) for m, e in b.est))
            )
        for s in g.scalars:
            if s.estimate is not None and s.estimates != "none":
                self.est_line(s.estimates, "%s.set_estimate(%s);" % (s.name, _lit(s.type, s.estimate)))

    def est_line(self, mode, line):
        self.est.append((mode, line))

    def schedule(self, f):
        """Samples each Func's Schedule (the model's field), then writes it: a later sampler (per profile,
        GPU tiles) only has to fill the fields."""
        g, rng = self.g, self.rng
        for o in g.outputs:
            if o.kind != "map" or rng.random() < 0.5:
                continue
            o.schedule.vectorize = rng.choice([4, 8, 16])
            o.schedule.guard = rng.random() < 0.5 or any(e < 16 for _, e in o.fixed.values())
            o.schedule.parallel = o.dims >= 2 and rng.random() < 0.6
        self.sched, names = schedule_lines(g), []
        for line in self.sched:
            names.append(
                "compute_root"
                if "compute_root" in line
                else "parallel"
                if "parallel" in line
                else "vectorize_guarded"
                if "GuardWithIf" in line
                else "vectorize_shift_inwards"
            )
        f += names


def schedule_lines(g):
    """The C++ of every Func's Schedule in generator g."""
    lines = ["%s.compute_root();" % f for f in g.roots]
    for st in g.stages:
        if st.schedule.root:
            lines.append("%s.compute_root();" % st.name)
    for o in g.outputs:
        sc = o.schedule
        if sc.vectorize:
            lines.append(
                "%s.vectorize(x, %d%s);" % (o.name, sc.vectorize, ", TailStrategy::GuardWithIf" if sc.guard else "")
            )
        if sc.parallel:
            lines.append("%s.parallel(%s);" % (o.name, VARS[o.dims - 1]))
    return lines


def _scalar_decl(s):
    ct = TYPES[s.type][0]
    if s.type == "bool":
        return 'Input<bool> %s{"%s"%s};' % (s.name, s.name, "" if s.default is None else ", " + _lit("bool", s.default))
    if s.range:
        d = s.default if s.default is not None else s.range[0]
        return 'Input<%s> %s{"%s", %s, %s, %s};' % (
            ct,
            s.name,
            s.name,
            _lit(s.type, d),
            _lit(s.type, s.range[0]),
            _lit(s.type, s.range[1]),
        )
    if s.default is not None:
        return 'Input<%s> %s{"%s", %s};' % (ct, s.name, s.name, _lit(s.type, s.default))
    return 'Input<%s> %s{"%s"};' % (ct, s.name, s.name)


def generator_source(g):
    """The C++ of generator g (a class in its own namespace, registered as g.name)."""
    w = Body(g)
    maps = [o for o in g.outputs if o.kind == "map"]
    w.scalar_owner = {}
    for s in g.scalars:
        o = maps[0] if s.role in ("lo", "hi") else w.rng.choice(maps)
        w.scalar_owner.setdefault(o.name, []).append(s.name)
    w.write()
    features = g.planted["features"]
    plant(g)  # again: writing settles roles and stages
    g.planted["features"] = features
    g.planted["stages"] = [st.name for st in g.stages]
    lines = ["namespace %s {" % g.name, "using namespace Halide;", "", "class G : public Generator<G> {", "public:"]
    for b in g.inputs:
        if b.func:
            lines.append('    Input<Func> %s{"%s", %s, %d};' % (b.name, b.name, TYPES[b.type][1], b.dims))
        else:
            lines.append('    Input<Buffer<%s, %d>> %s{"%s"};' % (TYPES[b.type][0], b.dims, b.name, b.name))
    lines += ["    " + _scalar_decl(s) for s in g.scalars]
    for o in g.outputs:
        if len(o.types) > 1:
            lines.append(
                '    Output<Func> %s{"%s", {%s}, %d};'
                % (o.name, o.name, ", ".join(TYPES[t][1] for t in o.types), o.dims)
            )
        else:
            lines.append('    Output<Buffer<%s, %d>> %s{"%s"};' % (TYPES[o.types[0]][0], o.dims, o.name, o.name))
    lines += ["", "    void generate() {"]
    lines += ["        " + l for l in w.body]
    plain = [l for m, l in w.est if m == "plain"]
    auto = [l for m, l in w.est if m == "autoscheduler"]
    lines += ["        " + l for l in plain]
    if auto:
        lines += ["        if (using_autoscheduler()) {"] + ["            " + l for l in auto] + ["        }"]
    if w.sched:
        lines += ["        if (!using_autoscheduler()) {"] + ["            " + l for l in w.sched] + ["        }"]
    lines += [
        "    }",
        "",
        "private:",
        '    Var x{"x"}, y{"y"}, c{"c"}, n{"n"};',
        "};",
        "",
        "}  // namespace %s" % g.name,
        "",
        "HALIDE_REGISTER_GENERATOR(%s::G, %s)" % (g.name, g.name),
    ]
    return "\n".join(lines) + "\n"
