#!/bin/sh
# cases_test.sh EXE GOLDEN_DIR: what the harness makes of cases_generator.cpp's generators with no spec.
# Blesses them into GOLDEN_DIR (emptied first), then checks describe (text and JSON), bless's and run's
# words, and the outcomes on cpu and host:
#   float16 / bfloat16 buffers: described, blessed, PASS (not "unsupported");
#   a 1-D output of 64 elements all 0 but one: flagged as a degenerate golden;
#   dB_min / dB_max: guessed in order (min < max) until the output means something; black / white: each
#   its own value; neither noted as "every guess gives a degenerate output";
#   a 4x4 table built into the pipeline: a 4x4 case that PASSes, not an ERROR;
#   a generator whose output changes with the process: a NONDET golden and NONDET runs (also found by a
#   retry when the golden was not flagged), never PASS or FLAKE;
#   a deterministic ERROR is not retried; a FAIL does not say "within" its tolerance;
#   output estimates stated only for an autoscheduler, with the input and scalar left without: an
#   "estimate" case of that size (the estimates probe's autoscheduler asks for no estimate).
set -u
exe=$1 golden=$2
fail() { echo "cases: FAIL: $*" >&2; exit 1; }
has() { grep -Eq -- "$2" "$1" || fail "$3: $(cat "$1")"; }
lacks() { if grep -Eq -- "$2" "$1"; then fail "$3: $(grep -E -- "$2" "$1" | head -3)"; fi; }
tmp=$(mktemp -d "${TMPDIR:-/tmp}/cases.XXXXXX")
trap 'rm -rf "$tmp"' EXIT
rm -rf "$golden"
mkdir -p "$golden"

"$exe" bless --all --golden-dir "$golden" >"$tmp/bless.txt" 2>&1 || fail "bless: $(cat "$tmp/bless.txt")"
has "$tmp/bless.txt" "golden/case_half_io/small.npy" "float16 not blessed"
has "$tmp/bless.txt" "golden/case_mixed16/small.brain_out.npy" "bfloat16 not blessed"
has "$tmp/bless.txt" "golden/case_pid_noise/small.npy .*non-deterministic: [0-9]+ distinct outputs in 4 runs of the cpu variant" \
  "pid_noise's golden is not flagged non-deterministic"
lacks "$tmp/bless.txt" "case_(half_io|levels|db_range|lut4)/.*non-deterministic" "a deterministic generator flagged"

d() {  # d <pipeline>: describe as text (must exit 0) and as JSON
  AOT_HARNESS_GOLDEN_DIR="$golden" "$exe" describe "$1" >"$tmp/$1.txt" 2>&1 || fail "describe $1 exited $?: $(cat "$tmp/$1.txt")"
  AOT_HARNESS_GOLDEN_DIR="$golden" "$exe" describe "$1" --json >"$tmp/$1.json" 2>&1 || fail "describe $1 --json exited $?"
}
for p in half_io mixed16 few_values db_range levels lut4 pid_noise auto_estimates; do d "case_$p"; done
has "$tmp/case_half_io.txt" "input  input +float16 +64x48" "float16 input"
has "$tmp/case_half_io.txt" "scalar gain +0.5" "scalar of half_io"
has "$tmp/case_half_io.txt" "output output +float16 +64x48" "float16 output"
has "$tmp/case_half_io.txt" "tolerance: AbsRel\{atol=0.001, rtol=0.01, nan_equal\}" "float16 tolerance"
has "$tmp/case_mixed16.txt" "input  brain_in +bfloat16 +64x48" "bfloat16 input"
has "$tmp/case_mixed16.txt" "output brain_out +bfloat16 +64x48" "bfloat16 output"
has "$tmp/case_mixed16.json" '"brain_out": *\{' "bfloat16 output (JSON)"
has "$tmp/case_few_values.txt" "flag: degenerate golden: all but 1 of 64 elements hold one value" "1-D degenerate golden"
has "$tmp/case_few_values.json" "degenerate golden: all but 1 of 64 elements hold one value" "1-D degenerate golden (JSON)"
has "$tmp/case_db_range.txt" "scalars guessed .*dB_min = [-0-9.]+ < dB_max = [-0-9.]+" "dB_min/dB_max not a range"
lacks "$tmp/case_db_range.txt" "degenerate" "db_range still degenerate"
has "$tmp/case_levels.txt" "scalars guessed .*black = 0.5, white = 1;" "black/white not each their own value"
lacks "$tmp/case_levels.txt" "degenerate" "levels degenerate"
has "$tmp/case_lut4.txt" "output output +float32 +4x4$" "lut4's output is not clamped to its table"
has "$tmp/case_lut4.txt" "note: .*reads table, a buffer built into it" "lut4's clamp not explained"
has "$tmp/case_pid_noise.txt" "flag: non-deterministic golden: [0-9]+ distinct outputs" "pid_noise flag in describe"
has "$tmp/case_auto_estimates.txt" "output output +uint16 +40x24" "the estimates stated for an autoscheduler give no case"

