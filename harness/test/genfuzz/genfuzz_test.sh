#!/bin/sh
# genfuzz_test.sh CMAKE CTEST BUILD_DIR SOURCE_DIR HALIDE_PREFIX WORK_DIR SEED COUNT PROFILES
# The generator fuzzer at nightly size: COUNT random generators of SEED (scripts/genfuzz generate), built
# as a new user builds generators, through BUILD_DIR installed into a prefix (project/CMakeLists.txt, no
# spec, the profiles PROFILES, comma-separated), then blessed, run and checked (genfuzz_run.sh): at least
# 90 % of those built must get a meaningful verdict, and every other one an ERROR or flag whose reason is
# true. WORK_DIR keeps the sources, the build, the goldens, results.json, genfuzz.md and timings.txt.
set -eu
cmake=$1 ctest=$2 build=$3 src=$4 halide=$5 work=$6 seed=$7 count=$8 profiles=$9
py=python3
[ -x /usr/bin/python3 ] && py=/usr/bin/python3
fail() { echo "genfuzz: FAIL: $*" >&2; exit 1; }
here="$src/harness/test/genfuzz"
rm -rf "$work/prefix" "$work/build" "$work/golden" "$work/gen"
mkdir -p "$work"
t0=$(date +%s)
PYTHONPATH="$src/scripts" PYTHONDONTWRITEBYTECODE=1 "$py" -m harnesslib.genfuzz.genfuzz generate --seed "$seed" \
  --count "$count" --out "$work/gen" || fail "genfuzz generate"
"$cmake" --install "$build" --prefix "$work/prefix" >/dev/null
"$cmake" -S "$here/project" -B "$work/build" -G Ninja -DCMAKE_BUILD_TYPE=Release "-DCMAKE_PREFIX_PATH=$work/prefix;$halide" \
  "-DHARNESS_PROFILES=$(echo "$profiles" | tr , ';')" "-DGENFUZZ_DIR=$work/gen" "-DGENFUZZ_GOLDEN_DIR=$work/golden" \
  >"$work/configure.log" 2>&1 || { tail -30 "$work/configure.log"; fail "configure"; }
"$cmake" --build "$work/build" -j2 >"$work/build.log" 2>&1 || { tail -40 "$work/build.log"; fail "the build stopped"; }
t_build=$(date +%s)
sh "$here/genfuzz_run.sh" "$work/build/bin/aot-harness" "$work" "$work/gen/planted.json" "$profiles" 0.9 && rc=0 || rc=$?
t_end=$(date +%s)
{
  echo "generate + install + configure + build of $count generators: $((t_build - t0)) s"
  echo "list, describe, bless, run ($profiles), check: $((t_end - t_build)) s"
} | tee "$work/timings.txt"
exit "$rc"
