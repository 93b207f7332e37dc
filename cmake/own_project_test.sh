#!/bin/sh
# own_project_test.sh CMAKE CTEST BUILD_DIR SOURCE_DIR HALIDE_PREFIX [WORK_DIR]
# The installed package from an outside project's point of view: installs BUILD_DIR into a temp
# prefix, copies examples/own-project (a clean copy: its goldens are written there, never into the
# source tree), configures it against the prefix and Halide only, builds, blesses and runs ctest on
# cpu, host and opencl. Then checks what a user relies on: the three pipelines have tests, the
# metadata-only one has its derived cases, every PASS reports its measured error next to the
# tolerance, a wrong golden fails, and a bad JSON spec fails the build with one line naming the file,
# the key and the fix.
set -eu
cmake=$1 ctest=$2 build=$3 src=$4 halide=$5
work=${6:-$(mktemp -d "${TMPDIR:-/tmp}/own-project.XXXXXX")}
fail() { echo "own-project: FAIL: $*" >&2; exit 1; }
start=$(date +%s)
rm -rf "$work/prefix" "$work/src" "$work/build" "$work/golden-bad"
mkdir -p "$work"
"$cmake" --install "$build" --prefix "$work/prefix" >/dev/null
cp -r "$src/examples/own-project" "$work/src"
rm -rf "$work/src/golden"
# Nothing of this repository but the installed prefix may be visible to the outside project.
"$cmake" -S "$work/src" -B "$work/build" -G Ninja -DCMAKE_BUILD_TYPE=Release \
  "-DCMAKE_PREFIX_PATH=$work/prefix;$halide" "-DHARNESS_PROFILES=cpu;host;opencl" >"$work/configure.log" 2>&1 ||
  { cat "$work/configure.log"; fail "configure"; }
"$cmake" --build "$work/build" -j2 >"$work/build.log" 2>&1 || { tail -40 "$work/build.log"; fail "build"; }
[ -x "$work/build/bin/aot-harness" ] || fail "no aot-harness in the outside build tree's bin/"
"$work/build/bin/aot-harness" bless --all || fail "bless"
[ -f "$work/src/golden/MANIFEST.json" ] || fail "goldens are not in golden/ beside the CMakeLists.txt"
"$ctest" --test-dir "$work/build" -L precommit -j2 --output-on-failure >"$work/ctest.log" 2>&1 ||
  { cat "$work/ctest.log"; fail "ctest"; }
cat "$work/ctest.log" | tail -3
green=$(date +%s)
echo "own-project: find_package to green ctest (install, configure, build, bless, ctest): $((green - start)) s"

list=$("$work/build/bin/aot-harness" list)
for p in tone_curve box_blur threshold; do
  n=$(grep -c "^ *[0-9]*/[0-9]* Test *#[0-9]*: $p/" "$work/ctest.log" || true)
  [ "$n" -gt 0 ] || fail "no ctest tests for $p"
  echo "own-project: $p: $n tests"
done
echo "$list" | grep -q "cases: small odd estimate(nightly)" || fail "tone_curve's derived cases are not small odd estimate: $list"
"$work/build/bin/aot-harness" run --pipeline tone_curve --profile host --case small > "$work/run.txt" ||
  { cat "$work/run.txt"; fail "tone_curve/host/small"; }
grep -q "matches golden: max abs error 0 within Exact" "$work/run.txt" || fail "no measured error in: $(cat "$work/run.txt")"
"$work/build/bin/aot-harness" run --pipeline box_blur --profile host --case odd > "$work/run.txt" || true
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
if "$work/build/bin/aot-harness" run --pipeline tone_curve --profile cpu --case small --golden-dir "$work/golden-bad" > "$work/run.txt"; then
  fail "a wrong golden passed: $(cat "$work/run.txt")"
fi
grep -Eq "^(\[[0-9]+/[0-9]+ +[0-9.]+s\] )?FAIL " "$work/run.txt" || fail "a wrong golden is not FAIL: $(cat "$work/run.txt")"

# A bad JSON spec fails the build with one line: file, key, fix.
sed 's/"reason": "25-term/"reasn": "25-term/' "$src/examples/own-project/box_blur/box_blur.json" > "$work/src/box_blur/box_blur.json"
if "$cmake" --build "$work/build" >"$work/bad.log" 2>&1; then fail "a bad JSON spec built"; fi
grep -q "aot-harness: error: box_blur/box_blur.json: tolerance.reasn: unknown key; use one of: kind, atol, rtol, ulp, min_db, max_fraction, nan_equal, reason" "$work/bad.log" ||
  { tail -20 "$work/bad.log"; fail "the bad spec's message is not the one line expected"; }
cp "$src/examples/own-project/box_blur/box_blur.json" "$work/src/box_blur/box_blur.json"
echo "own-project: PASS ($(($(date +%s) - start)) s)"
[ -n "${6:-}" ] || rm -rf "$work"
