#!/bin/sh
# bisect_commit_test.sh CMAKE BUILD_DIR SOURCE_DIR HALIDE_PREFIX WORK_DIR
# `aot-harness bisect-commit` from the installed package, on an outside project in a git repository of its own
# (project/: two pipelines) with six commits: c0 blessed and good, c1 a README, c2 adds a per-pixel check to scale
# that never fires (32 more compares per pixel: many times slower under any load, the same values), c3 a comment,
# c4 changes scale's values (a wrong result), c5 a comment.
# Expects: --mode bench names c2, auto (the outcome flips PASS -> FAIL) names c4, and only scale is built.
# Appends the commands and their output to WORK_DIR/transcript.txt; prints the time each bisect took.
set -eu
cmake=$1 build=$2 src=$3 halide=$4 work=$5
here=$(cd "$(dirname "$0")" && pwd)
fail() { echo "bisect-commit test: FAIL: $*" >&2; exit 1; }
rm -rf "$work"
mkdir -p "$work"
T="$work/transcript.txt"
"$cmake" --install "$build" --prefix "$work/prefix" > "$work/install.log" 2>&1 || fail "install (log $work/install.log)"

repo="$work/repo"
cp -r "$here/project" "$repo"
cd "$repo"
git init -q -b main .
git config user.email test@example.com
git config user.name "bisect test"
"$cmake" -S "$repo" -B "$work/build" -G Ninja -DCMAKE_BUILD_TYPE=Release "-DCMAKE_PREFIX_PATH=$work/prefix;$halide" \
  "-DHARNESS_PROFILES=cpu;host" > "$work/configure.log" 2>&1 || { tail -30 "$work/configure.log"; fail "configure"; }
"$cmake" --build "$work/build" > "$work/build.log" 2>&1 || { tail -30 "$work/build.log"; fail "build"; }
exe="$work/build/bin/aot-harness"
"$exe" bless --all > "$work/bless.log" 2>&1 || { cat "$work/bless.log"; fail "bless"; }
printf 'build/\nout/\n' > .gitignore
git add -A
git commit -qm "c0: scale and other, blessed"
echo "A demo project for bisect-commit." > README
git add README && git commit -qm "c1: a README"
sed -i 's|Expr extra = 0.0f;  // SLOWDOWN|RDom r(0, 32); Expr extra = sum(select(v * cast<float>(r) > 1e30f, 1.0f, 0.0f));  // planted slowdown|' scale_generator.cpp
grep -q "planted slowdown" scale_generator.cpp || fail "could not plant the slowdown"
git commit -qam "c2: a range check"
echo "// nothing to see" >> other_generator.cpp && git commit -qam "c3: a comment"
sed -i 's|\* gain;  // RESULT|* gain + 0.01f;  // RESULT (planted wrong result)|' scale_generator.cpp
grep -q "planted wrong result" scale_generator.cpp || fail "could not plant the wrong result"
git commit -qam "c4: an offset"
echo "" >> README && git commit -qam "c5: a blank line"
c0=$(git rev-parse HEAD~5) c2=$(git rev-parse HEAD~3) c4=$(git rev-parse HEAD~1) c5=$(git rev-parse HEAD)
git log --oneline >> "$T"

run_bisect() {  # NAME ARGS...: bisect-commit's output to the transcript; its JSON in WORK/NAME.json
  name=$1
  shift
  printf '\n$ aot-harness bisect-commit %s\n' "$*" >> "$T"
  t0=$(date +%s)
  rc=0
  "$exe" bisect-commit "$@" --json "$work/$name.json" --work "$work/bisect" --keep > "$work/$name.out" 2> "$work/$name.err" || rc=$?
  cat "$work/$name.out" >> "$T"
  tail -n 12 "$work/$name.err" >> "$T"
  echo "bisect-commit test: $name: exit $rc in $(( $(date +%s) - t0 )) s" | tee -a "$T"
  [ "$rc" = 0 ] || { cat "$work/$name.err"; fail "$name: bisect-commit exited $rc"; }
}
run_bisect slowdown "$c0" "$c5" --pipeline scale --profile host --case large --mode bench
grep -q "\"first_bad\": \"$c2\"" "$work/slowdown.json" || fail "the slowdown was not bisected to c2: $(cat "$work/slowdown.out")"
grep -q "^first bad commit: $(git rev-parse --short=7 "$c2")" "$work/slowdown.out" || fail "the output does not name c2 first"
run_bisect wrong "$c0" "$c5" --pipeline scale --profile host --case small
grep -q "\"first_bad\": \"$c4\"" "$work/wrong.json" || fail "the wrong result was not bisected to c4: $(cat "$work/wrong.out")"
grep -q "\"kind\": \"outcome\"" "$work/wrong.json" || fail "the wrong result was not bisected by its outcome"
grep -q "FAIL (GOOD: PASS)" "$work/wrong.json" || fail "the first bad commit's outcome is not named"
# Only the pipeline bisected was built (AOT_HARNESS_PIPELINES): scale's variants, not other's.
b0="$work/bisect/build-$(echo "$c0" | cut -c1-12)"
find "$b0" -name 'scale__host*' | grep -q . || fail "no scale__host in $b0"
if find "$b0" -name 'other__*' | grep -q .; then fail "other was built too"; fi
# The user's checkout is as it was: no worktree is left registered but the kept ones, HEAD unchanged.
[ "$(git rev-parse HEAD)" = "$c5" ] || fail "the checkout's HEAD moved"
if git status --porcelain | grep -q .; then fail "the checkout has changes: $(git status --porcelain)"; fi
echo "bisect-commit test: OK"
