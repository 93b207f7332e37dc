"""The files `explore` builds: one Halide C++ generator per pipeline (its algorithm once, a branch per
profile's schedule chosen by the GeneratorParam `sched`), many per source file so that Halide.h is
compiled once for many; each pipeline's JSON spec (its case size, input fills, scalar values and the
tolerance its operations give); and the CMake project that builds them all through the installed
AotHarness package (one generator executable per source file, at -O0; aot_harness_add_pipeline per
pipeline with the profiles' schedules mapped to `sched`).
"""

import json

from . import explore_expr as ex
from . import explore_sched
from .explore_model import tolerance

HEADER = (
    "// Written by aot-harness explore: random pipelines with random schedules per profile. Regenerate\n"
    '// rather than edit.\n#include "Halide.h"\n'
)
VARS = ["x", "y", "c"]


def _decl_params(p):
    out = []
    for i in p.inputs:
        out.append('    Input<Buffer<%s, %d>> %s{"%s"};' % (ex.ctype(i.t), p.dims, i.name, i.name))
    for q in p.params:
        out.append('    Input<%s> %s{"%s"};' % (ex.ctype(q.t), q.name, q.name))
    for s in p.outputs():
        out.append('    Output<Buffer<%s, %d>> %s{"%s"};' % (ex.ctype(s.t), s.dims, s.name, s.name))
    return out


def _whole_rdom(p, name, src):
    ext = ", ".join("%s.dim(%d).min(), %s.dim(%d).extent()" % (src, k, src, k) for k in range(p.dims))
    return "RDom %s(%s);" % (name, ext)


def algorithm(p):
    """generate()'s statements that define every stage."""
    out = []
    for i in p.inputs:
        value = ", cast<%s>(0)" % ex.ctype(i.t) if i.bc == "constant_exterior" else ""
        out.append("Func %s_bc = BoundaryConditions::%s(%s%s);" % (i.name, i.bc, i.name, value))
    inputs = {i.name for i in p.inputs}
    func = lambda name, whole: name + "_bc" if name in inputs and not whole else name
    for s in p.stages:
        r = "r_" + s.name
        vs = ", ".join(VARS[: s.dims])
        write = lambda e, dims=p.dims: ex.cpp(e, ex.Ctx(dims, func, r))
        zero = "cast<%s>(0)" % ex.ctype(s.t)
        if not s.output:
            out.append('Func %s{"%s"};' % (s.name, s.name))
        if s.kind == "map":
            out.append("%s(%s) = %s;" % (s.name, vs, write(s.expr)))
        elif s.kind == "lutmap":
            out.append("%s(x) = %s;" % (s.name, write(s.expr, 1)))
        elif s.kind == "conv":
            rx, ry = s.radius
            out.append("RDom %s(%d, %d%s);" % (r, -rx, 2 * rx + 1, ", %d, %d" % (-ry, 2 * ry + 1) if ry else ""))
            out.append("%s(%s) = %s;" % (s.name, vs, zero))
            out.append("%s(%s) += %s;" % (s.name, vs, write(s.expr)))
        elif s.kind == "hist":
            out.append(_whole_rdom(p, r, s.src))
            out.append("%s(x) = %s;" % (s.name, zero))
            out.append(
                "%s(clamp(cast<int32_t>(%s), 0, %d)) += cast<%s>(1);" % (s.name, write(s.expr), s.n - 1, ex.ctype(s.t))
            )
        elif s.kind == "cdf":
            out.append("RDom %s(1, %d);" % (r, s.n - 1))
            out.append("%s(x) = %s(x);" % (s.name, s.src))
            out.append("%s(%s) += %s(%s - 1);" % (s.name, r, s.name, r))
        elif s.kind == "total":
            out.append(_whole_rdom(p, r, s.src))
            out.append("%s() = %s;" % (s.name, zero))
            out.append("%s() += %s;" % (s.name, write(s.expr)))
    return out


def profiles_of(p):
    """The profiles p is built for: cpu first, then those it has a schedule for."""
    return ["cpu"] + [q for q in p.sched if q != "cpu"]


def generator_source(p):
    """The C++ of pipeline p: a generator registered as p.name, one schedule branch per profile
    (p.sched[profile]; cpu's first)."""
    lines = [
        "namespace %s {" % p.name,
        "using namespace Halide;",
        "",
        "class G : public Generator<G> {",
        "public:",
        '    GeneratorParam<std::string> sched{"sched", "cpu"};',
    ]
    lines += _decl_params(p)
    lines += ["", "    void generate() {"]
    lines += ["        " + l for l in algorithm(p)]
    first = True
    for prof in profiles_of(p):
        body = schedule_lines(p, prof)
        lines.append('        %sif (sched.value() == "%s") {' % ("" if first else "} else ", prof))
        lines += ["            " + l for l in body]
        first = False
    lines += [
        "        } else {",
        '            throw std::invalid_argument("unknown sched " + sched.value());',
        "        }",
        "    }",
        "",
        "private:",
        '    Var x{"x"}, y{"y"}, c{"c"}, xo{"xo"}, yo{"yo"}, xi{"xi"}, yi{"yi"}, xv{"xv"}, yu{"yu"};',
        '    RVar rxo{"rxo"}, rxi{"rxi"}, ryo{"ryo"}, ryi{"ryi"};',
        "};",
        "",
        "}  // namespace %s" % p.name,
        "",
        "HALIDE_REGISTER_GENERATOR(%s::G, %s)" % (p.name, p.name),
    ]
    return "\n".join(lines) + "\n"


