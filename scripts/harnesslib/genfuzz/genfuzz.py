"""scripts/genfuzz: random but valid Halide generators for the harness's zero-spec case derivation, and the
check of what the harness made of them.

  genfuzz generate --seed S --count N --out DIR [--per-file K]
      Writes N generators (genfuzz_model.py samples them, genfuzz_cpp.py writes C++), K per source file
      (one compile of Halide.h for K generators), to DIR: genfuzz_<i>.cpp, pipelines.cmake (for an outside
      project's CMakeLists.txt: GENFUZZ_SOURCES and GENFUZZ_PIPELINES, "<source>:<generator>" each) and
      planted.json (what each generator was made of). The same seed gives the same files everywhere.
  genfuzz check WORK --planted FILE [--profiles cpu,host] [--min-meaningful F] [--json OUT]
      WORK holds what the harness wrote for those generators (list.json, describe/<p>.json, results.json,
      golden/). Prints one row per generator and the totals, with every reason that is not a meaningful
      verdict classified and judged against planted.json (genfuzz_check.py: true, limitation, false,
      invalid). Exit 1 when fewer than F (default 0.9) of the generators that built have a meaningful
      verdict, or a reason is false, or a generator is invalid; 2 for bad input.
"""

import json
import os
import sys

from . import genfuzz_check
from .. import jsonio, toolmain
from .genfuzz_cpp import generator_source
from .genfuzz_model import sample_generator

HEADER = (
    "// Written by scripts/genfuzz (seed %s): random Halide generators for the harness's zero-spec case\n"
    '// derivation. Regenerate rather than edit.\n#include "Halide.h"\n'
)


def generate(seed, count, per_file, first=0):
    """{file name: text} and {generator: planted} for generators first .. first + count - 1 of seed."""
    files, planted, pipelines = {}, {}, []
    for start in range(first, first + count, per_file):
        name = "genfuzz_%s_%d.cpp" % (seed, start // per_file)
        parts = [HEADER % seed]
        for i in range(start, min(first + count, start + per_file)):
            g = sample_generator(seed, i)
            parts.append(generator_source(g))
            planted[g.name] = g.planted
            pipelines.append("%s:%s" % (name, g.name))
        files[name] = "\n".join(parts)
    cmake = [
        "# Written by scripts/genfuzz (seed %s); included by the project that builds the generators." % seed,
        "set(GENFUZZ_SOURCES %s)" % " ".join(sorted(files)),
        "set(GENFUZZ_PIPELINES %s)" % " ".join(pipelines),
        "",
    ]
    files["pipelines.cmake"] = "\n".join(cmake)
    files["planted.json"] = json.dumps(planted, indent=1, sort_keys=True) + "\n"
    return files, planted


def main(argv=None):
    ap = toolmain.ArgumentParser(prog="genfuzz", description=__doc__.splitlines()[0])
    sub = ap.add_subparsers(dest="command", required=True)
    g = sub.add_parser("generate")
    g.add_argument("--seed", required=True, type=toolmain.whole(0, 2**31))
    g.add_argument("--count", required=True, type=toolmain.whole(1, 100000))
    g.add_argument("--first", default=0, type=toolmain.whole(0, 10**6))
    g.add_argument("--per-file", default=10, type=toolmain.whole(1, 1000))
    g.add_argument("--out", required=True)
    c = sub.add_parser("check")
    c.add_argument("work")
    c.add_argument("--planted", required=True)
    c.add_argument("--profiles", default="cpu,host")
    c.add_argument("--min-meaningful", default=0.9, type=toolmain.real(0, 1))
    c.add_argument("--json")
    a = ap.parse_args(argv)
    if a.command == "generate":
        files, _ = generate(a.seed, a.count, a.per_file, a.first)
        jsonio.write_all_atomic([(os.path.join(a.out, n), t) for n, t in sorted(files.items())])
        print("genfuzz: %d generators of seed %d in %s" % (a.count, a.seed, a.out))
        return 0
    planted = jsonio.load(a.planted, "give the planted.json that `genfuzz generate` wrote")
    for f in ("list.json", "results.json"):
        if not os.path.exists(os.path.join(a.work, f)):
            raise jsonio.InputError("%s has no %s; run the harness on the generators first" % (a.work, f))
    profiles = [p for p in a.profiles.split(",") if p]
    rows = genfuzz_check.check(a.work, planted, profiles)
    s = genfuzz_check.summary(rows)
    print(genfuzz_check.table(rows, s, profiles))
    if a.json:
        jsonio.write_atomic(a.json, json.dumps(s, indent=1, sort_keys=True) + "\n")
    missed = []
    if s["meaningful"] < a.min_meaningful * s["built"] or s["built"] == 0:
        missed.append(
            "meaningful verdicts %d of %d built (< %.0f %%)" % (s["meaningful"], s["built"], 100 * a.min_meaningful)
        )
    for judged, what in (("false", "a reason nothing planted explains"), ("invalid", "a generator that failed")):
        if s["no_verdict"][judged]:
            missed.append("%d with %s: %s" % (len(s["no_verdict"][judged]), what, ", ".join(s["no_verdict"][judged])))
    if missed:
        print("genfuzz: targets missed: " + "; ".join(missed), file=sys.stderr)
        return 1
    return 0


if __name__ == "__main__":
    sys.exit(toolmain.run("genfuzz", main))
