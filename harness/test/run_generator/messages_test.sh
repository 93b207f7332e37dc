#!/bin/sh
# What a failed generator's stub says (cmake/harness_run_generator.sh): an abort on Halide's or LLVM's own
# assertion is named as such, not as the memory limit it ran under; an abort without one still names the limit.
# Usage: messages_test.sh <harness_run_generator.sh> <cmake>   (exit 0 pass, 1 fail)
set -u
script=$1 cmake=$2
work=$(mktemp -d "${TMPDIR:-/tmp}/run-generator-test.XXXXXX")
trap 'rm -rf "$work"' EXIT
fail() { echo "run_generator/messages: FAIL: $*" >&2; exit 1; }
printf '#!/bin/sh\necho "gen: lib/IR/IRBuilder.cpp:587: Assertion \\`Val should be a vector'"'"' failed." >&2\nkill -ABRT $$\n' >"$work/assert.sh"
printf '#!/bin/sh\necho "gen: something went wrong" >&2\nkill -ABRT $$\n' >"$work/abort.sh"
chmod +x "$work/assert.sh" "$work/abort.sh"
for kind in assert abort; do
  mkdir -p "$work/$kind"
  sh "$script" "$work/$kind.sh" c++ ar "$cmake" -- -n p__cuda -f p__cuda -e registration -o "$work/$kind" target=host-cuda \
    >/dev/null 2>&1
  [ -s "$work/$kind/p__cuda.registration.cpp" ] || fail "$kind: no stub registration written"
done
grep -q "aborted on an assertion inside Halide's compiler (signal 6)" "$work/assert/p__cuda.registration.cpp" ||
  fail "an assertion reads: $(grep -o 'generator p__cuda failed[^"]*' "$work/assert/p__cuda.registration.cpp" | head -c 300)"
grep -q "memory limit" "$work/assert/p__cuda.registration.cpp" && fail "an assertion still blames the memory limit"
grep -q "died of signal 6 under a" "$work/abort/p__cuda.registration.cpp" ||
  fail "an abort without an assertion no longer names the limit it ran under"
echo "run_generator/messages: PASS"