"$exe" run --profile cpu,host --golden-dir "$golden" --json "$tmp/run.json" >"$tmp/run.txt" 2>&1
code=$?
[ "$code" = 6 ] || fail "run exited $code, not 6 (NONDET is the worst outcome): $(cat "$tmp/run.txt")"
for p in half_io mixed16 db_range levels lut4 auto_estimates; do
  for prof in cpu host; do has "$tmp/run.txt" "PASS +case_$p/$prof/" "case_$p on $prof"; done
done
has "$tmp/run.txt" "PASS +case_few_values/cpu/small .*degenerate golden: all but 1 of 64 elements hold one value" \
  "few_values' run does not flag its golden"
for prof in cpu host; do
  has "$tmp/run.txt" "NONDET +case_pid_noise/$prof/small .*not judged: [0-9]+ distinct outputs in 4 runs" "pid_noise on $prof"
done
lacks "$tmp/run.txt" "(PASS|FLAKE|FAIL) +case_pid_noise/" "pid_noise judged"

# Without the flag (a golden blessed before bless looked): a cpu retry whose outputs differ proves it.
cp -r "$golden" "$tmp/unflagged"
sed 's/"nondeterministic": "[^"]*",\{0,1\}//' "$golden/MANIFEST.json" >"$tmp/unflagged/MANIFEST.json"
lacks "$tmp/unflagged/MANIFEST.json" "nondeterministic" "the flag is still there"
"$exe" run --pipeline case_pid_noise --profile cpu,host --golden-dir "$tmp/unflagged" --flake-retries 1 \
  >"$tmp/retry.txt" 2>&1
has "$tmp/retry.txt" "NONDET +case_pid_noise/cpu/small .*different outputs for the same inputs in two runs" "no NONDET from the retry"
has "$tmp/retry.txt" "NONDET +case_pid_noise/host/small .*found its cpu variant, which makes the golden, non-deterministic" "host not NONDET"
grep -q "FLAKE" "$tmp/retry.txt" && fail "a FLAKE: $(cat "$tmp/retry.txt")"
"$exe" run --pipeline case_pid_noise --profile cpu --golden-dir "$tmp/unflagged" --flake-retries 0 \
  >"$tmp/once.txt" 2>&1
has "$tmp/once.txt" "FAIL +case_pid_noise/cpu/small" "one run without the flag is a FAIL"
has "$tmp/once.txt" "max abs error [0-9.e+]+, not within Exact" "a FAIL's measured error"
lacks "$tmp/once.txt" "max abs error [0-9.e+]+ within Exact" "a FAIL says 'within'"

# A deterministic ERROR (no golden here) is not retried.
mkdir "$tmp/empty"
"$exe" run --pipeline case_half_io --profile cpu --golden-dir "$tmp/empty" --flake-retries 2 >"$tmp/err.txt" 2>&1
has "$tmp/err.txt" "ERROR +case_half_io/cpu/small" "no ERROR without a golden"
lacks "$tmp/err.txt" "retr" "a deterministic ERROR was retried"
echo "cases: PASS"
