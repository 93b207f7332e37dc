#!/bin/sh
# corpus_test.sh CMAKE CTEST BUILD_DIR SOURCE_DIR HALIDE_PREFIX [WORK_DIR]
# The generators of Halide's apps/ in Debian's halide source package (14.0.0-3, written for Halide 14) as a
# new user meets the package: debian_halide_source.sh downloads and checks the package into a cache
# ($AOT_HARNESS_CACHE_DIR, else $XDG_CACHE_HOME/aot-harness, else ~/.cache/aot-harness); then install
# BUILD_DIR into a prefix, configure harness/test/corpus (no spec; GeneratorParams only where a generator
# cannot build without them), build, bless, run cpu/host/opencl, ctest; then Halide's RunGen on the same
# generators with its default-input flags; then corpus_table.py writes the table and checks the targets
# (>= 90 % of the generators that built with a meaningful verdict, every other one an ERROR naming why,
# a verdict wherever RunGen gives a meaningful output). Label nightly: it builds ~70 generators x 4 variants.
# WORK_DIR keeps the build, the goldens, results.json, rungen.json, corpus.md and timings.txt.
# CORPUS_ONLY (environment, a ;-list of pipelines) builds only those.
set -eu
cmake=$1 ctest=$2 build=$3 src=$4 halide=$5
work=${6:-$(mktemp -d "${TMPDIR:-/tmp}/corpus.XXXXXX")}
py=python3
[ -x /usr/bin/python3 ] && py=/usr/bin/python3  # Debian's, with numpy
fail() { echo "corpus: FAIL: $*" >&2; exit 1; }
here="$src/harness/test/corpus"
apps=$(sh "$here/debian_halide_source.sh" ${AOT_HARNESS_CACHE_DIR:+"$AOT_HARNESS_CACHE_DIR"})/apps || fail "no corpus (above)"
rm -rf "$work/prefix" "$work/build" "$work/golden" "$work/describe"
mkdir -p "$work/describe"
t0=$(date +%s)
"$cmake" --install "$build" --prefix "$work/prefix" >/dev/null
"$cmake" -S "$here" -B "$work/build" -G Ninja -DCMAKE_BUILD_TYPE=Release "-DCMAKE_PREFIX_PATH=$work/prefix;$halide" \
  "-DHARNESS_PROFILES=cpu;host;opencl" "-DCORPUS_DIR=$apps" "-DCORPUS_GOLDEN_DIR=$work/golden" \
  -DCORPUS_RUNGEN=ON "-DCORPUS_ONLY=${CORPUS_ONLY:-}" >"$work/configure.log" 2>&1 || { tail -30 "$work/configure.log"; fail "configure"; }
"$cmake" --build "$work/build" -j2 >"$work/build.log" 2>&1 || { tail -40 "$work/build.log"; fail "the build stopped"; }
[ -x "$work/build/bin/aot-harness" ] || fail "no aot-harness was built"
t_build=$(date +%s)
h="$work/build/bin/aot-harness"
# One derivation for list, describe, bless and run, as ctest's runs share one: the binary does not change meanwhile.
rm -rf "$work/shapes" && mkdir -p "$work/shapes"
export AOT_HARNESS_SHAPE_CACHE="$work/shapes"
"$h" list --json >"$work/list.json" || fail "list"
for p in $("$py" -c 'import json,sys; print(" ".join(p["name"] for p in json.load(open(sys.argv[1]))["pipelines"]))' "$work/list.json"); do
  "$h" describe "$p" --json >"$work/describe/$p.json" || fail "describe $p"
done
"$h" bless --all >"$work/bless.log" 2>&1 || true  # pipelines without a case are named there, the rest blessed
t_bless=$(date +%s)
"$h" run --profile cpu,host,opencl --json "$work/results.json" >"$work/run.log" 2>&1 || true
"$ctest" --test-dir "$work/build" -L precommit -j2 >"$work/ctest.log" 2>&1 || true
t_ctest=$(date +%s)
"$py" "$here/rungen_compare.py" "$work/build/bin" "$work/rungen.json" 2>"$work/rungen.log" || fail "rungen_compare.py"
t_rungen=$(date +%s)
{
  echo "install + configure + build: $((t_build - t0)) s"
  echo "list, describe, bless: $((t_bless - t_build)) s"
  echo "run cpu/host/opencl + ctest -L precommit: $((t_ctest - t_bless)) s ($(tail -n 3 "$work/ctest.log" | head -n 1))"
  echo "find_package to the end of the first ctest: $((t_ctest - t0)) s"
  echo "RunGen, 3 flag sets per generator: $((t_rungen - t_ctest)) s"
} >"$work/timings.txt"
cat "$work/timings.txt"
"$py" "$here/corpus_table.py" "$work" >"$work/corpus.md" || { cat "$work/corpus.md"; fail "targets missed (above)"; }
cat "$work/corpus.md"
echo "corpus: PASS"