def schedule_lines(p, profile):
    """One profile's schedule as C++ (the cpu oracle: every stage at the root)."""
    return explore_sched.lines(p, p.sched[profile])


def features(p):
    """Target features the pipeline's types need on GPU profiles (FEATURES of aot_harness_add_pipeline)."""
    ts = set(p.types())
    out = []
    if "float64" in ts:
        out += ["cl_doubles", "vk_float64"]
    if ts & {"int64", "uint64"} or any(_wide_lowered(n) for s in p.stages if s.expr for n in s.expr.nodes()):
        out += ["vk_int64"]
    return out


# 32-bit operations Halide lowers through 64-bit integers (division and modulo by a constant are a
# widening multiply and shift; halving, rounding and saturating ones widen): without vk_int64 Halide
# refuses them for Vulkan ("Code requires 64-bit integer support")
WIDE_LOWERED = {"div", "mod", "hadd", "rhadd", "sat_add", "sat_sub"}


def _wide_lowered(n):
    return n.t in ("int32", "uint32") and (n.op == "rshr" or (n.op == "bin" and n.a.get("fn") in WIDE_LOWERED))


def spec(p):
    """The pipeline's JSON spec: its one case (small), the fills, the scalars and the tolerance."""
    ins = {}
    for k, i in enumerate(p.inputs):
        fill = {"fill": "uniform", "range": [i.lo, i.hi], "seed": 11 + k}
        if not ex.isf(i.t):
            fill["range"] = [int(i.lo), int(i.hi)]
        ins[i.name] = fill
    j = {
        "summary": "explore %s (seed %s)%s" % (p.name, p.seed, ", shrunk from " + p.origin if p.origin else ""),
        "tolerance": tolerance(p),
        "cases": [{"name": "small", "output_shape": list(p.size)}],
    }
    if ins:
        j["inputs"] = ins
    if p.params:
        j["scalars"] = {q.name: (bool(q.value) if q.t == "bool" else q.value) for q in p.params}
    if "float64" in p.types():
        j["required_extensions"] = ["cl_khr_fp64"]
    return json.dumps(j, indent=1, sort_keys=True) + "\n"


CMAKE = """# Written by aot-harness explore: the generators of {{files}} source files and {{n}} pipelines, built
# through the installed AotHarness package. Regenerate rather than edit.
cmake_minimum_required(VERSION 3.28)
project(aot_harness_explore LANGUAGES CXX)
find_package(Halide 21 REQUIRED PATH_SUFFIXES lib64/cmake/Halide)
find_package(AotHarness CONFIG REQUIRED)
set(AOT_HARNESS_NO_ESTIMATES_PROBE ON)
set(EXPLORE_DIR "${CMAKE_CURRENT_SOURCE_DIR}")
include("${CMAKE_CURRENT_SOURCE_DIR}/pipelines.cmake")
aot_harness_finalize(GOLDEN_DIR "${CMAKE_CURRENT_SOURCE_DIR}/golden")
"""


def cmake_lists(n_files, n_pipelines):
    return CMAKE.replace("{{files}}", str(n_files)).replace("{{n}}", str(n_pipelines))


def generator_cmake(source):
    """The pipelines.cmake line of one source file's generator executable. The includer sets EXPLORE_DIR
    (where the files are) and may set EXPLORE_SUITE (SUITE <object library> of aot_harness_add_pipeline)."""
    return "harness_add_generator(%s SOURCES ${EXPLORE_DIR}/%s)" % (generator_target(source), source)


def generator_target(source):
    return source.replace(".cpp", "") + ".generator"


def pipeline_cmake(p, source):
    """The pipelines.cmake line of pipeline p (built for the profiles it has a schedule for)."""
    profs = profiles_of(p)
    params = " ".join("%s sched=%s" % (q, q) for q in profs)
    feats = features(p)
    return (
        "aot_harness_add_pipeline(%s FROM %s SPEC ${EXPLORE_DIR}/specs/%s.json PROFILES %s PROFILE_PARAMS %s%s "
        "${EXPLORE_SUITE})"
        % (
            p.name,
            generator_target(source),
            p.name,
            " ".join(profs),
            params,
            " FEATURES " + " ".join(feats) if feats else "",
        )
    )


def source_file(pipelines):
    return HEADER + "\n" + "\n".join(generator_source(p) for p in pipelines)
