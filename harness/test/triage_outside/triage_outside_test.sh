#!/bin/sh
# triage_outside_test.sh CMAKE CTEST BUILD_DIR SOURCE_DIR HALIDE_PREFIX [WORK_DIR]
# The triage commands from the installed package: installs BUILD_DIR into a temp prefix and builds
# harness/test/triage_outside (a C++ and a Python generator with the same error planted in blur_y on GPU
# targets; cpu and opencl, no spec). `aot-harness bisect` must name blur_y for both (building its plugin
# and generator main in the outside build on first use), and `aot-harness repro` bundles must reproduce
# the failure with a bare environment (exit 1 on opencl) and the pass on cpu (exit 0).
set -eu
cmake=$1 ctest=$2 build=$3 src=$4 halide=$5
work=${6:-$(mktemp -d "${TMPDIR:-/tmp}/triage-outside.XXXXXX")}
fail() { echo "triage-outside: FAIL: $*" >&2; exit 1; }
start=$(date +%s)
rm -rf "$work/prefix" "$work/build"
mkdir -p "$work"
"$cmake" --install "$build" --prefix "$work/prefix" >/dev/null
"$cmake" -S "$src/harness/test/triage_outside" -B "$work/build" -G Ninja -DCMAKE_BUILD_TYPE=Release \
  "-DCMAKE_PREFIX_PATH=$work/prefix;$halide" "-DHARNESS_PROFILES=cpu;opencl" >"$work/configure.log" 2>&1 ||
  { cat "$work/configure.log"; fail "configure"; }
"$cmake" --build "$work/build" -j2 >"$work/build.log" 2>&1 || { tail -40 "$work/build.log"; fail "the build stopped"; }
h="$work/build/bin/aot-harness"
[ ! -e "$work/build/bin/libharness_bisect_plugin.so" ] || fail "the build made the bisect plugin although nothing bisects"
"$h" bless --all >"$work/bless.txt" 2>&1 || { cat "$work/bless.txt"; fail "bless"; }
echo "triage-outside: built and blessed ($(($(date +%s) - start)) s)"

# bisect <pipeline>: exit 1, blur_y named as the first stage that differs, at (5,3).
bisect() {
  rc=0
  "$h" bisect "$1" --profile opencl --case small >"$work/bisect-$1.txt" 2>&1 || rc=$?
  cat "$work/bisect-$1.txt"
  [ "$rc" = 1 ] || fail "bisect $1 exited $rc, not 1 (a stage differs)"
  grep -Eq "first stage that differs: 'blur_y' \(stage [0-9]+ of [0-9]+ in producer order; worst at \(5,3\)" \
    "$work/bisect-$1.txt" || fail "bisect $1 does not name blur_y at (5,3)"
  grep -Eq "blur_x .* same" "$work/bisect-$1.txt" || fail "bisect $1 does not find blur_x the same"
}
bisect planted_py  # first: builds the plugin and harness-bisect-generator in the outside build
grep -q "bisect: building harness_bisect_plugin harness-bisect-generator in $work/build" "$work/bisect-planted_py.txt" ||
  fail "bisect did not say it built its tools"
bisect planted
echo "triage-outside: bisect ($(($(date +%s) - start)) s)"
for p in planted planted_py; do
  sh "$src/harness/test/repro_test.sh" "$h" "$work/build/golden" "$p/opencl/small" 1 \
    "FAIL output: 1 of [0-9]+ elements .*worst at \(5,3\)" device/kernels.cl >"$work/repro-$p.txt" 2>&1 ||
    { cat "$work/repro-$p.txt"; fail "repro $p/opencl/small"; }
  sh "$src/harness/test/repro_test.sh" "$h" "$work/build/golden" "$p/cpu/small" 0 "PASS output" \
    >"$work/repro-$p-cpu.txt" 2>&1 || { cat "$work/repro-$p-cpu.txt"; fail "repro $p/cpu/small"; }
done
echo "triage-outside: PASS ($(($(date +%s) - start)) s)"
[ -n "${6:-}" ] || rm -rf "$work"
