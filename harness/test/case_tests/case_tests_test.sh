#!/bin/sh
# case_tests_test.sh CMAKE CTEST SOURCE_DIR WORK_DIR
# The CTest files made from `aot-harness list --json` (cmake/HarnessWriteCaseTests.cmake, through
# harness_discover_cases) never leave an empty suite that passes. An aot-harness stand-in (a shell
# script) lists in each way a real one can go wrong: ctest must exit non-zero with a line saying what
# is wrong in every case, whatever -L selects, and run the per-case tests when the listing is good.
set -eu
cmake=$1 ctest=$2 src=$3 work=$4
fail() { echo "case-tests: FAIL: $*" >&2; exit 1; }
rm -rf "$work"
mkdir -p "$work"
fake="$work/aot-harness"
good='{"platform": "x86-64-linux", "profiles": [{"name": "cpu"}, {"name": "host"}], "pipelines": [
  {"name": "blur", "profiles": [{"name": "cpu", "runtime": "none"}], "cases": [{"name": "small", "nightly": false}]}]}'
# stand_in <mode>: the fake aot-harness: `list --json` as <mode> says, `run` exits 0 (a PASS).
stand_in() {
  if [ "$1" = unbuilt ]; then rm -f "$fake"; return; fi
  cat >"$fake" <<SH
#!/bin/sh
if [ "\$1" = run ]; then exit 0; fi
case $1 in
  good) echo '$good' ;;
  noise) echo 'Error: Input buffer b0 is accessed at 63, which is beyond the max (3) in dimension 0'; echo '$good' ;;
  fails) echo 'aot-harness: error: profiles.json: bad profile; fix it' >&2; exit 2 ;;
  empty) echo '{"platform": "x86-64-linux", "profiles": [], "pipelines": []}' ;;
  nocases) echo '{"platform": "x86-64-linux", "profiles": [{"name": "cpu"}], "pipelines": [{"name": "blur", "profiles": [{"name": "cpu", "runtime": "none"}]}]}' ;;
esac
SH
  chmod +x "$fake"
  touch -d '+2 seconds' "$fake"  # newer than the last listing: ctest lists again
}
# expect <mode> <ctest exit: zero|nonzero> <regex of its output> [ctest args]
expect() {
  mode=$1 want=$2 regex=$3
  shift 3
  stand_in "$mode"
  rc=0
  "$ctest" --test-dir "$work/build" --output-on-failure "$@" >"$work/$mode.log" 2>&1 || rc=$?
  if [ "$want" = zero ] && [ "$rc" != 0 ]; then cat "$work/$mode.log"; fail "$mode: ctest $* exited $rc"; fi
  if [ "$want" = nonzero ] && [ "$rc" = 0 ]; then cat "$work/$mode.log"; fail "$mode: ctest $* passed"; fi
  # CMake wraps its messages: the lines joined, runs of spaces as one.
  tr '\n' ' ' <"$work/$mode.log" | tr -s ' ' | grep -Eq "$regex" ||
    { cat "$work/$mode.log"; fail "$mode: ctest's output lacks '$regex'"; }
  echo "case-tests: $mode: ctest $* exited $rc"
}
"$cmake" -S "$src/harness/test/case_tests" -B "$work/build" "-DHARNESS_CMAKE_DIR=$src/cmake" \
  "-DFAKE_HARNESS=$fake" >"$work/configure.log" 2>&1 || { cat "$work/configure.log"; fail "configure"; }

# Not built yet: a failing test, selected by every label a case test has.
expect unbuilt nonzero "aot-harness is not built" -L cpu
expect good zero "blur/cpu/small .*Passed"
expect noise nonzero "stdout is not the listing's JSON \(it begins 'Error: Input buffer b0"
expect noise nonzero "stdout is not the listing's JSON" -L nightly
[ ! -f "$work/build/aot-harness_cases.cmake" ] || fail "a failed listing left its tests file behind"
expect fails nonzero "list --json' failed \(exit 2: aot-harness: error: profiles.json: bad profile; fix it\)"
expect empty nonzero "lists no pipeline"
expect nocases nonzero "blur/no-tests .*pipeline blur has 1 profile\(s\) and 0 case\(s\)" -L host
expect good zero "blur/cpu/small .*Passed"
echo "case-tests: PASS"
