#!/bin/sh
# fuzz_script_test.sh SOURCE_DIR WORK_DIR: scripts/fuzz must fail on a planted crash and a planted
# leak (planted_fuzz.cpp), print each artifact with a reproducer that reproduces it, count it in
# summary.json, and pass on a clean run (3 s of the npy target). Exit 77 (SKIP) when clang++ or
# libFuzzer is missing.
set -u
src=$1 work=$2
rm -rf "$work"
mkdir -p "$work/seeds-boom" "$work/seeds-leak"
printf 'boom' >"$work/seeds-boom/a"
printf 'leak' >"$work/seeds-leak/a"
fail() { echo "FAIL: $*"; exit 1; }

run() {  # run NAME TARGET [scripts/fuzz options]: 3 s of TARGET; output in $work/NAME.txt
  name=$1 target=$2
  shift 2
  sh "$src/scripts/fuzz" --no-setup --target "$target" --seconds 3 --out "$work/$name" "$@" >"$work/$name.txt" 2>&1
  rc=$?
  cat "$work/$name.txt"
  [ "$rc" != 77 ] || { echo "SKIP: clang++ or libFuzzer is missing"; exit 77; }
  [ "$rc" != 2 ] || fail "scripts/fuzz could not build or run (exit 2)"
  return "$rc"
}

for kind in boom leak; do
  run "$kind" planted --corpus "$work/seeds-$kind" && fail "scripts/fuzz passed with a planted $kind"
  [ "$rc" = 1 ] || fail "planted $kind: exit $rc, expected 1"
  artifact_kind=crash
  [ "$kind" = leak ] && artifact_kind=leak
  grep -q "^FINDING  planted" "$work/$kind.txt" || fail "planted $kind: no FINDING line"
  line=$(grep -m 1 "^  $artifact_kind: " "$work/$kind.txt") || fail "planted $kind: no '$artifact_kind:' artifact line"
  artifact=${line#*: }
  [ -f "$artifact" ] || fail "planted $kind: the artifact $artifact does not exist"
  repro=$(grep -m 1 "^  reproduce: " "$work/$kind.txt") || fail "planted $kind: no reproducer"
  # shellcheck disable=SC2086
  ${repro#*: } >"$work/$kind-repro.txt" 2>&1 && fail "planted $kind: the reproducer did not reproduce it"
  grep -q '"findings": 1$' "$work/$kind/summary.json" || fail "planted $kind: summary.json does not count 1 finding"
done
run fine npy || fail "scripts/fuzz failed a clean run (exit $rc)"
grep -q '"findings": 0$' "$work/fine/summary.json" || fail "clean run: summary.json does not say 0 findings"
grep -Eq '"execs": [1-9][0-9]*' "$work/fine/summary.json" || fail "clean run: no executions counted"
echo "PASS: planted crash and leak found and reproduced; the clean run passed"
