#!/bin/sh
# own_project_test.sh CMAKE CTEST BUILD_DIR SOURCE_DIR HALIDE_PREFIX WORK_DIR [core|tools]
# The installed package from an outside project's point of view. Everything the outside project uses
# comes from the temp install prefix and Halide: nothing of this repository's checkout but the copied
# examples/own-project (and, for the checks only, harnesslib's browser test and LAVA's validator).
#   core (label package, unit): installs BUILD_DIR into WORK_DIR/prefix, copies examples/own-project (its
#     goldens are written there, never into the source tree), configures it against the prefix and Halide
#     only (cpu, host, opencl; a C++, a JSON, a metadata-only and a Python generator), builds, blesses,
#     runs ctest; checks the derived cases, measured errors, that a wrong golden fails and a bad JSON
#     spec fails the build with one line; `aot-harness bench` (Google Benchmark JSON with every counter),
#     `bench --kernels` on box_blur's profiled host twin (Halide's per-Func times), and every tool's --help.
#   tools (label package, nightly; after core, in the same WORK_DIR): `aot-harness nightly` twice, the
#     second on another OpenCL driver (PoCL, then Oclgrind as the only ICD), `history list`, `compare`
#     (must flag the slowdown), `dashboard` (opened in headless Chromium), `driver-diff` (must report
#     Oclgrind as worse), `device-ctest --runner local`, and `lava-job` (jobs LAVA's own schema accepts).
# Both append the commands they run and what came out to WORK_DIR/transcript.txt.
set -eu
cmake=$1 ctest=$2 build=$3 src=$4 halide=$5 work=$6 part=${7:-core}
fail() { echo "own-project: FAIL: $*" >&2; exit 1; }
start=$(date +%s)
mkdir -p "$work/logs"
T="$work/transcript.txt"
# step NAME CMD...: runs CMD, its output to logs/NAME.log and (the last lines) to the transcript;
# returns CMD's exit status.
step() {
  name=$1
  shift
  printf '\n$ %s\n' "$*" | sed -e "s|$work|\$WORK|g" -e "s|$src|\$REPO|g" -e "s|^\$ $cmake |\$ cmake |" \
    -e "s|^\$ $ctest |\$ ctest |" >> "$T"
  step_rc=0
  "$@" > "$work/logs/$name.log" 2>&1 || step_rc=$?
  tail -n "${TAIL:-25}" "$work/logs/$name.log" | sed "s|$work|\$WORK|g" >> "$T"
  [ "$step_rc" = 0 ] || echo "[exit $step_rc]" >> "$T"
  return "$step_rc"
}
exe="$work/build/bin/aot-harness"

