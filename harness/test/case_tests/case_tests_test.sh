#!/bin/sh
# case_tests_test.sh CMAKE CTEST SOURCE_DIR WORK_DIR
# The CTest files made from `aot-harness list --json` (cmake/HarnessWriteCaseTests.cmake, through
# harness_discover_cases) never leave an empty suite that passes. An aot-harness stand-in (a shell
# script) lists in each way a real one can go wrong: ctest must exit non-zero with a line saying what
# is wrong in every case, whatever -L selects, and run the per-case tests when the listing is good; and
# when every selected test is a SKIP, ctest must fail too (the all-skipped check), however selected.
set -eu
cmake=$1 ctest=$2 src=$3 work=$4
fail() { echo "case-tests: FAIL: $*" >&2; exit 1; }
rm -rf "$work"
mkdir -p "$work"
fake="$work/aot-harness"
good='{"platform": "x86-64-linux", "profiles": [{"name": "cpu"}, {"name": "opencl"}], "pipelines": [
  {"name": "blur", "profiles": [{"name": "cpu", "runtime": "none"}, {"name": "opencl", "runtime": "none"}],
   "cases": [{"name": "small", "nightly": false}]}]}'
# stand_in <mode>: the fake aot-harness: `list --json` as <mode> says, `run` exits 0 (a PASS).
stand_in() {
  if [ "$1" = unbuilt ]; then rm -f "$fake"; return; fi
  cat >"$fake" <<SH
#!/bin/sh
# run: a PASS, or in the skip modes the SKIP of a missing driver (exit 77), marked for ctest's guard as the
# real aot-harness marks it (cli.cpp); skipmix skips only the opencl profile's run.
if [ "\$1" = run ]; then
  mkdir -p "\$AOT_HARNESS_CTEST_GUARD"
  case "$1 \$*" in
    "skips "*|"skipmix "*opencl*) echo "blur/opencl/small: no OpenCL platform named nope" >"\$AOT_HARNESS_CTEST_GUARD/\$\$.skipped"; exit 77 ;;
  esac
  : >"\$AOT_HARNESS_CTEST_GUARD/\$\$.ran"
  exit 0
fi
case $1 in
  good|skips|skipmix) echo '$good' ;;
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
# Never green when every selected test was skipped: the fixture's check fails naming a skip's
# reason, whatever the selection, also under -j and when re-run; a mix of passes and skips passes.
expect skips nonzero "all-skipped-check .*all 2 harness test\(s\) of this ctest were SKIP, so nothing was tested \(e.g. blur/opencl/small: no OpenCL platform named nope\)"
expect skips nonzero "all 1 harness test\(s\) of this ctest were SKIP" -R 'blur/opencl' -j2
expect skips nonzero "all 1 harness test\(s\) of this ctest were SKIP" -L opencl
expect skips nonzero "all-skipped-check .*Failed" --rerun-failed
expect skipmix nonzero "all 1 harness test\(s\) of this ctest were SKIP" -R 'blur/opencl'
expect skipmix zero "harness: 1 harness test\(s\) ran, 1 skipped" -V
expect skips zero "ctest-start .*Passed" -R 'ctest-start'
echo "case-tests: PASS"
