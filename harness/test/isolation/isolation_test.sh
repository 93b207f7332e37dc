#!/bin/sh
# isolation_test.sh CMAKE CTEST BUILD_DIR SOURCE_DIR HALIDE_PREFIX [WORK_DIR]
# One bad generator never blocks the rest: installs BUILD_DIR into a
# temp prefix and builds harness/test/isolation (seven generators through the package, no spec, cpu and
# host profiles). The build must succeed although one generator does not compile, one calls code nobody
# links, one has no derivable case and a Python one (given by absolute path) exits 0 without output;
# `list` and `bless --all` must work; the plain pipeline, the one whose input starts at x + 10 and the
# one that prints on stdout must PASS; every other run must be an ERROR naming why, and not retried.
# Every command with JSON on stdout (list, describe, env, outcomes, run --json -) must print that JSON
# alone although the noisy pipeline prints on stdout in each of them, and ctest must list every
# pipeline's tests. A Python generator path that does not exist fails the configure with one line.
set -eu
cmake=$1 ctest=$2 build=$3 src=$4 halide=$5
work=${6:-$(mktemp -d "${TMPDIR:-/tmp}/isolation.XXXXXX")}
fail() { echo "isolation: FAIL: $*" >&2; exit 1; }
start=$(date +%s)
rm -rf "$work/prefix" "$work/build" "$work/build-badpath"
mkdir -p "$work"
"$cmake" --install "$build" --prefix "$work/prefix" >/dev/null
"$cmake" -S "$src/harness/test/isolation" -B "$work/build" -G Ninja -DCMAKE_BUILD_TYPE=Release \
  "-DCMAKE_PREFIX_PATH=$work/prefix;$halide" "-DHARNESS_PROFILES=cpu;host" >"$work/configure.log" 2>&1 ||
  { cat "$work/configure.log"; fail "configure"; }