if [ "$part" = core ]; then
  rm -rf "$work/prefix" "$work/src" "$work/build" "$work/golden-bad" "$work/logs"/* "$T"
  printf '# examples/own-project from a temporary install prefix (cmake/own_project_test.sh), %s UTC\n' \
    "$(date -u '+%Y-%m-%d %H:%M')" > "$T"
  step install "$cmake" --install "$build" --prefix "$work/prefix" || fail "install"
  cp -r "$src/examples/own-project" "$work/src"
  rm -rf "$work/src/golden" "$work/src/out"
  # Halide from CMAKE_PREFIX_PATH alone, as for a user whose Halide is not in an active virtualenv: PATH
  # keeps no entry whose prefix (the entry, or its parent for .../bin) holds a Halide CMake package (a
  # virtualenv's bin/ leads find_package to the wheel's <venv>/share/cmake/Halide), and Halide_DIR must
  # lie under the given prefix.
  outside_path="" ifs=$IFS
  IFS=:
  for d in $PATH; do
    p=${d%/} keep=1
    for c in "${p%/bin}"/share/cmake/[Hh]alide* "${p%/bin}"/lib*/cmake/[Hh]alide*; do
      if [ -e "$c" ]; then keep=0; fi
    done
    if [ "$keep" = 1 ]; then outside_path="$outside_path${outside_path:+:}$d"; fi
  done
  IFS=$ifs PATH=$outside_path
  TAIL=12 step configure "$cmake" -S "$work/src" -B "$work/build" -G Ninja -DCMAKE_BUILD_TYPE=Release \
    "-DCMAKE_PREFIX_PATH=$work/prefix;$halide" "-DHARNESS_PROFILES=cpu;host;opencl" ||
    { cat "$work/logs/configure.log"; fail "configure"; }
  halide_dir=$(sed -n 's/^Halide_DIR:[A-Z]*=//p' "$work/build/CMakeCache.txt")
  case "$halide_dir" in "$halide"/*) ;; *) fail "Halide was found at $halide_dir, not under the prefix given ($halide)" ;; esac
  TAIL=3 step build "$cmake" --build "$work/build" -j2 || { tail -40 "$work/logs/build.log"; fail "build"; }
  [ -x "$exe" ] || fail "no aot-harness in the outside build tree's bin/"
  # A pipeline without a C++ spec compiles one generated source: it must stay a registration (a few dozen
  # lines preprocessed), not the harness's headers (tens of thousands), which cost seconds a pipeline.
  for f in "$work/build"/*.derived_spec.cpp; do
    [ -f "$f" ] || fail "no derived spec source in the outside build tree"
    n=$(c++ -E -P -I"$work/prefix/include" "$f" | wc -l)
    [ "$n" -lt 100 ] || fail "$(basename "$f") preprocesses to $n lines: include harness/derived_spec_registrar.h only"
  done
  # The estimates probe is never run: built without assertions and bounds queries, most of its compile time.
  probes=$(grep -o 'target=[^ ]* autoscheduler=EstimatesOnly' "$work/build/build.ninja") || fail "no estimates probe was built"
  echo "$probes" | grep -v 'no_asserts' | grep -q . && fail "an estimates probe is built with assertions: $probes"
  echo "$probes" | grep -v 'no_bounds_query' | grep -q . && fail "an estimates probe is built with bounds queries: $probes"
  step bless "$exe" bless --all || fail "bless"
  [ -f "$work/src/golden/MANIFEST.json" ] || fail "goldens are not in golden/ beside the CMakeLists.txt"
  TAIL=4 step ctest "$ctest" --test-dir "$work/build" -L precommit -j2 --output-on-failure --no-tests=error ||
    { cat "$work/logs/ctest.log"; fail "ctest"; }
  echo "own-project: find_package to green ctest (install, configure, build, bless, ctest): $(($(date +%s) - start)) s"
  # Never green when nothing ran: a selection whose every test is SKIP (no OpenCL platform of that name)
  # fails, naming the reason, also when re-run; a mix of passes and skips does not.
  if HL_OCL_PLATFORM_NAME=nope "$ctest" --test-dir "$work/build" -L precommit -R '^threshold/opencl/' -j2 \
       --output-on-failure --no-tests=error > "$work/logs/ctest-skips.log" 2>&1; then
    cat "$work/logs/ctest-skips.log"; fail "ctest exited 0 though every selected test was SKIP"
  fi
  grep -q "harness test(s) of this ctest were SKIP, so nothing was tested (e.g. threshold/opencl/" \
    "$work/logs/ctest-skips.log" || { cat "$work/logs/ctest-skips.log"; fail "the all-skipped check does not say why"; }
  HL_OCL_PLATFORM_NAME=nope "$ctest" --test-dir "$work/build" --rerun-failed > "$work/logs/ctest-rerun.log" 2>&1 &&
    { cat "$work/logs/ctest-rerun.log"; fail "ctest --rerun-failed of an all-skipped run exited 0"; }
  HL_OCL_PLATFORM_NAME=nope "$ctest" --test-dir "$work/build" -L precommit -R '^threshold/(cpu|opencl)/' \
    --no-tests=error > "$work/logs/ctest-mix.log" 2>&1 || { cat "$work/logs/ctest-mix.log"; fail "passes and skips failed"; }

  for p in tone_curve box_blur threshold sharpen; do
    n=$(grep -c "^ *[0-9]*/[0-9]* Test *#[0-9]*: $p/" "$work/logs/ctest.log" || true)
    [ "$n" -gt 0 ] || fail "no ctest tests for $p"
    echo "own-project: $p: $n tests"
  done
  list=$("$exe" list)
  echo "$list" | grep -q "cases: small odd estimate(nightly)" || fail "tone_curve's derived cases are not small odd estimate: $list"
  "$exe" describe sharpen | grep -q "4096" || fail "the Python generator's estimate (4096) is not in its derived cases"
  "$exe" run --pipeline tone_curve --profile host --case small > "$work/run.txt" ||
    { cat "$work/run.txt"; fail "tone_curve/host/small"; }
  grep -q "matches golden: max abs error 0 within Exact" "$work/run.txt" || fail "no measured error in: $(cat "$work/run.txt")"
  "$exe" run --pipeline box_blur --profile host --case odd > "$work/run.txt" || true
  grep -q "max rel error .* within AbsRel" "$work/run.txt" || fail "no measured float error in: $(cat "$work/run.txt")"

  # A wrong golden must fail (the tests can fail).
  cp -r "$work/src/golden" "$work/golden-bad"
  python3 - "$work/golden-bad" <<'PY'
