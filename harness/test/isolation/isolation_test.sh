#!/bin/sh
# isolation_test.sh CMAKE CTEST BUILD_DIR SOURCE_DIR HALIDE_PREFIX [WORK_DIR]
# One bad generator never blocks the rest (issue "real generators", point 1): installs BUILD_DIR into a
# temp prefix and builds harness/test/isolation (five generators through the package, no spec, cpu and
# host profiles). The build must succeed although one generator does not compile, one calls code nobody
# links and one has no derivable case; `list` and `bless --all` must work; the plain pipeline and the one
# whose input starts at x + 10 must PASS; every other run must be an ERROR naming why, and not retried.
set -eu
cmake=$1 ctest=$2 build=$3 src=$4 halide=$5
work=${6:-$(mktemp -d "${TMPDIR:-/tmp}/isolation.XXXXXX")}
fail() { echo "isolation: FAIL: $*" >&2; exit 1; }
start=$(date +%s)
rm -rf "$work/prefix" "$work/build"
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

"$h" list >"$work/list.txt" || fail "list: $(cat "$work/list.txt")"
for p in plain offset broken unlinked nocase; do grep -q "^  $p " "$work/list.txt" || fail "list lacks $p"; done
"$h" describe offset >"$work/describe.txt" || fail "describe offset"
grep -q "input  input .* from (10,-3)" "$work/describe.txt" || fail "offset's input does not start at (10,-3): $(cat "$work/describe.txt")"
grep -q "scalars guessed" "$work/describe.txt" || fail "offset's guessed scalar is not noted"
for p in broken unlinked nocase; do "$h" describe "$p" >/dev/null || fail "describe $p crashed or failed"; done

if "$h" bless --all >"$work/bless.txt" 2>"$work/bless.err"; then fail "bless --all passed although three pipelines cannot be blessed"; fi
grep -q "blessed golden/plain/small.npy" "$work/bless.txt" || fail "plain was not blessed beside the broken ones"
grep -q "blessed golden/offset/small.npy" "$work/bless.txt" || fail "offset was not blessed beside the broken ones"
grep -q "not blessed: nocase/default: no case could be made" "$work/bless.err" || fail "nocase's reason: $(cat "$work/bless.err")"

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
if grep -E " (broken|unlinked|nocase)/" "$work/run.txt" | grep -q "retr"; then fail "a deterministic ERROR was retried"; fi
"$ctest" --test-dir "$work/build" -R '^(plain|offset)/' -j2 >"$work/ctest.log" 2>&1 || { cat "$work/ctest.log"; fail "ctest of the good pipelines"; }
echo "isolation: PASS ($(($(date +%s) - start)) s)"
[ -n "${6:-}" ] || rm -rf "$work"