halide_dir=$(sed -n 's/^Halide_DIR:[A-Z]*=//p' "$work/build/CMakeCache.txt")
case "$halide_dir" in "$halide"/*) ;; *) fail "Halide was found at $halide_dir, not under the prefix given ($halide)" ;; esac
"$cmake" --build "$work/build" -j2 >"$work/build.log" 2>&1 || { tail -40 "$work/build.log"; fail "the build stopped"; }
h="$work/build/bin/aot-harness"
[ -x "$h" ] || fail "no aot-harness although only three of five generators are broken"
grep -q "the generator source broken_generator.cpp does not compile" "$work/build.log" || fail "no warning for the broken generator"
grep -q "pipeline unlinked does not link (undefined reference to \`isolation_missing_extern'" "$work/build.log" ||
  fail "no warning for the unlinked pipeline: $(grep -i unlinked "$work/build.log" | head -5)"
grep -q "generator nomain__cpu failed .*the Python generator exited 0 but wrote nothing .*end it with: if __name__ == \"__main__\": hl.main()" \
  "$work/build.log" || fail "no warning for the Python generator without hl.main(): $(grep -i nomain "$work/build.log" | head -5)"

"$h" list >"$work/list.txt" || fail "list: $(cat "$work/list.txt")"
for p in plain offset broken unlinked nocase noisy nomain; do grep -q "^  $p " "$work/list.txt" || fail "list lacks $p"; done
"$h" describe offset >"$work/describe.txt" || fail "describe offset"
grep -q "input  input .* from (10,-3)" "$work/describe.txt" || fail "offset's input does not start at (10,-3): $(cat "$work/describe.txt")"
grep -q "scalars guessed" "$work/describe.txt" || fail "offset's guessed scalar is not noted"
for p in broken unlinked nocase nomain; do "$h" describe "$p" >/dev/null || fail "describe $p crashed or failed"; done

if "$h" bless --all >"$work/bless.txt" 2>"$work/bless.err"; then fail "bless --all passed although three pipelines cannot be blessed"; fi
grep -q "blessed golden/plain/small.npy" "$work/bless.txt" || fail "plain was not blessed beside the broken ones"
grep -q "blessed golden/offset/small.npy" "$work/bless.txt" || fail "offset was not blessed beside the broken ones"
grep -q "blessed golden/noisy/small.npy" "$work/bless.txt" || fail "noisy was not blessed beside the broken ones"
grep -q "not blessed: nocase/default: no case could be made" "$work/bless.err" || fail "nocase's reason: $(cat "$work/bless.err")"
grep -q "not blessed: nomain/default: .*hl.main()" "$work/bless.err" || fail "nomain's reason: $(cat "$work/bless.err")"

"$h" run --profile cpu,host --flake-retries 2 >"$work/run.txt" 2>&1 || true
check() {  # check <pipeline> <outcome> <message regex>
  grep -Eq "^\[[0-9/ .s]+\] $2 +$1/" "$work/run.txt" || fail "$1 is not $2: $(grep " $1/" "$work/run.txt" | head -2)"
  grep " $1/" "$work/run.txt" | grep -Eq "$3" || fail "$1's message lacks '$3': $(grep " $1/" "$work/run.txt" | head -1)"
}
check plain PASS "matches golden"
check offset PASS "matches golden"
check broken ERROR "does not compile.*no_such_func"
check unlinked ERROR "pipeline unlinked does not link: undefined reference to .isolation_missing_extern"
check nocase ERROR "no case could be made"
check noisy PASS "matches golden"
check nomain ERROR "the Python generator exited 0 but wrote nothing.*hl.main\(\)"
if grep -E " (broken|unlinked|nocase|nomain)/" "$work/run.txt" | grep -q "retr"; then fail "a deterministic ERROR was retried"; fi
# stdout of every JSON command is that JSON alone; what the noisy pipeline printed went to stderr (so
# that this check can fail: the noise happened).
json_only() {  # json_only <name> <noise expected: 1|0> <command...>
  name=$1 noise=$2
  shift 2
  "$@" >"$work/$name.json" 2>"$work/$name.err" || true  # the outcome is checked elsewhere
  python3 -c 'import json, sys; json.load(open(sys.argv[1]))' "$work/$name.json" 2>/dev/null ||
    fail "$name: stdout is not JSON alone: $(head -c 300 "$work/$name.json")"
  if [ "$noise" = 1 ]; then
    grep -q "aot-harness-test: the noisy pipeline prints on stdout" "$work/$name.err" ||
      fail "$name: the noisy pipeline printed nothing on stderr either: $(head -c 300 "$work/$name.err")"
  fi
}
json_only list 1 "$h" list --json
for p in plain offset broken unlinked nocase noisy nomain; do json_only "describe-$p" 0 "$h" describe "$p" --json; done
json_only describe 1 "$h" describe noisy --json
json_only env 0 "$h" env --json
json_only outcomes 0 "$h" outcomes --json
json_only run 1 "$h" run --pipeline 'noisy,plain' --profile cpu --json -
python3 - "$work/run.json" <<'PY' || fail "run --json -: $(cat "$work/run.json")"
import json, sys
runs = json.load(open(sys.argv[1]))["runs"]
assert sorted({r["pipeline"] for r in runs}) == ["noisy", "plain"], runs
assert all(r["outcome"] == "PASS" for r in runs), runs
PY
# ctest lists every pipeline's tests (a listing broken by the noise would leave none).
"$ctest" --test-dir "$work/build" -N >"$work/ctest-n.log" 2>&1 || { cat "$work/ctest-n.log"; fail "ctest -N"; }
for p in plain offset broken unlinked nocase noisy nomain; do
  grep -q " $p/cpu/" "$work/ctest-n.log" || fail "ctest lists no test of $p: $(tail -5 "$work/ctest-n.log")"
done
"$ctest" --test-dir "$work/build" -R '^(plain|offset|noisy)/' -j2 >"$work/ctest.log" 2>&1 || { cat "$work/ctest.log"; fail "ctest of the good pipelines"; }
# A Python generator path that does not exist: one line naming it and the fix, at configure.
if "$cmake" -S "$src/harness/test/isolation" -B "$work/build-badpath" -G Ninja "-DCMAKE_PREFIX_PATH=$work/prefix;$halide" \
  "-DHARNESS_PROFILES=cpu" -DISOLATION_NOMAIN=/nonexistent/nomain_generator.py >"$work/badpath.log" 2>&1; then
  fail "a Python generator that does not exist configured"
fi
tr '\n' ' ' <"$work/badpath.log" | tr -s ' ' | grep -q "the Python generator /nonexistent/nomain_generator.py does not exist; fix the path given to add_halide_generator(nomain.generator SOURCES ...)" ||
  { cat "$work/badpath.log"; fail "the missing Python generator's message"; }
echo "isolation: PASS ($(($(date +%s) - start)) s)"
[ -n "${6:-}" ] || rm -rf "$work"