import json, sys, hashlib, pathlib
d = pathlib.Path(sys.argv[1]); f = d / "tone_curve" / "small.npy"
b = bytearray(f.read_bytes()); b[-1] ^= 0xFF; f.write_bytes(bytes(b))
m = json.loads((d / "MANIFEST.json").read_text())
for e in m["goldens"]:
    if e["file"] == "tone_curve/small.npy": e["sha256"] = hashlib.sha256(bytes(b)).hexdigest()
(d / "MANIFEST.json").write_text(json.dumps(m))
PY
  if "$exe" run --pipeline tone_curve --profile cpu --case small --golden-dir "$work/golden-bad" > "$work/run.txt"; then
    fail "a wrong golden passed: $(cat "$work/run.txt")"
  fi
  grep -Eq "^(\[[0-9]+/[0-9]+ +[0-9.]+s\] )?FAIL " "$work/run.txt" || fail "a wrong golden is not FAIL: $(cat "$work/run.txt")"

  # bench: every selected pipeline x profile x case, Google Benchmark's JSON with the counters.
  step bench "$exe" bench --pipeline 'sharpen,threshold' --profile host,opencl --case small --quick \
    --json "$work/bench.json" || fail "bench (log $work/logs/bench.log)"
  python3 - "$work/bench.json" <<'PY' || fail "bench.json"
import json, sys
doc = json.load(open(sys.argv[1]))
names = {b["run_name"]: b for b in doc["benchmarks"]}
want = ["BM_sharpen/host/small/resident", "BM_sharpen/opencl/small/resident", "BM_sharpen/opencl/small/roundtrip",
        "BM_threshold/host/small/resident"]
for w in want:
    b = next((v for k, v in names.items() if k.startswith(w)), None)
    assert b, "missing %s in %s" % (w, sorted(names))
    assert not b.get("error_occurred"), b
    for c in ("pixels_per_second", "bytes_per_second", "pct_of_copy_bw"):
        assert b.get(c, 0) > 0, (w, c, b)
assert "device.opencl" in doc["context"] and "copy_reference.opencl" in doc["context"], doc["context"]
# the package's own Release Google Benchmark (carried under the prefix), not a system debug build
assert doc["context"].get("library_build_type") == "release", doc["context"].get("library_build_type")
assert not any(k.startswith("BM_") and "/host/" in k and "roundtrip" in k for k in names), "host has no roundtrip"
print("bench.json: %d benchmarks, all with pixels/s, bytes/s and %% of copy" % len(names))
PY
  # bench --kernels on box_blur's host variant, whose profiled twin FUNC_PROFILE built: Halide's profiler per Func,
  # the generator's Funcs (blur_x, output; blur_y and clamped are inlined), every call counted. --quick: one timed
  # call and two profiled ones (a call of the large case is many of the profiler's 1 ms samples).
  step func_times "$exe" bench --pipeline box_blur --profile host --case large --kernels --quick \
    --json "$work/func_times.json" || fail "bench --kernels (log $work/logs/func_times.log)"
  python3 - "$work/func_times.json" <<'PY' || fail "bench --kernels: no per-Func times (log $work/logs/func_times.log)"
import json, sys
b = json.load(open(sys.argv[1]))["kernels"]["BM_box_blur/host/large/resident"]
funcs = {f["func"]: f["ms_per_call"] for f in b.get("funcs", [])}
assert b.get("variant") == "box_blur__host__profiled" and b.get("runs") == b.get("calls") > 0, b
assert {"blur_x", "output"} <= set(funcs), (sorted(funcs), b)
assert b["funcs_ms_per_call"] <= b["pipeline_ms_per_call"] * 1.000001 <= b["wall_ms_per_call"] * 1.02, b
print("func_times: %d calls, Funcs %s" % (b["calls"], ", ".join("%s %.3f ms" % kv for kv in funcs.items())))
PY
  "$exe" bench --pipeline nosuch > "$work/run.txt" 2>&1 && fail "bench of an unknown pipeline passed"
  grep -q "aot-harness: error: .*nosuch" "$work/run.txt" || fail "bench's bad-filter error: $(cat "$work/run.txt")"

  # Triage from the package (package/triage_outside runs bisect and the bundles in full, nightly): bisect's
  # plugin and generator main are targets of the outside build, left for bisect to build on first use,
  # and a Python generator's variant packs into a repro bundle.
  "$cmake" --build "$work/build" --target harness_bisect_plugin harness-bisect-generator -- -n >"$work/run.txt" 2>&1 ||
    fail "the outside build has no bisect targets: $(tail -3 "$work/run.txt")"
  [ ! -e "$work/build/bin/libharness_bisect_plugin.so" ] || fail "the build compiled bisect's plugin although nothing bisects"
  "$exe" repro sharpen/host/small --no-prebuilt --out "$work/sharpen-repro.tar.gz" >"$work/run.txt" 2>&1 ||
    fail "repro of the Python generator's variant: $(cat "$work/run.txt")"
  tar -tzf "$work/sharpen-repro.tar.gz" | grep -q "run.sh" || fail "the repro bundle has no run.sh"

  # Every tool through the outside project's aot-harness, from the prefix.
  for tool in nightly history compare dashboard driver-diff merge device-ctest lava-job bisect-commit explore; do
    "$exe" "$tool" --help > "$work/run.txt" 2>&1 || fail "aot-harness $tool --help: $(cat "$work/run.txt")"
    grep -qi "usage" "$work/run.txt" || fail "aot-harness $tool --help printed no usage: $(cat "$work/run.txt")"
  done
  TAIL=14 step tools-help "$exe" compare --help || true
  AOT_HARNESS_TOOLS="$work/nowhere" "$exe" compare --help > "$work/run.txt" 2>&1 && fail "a missing tool ran"
  grep -q "^aot-harness: error: the compare tool is missing: $work/nowhere/compare" "$work/run.txt" ||
    fail "a missing tool's message: $(cat "$work/run.txt")"

  # A bad JSON spec fails the build with one line: file, key, fix.
  sed 's/"reason": "25-term/"reasn": "25-term/' "$src/examples/own-project/box_blur/box_blur.json" > "$work/src/box_blur/box_blur.json"
  if "$cmake" --build "$work/build" >"$work/bad.log" 2>&1; then fail "a bad JSON spec built"; fi
  grep -q "aot-harness: error: box_blur/box_blur.json: tolerance.reasn: unknown key; use one of: kind, atol, rtol, ulp, min_db, max_fraction, nan_equal, reason" "$work/bad.log" ||
    { tail -20 "$work/bad.log"; fail "the bad spec's message is not the one line expected"; }
  cp "$src/examples/own-project/box_blur/box_blur.json" "$work/src/box_blur/box_blur.json"
  "$cmake" --build "$work/build" >"$work/bad.log" 2>&1 || fail "rebuild with the good spec"
  echo "own-project: core PASS ($(($(date +%s) - start)) s)"
  exit 0
fi

# ---- tools: nightly, history, compare, dashboard, driver-diff, device-ctest, lava-job ----------------------
[ -x "$exe" ] || fail "run the core part first (no $exe)"
cd "$work/src"  # as a user would, in the project; out/ goes here
rm -rf "$work/src/out" "$work/ocl"
oclgrind=/usr/lib/oclgrind/liboclgrind-rt-icd.so
nightly="--profile host --profile opencl --case small --repetitions 9 --min-time 0.002"
# shellcheck disable=SC2086
TAIL=8 step nightly-pocl "$exe" nightly $nightly --label pocl || fail "nightly (PoCL) (log $work/logs/nightly-pocl.log)"
if [ -f "$oclgrind" ]; then
  mkdir -p "$work/ocl" && echo "$oclgrind" > "$work/ocl/oclgrind.icd"
  # shellcheck disable=SC2086
  OCL_ICD_VENDORS="$work/ocl" TAIL=25 step nightly-oclgrind "$exe" nightly $nightly --label oclgrind || {
    rc=$?; [ "$rc" = 1 ] || fail "nightly (Oclgrind) exited $rc (log $work/logs/nightly-oclgrind.log)"; }
else
  echo "own-project: no Oclgrind ($oclgrind): the second nightly runs on PoCL again" >&2
  # shellcheck disable=SC2086
  step nightly-pocl2 "$exe" nightly $nightly --label pocl || true
fi
db="$work/src/out/history.sqlite"
[ -f "$db" ] || fail "the nightlies wrote no history at the project's out/history.sqlite"
step history "$exe" history list || fail "history list"
runs=$(grep -c "complete\|failed" "$work/logs/history.log" || true)
[ "$runs" -ge 2 ] || fail "the history has $runs runs, not 2: $(cat "$work/logs/history.log")"
rc=0; TAIL=30 step compare "$exe" compare latest~1 latest || rc=$?
if [ -f "$oclgrind" ]; then
  [ "$rc" = 1 ] || fail "compare of PoCL vs Oclgrind exited $rc, not 1 (a regression)"
  grep -q "opencl" "$work/logs/compare.log" || fail "compare names no opencl benchmark"
fi
step dashboard "$exe" dashboard || fail "dashboard"
[ -f "$work/src/out/dashboard/index.html" ] || fail "no dashboard at the project's out/dashboard/"
if command -v chromium >/dev/null 2>&1; then
  TAIL=4 step dashboard-browser env PYTHONPATH="$src/scripts" python3 -m harnesslib.dashboard.browser_test \
    --page "$work/src/out/dashboard/index.html" --keep "$work/browser" || fail "the dashboard in headless Chromium"
fi
rc=0; TAIL=40 step driver-diff "$exe" driver-diff latest~1 latest --out "$work/driver-diff" || rc=$?
[ -f "$work/driver-diff/driver-diff.md" ] && [ -f "$work/driver-diff/driver-diff.html" ] || fail "no driver-diff report"
TAIL=60 step driver-diff-report cat "$work/driver-diff/driver-diff.md" || true
if [ -f "$oclgrind" ]; then
  [ "$rc" = 1 ] || fail "driver-diff PoCL -> Oclgrind exited $rc, not 1 (worse)"
  grep -qi "oclgrind" "$work/driver-diff/driver-diff.md" || fail "the driver-diff report does not name Oclgrind"
fi
TAIL=12 step device-ctest "$exe" device-ctest --runner local -- -L precommit -R '^sharpen/' ||
  fail "device-ctest --runner local"
grep -q 'sharpen/opencl/small' "$work/src/out/device-local/junit.xml" || fail "device-ctest's junit.xml lacks sharpen/opencl/small"
step bundle "$exe" device-ctest --runner local --bundle "$work/bundle.tar.gz" || fail "device-ctest --bundle"
step lava-job "$exe" lava-job --bundle "$work/bundle.tar.gz" --bundle-url "file://$work/bundle.tar.gz" \
  --device-type ssh --shards 2 --out "$work/lava" || fail "lava-job"
/usr/bin/python3 - "$work/lava" <<'PY' || fail "LAVA's validator rejected a job"
import glob, sys, yaml
from lava_common.schemas import validate
jobs = sorted(glob.glob(sys.argv[1] + "/*.yaml"))
assert len(jobs) == 2, jobs
for j in jobs:
    validate(yaml.safe_load(open(j)), strict=True)  # raises on any schema error
print("lava: %d jobs valid under lava_common.schemas.validate" % len(jobs))
PY
echo "own-project: tools PASS ($(($(date +%s) - start)) s)"
