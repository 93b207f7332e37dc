#!/bin/sh
# batch_equivalence.sh EXE GOLDEN PROFILES PIPELINES SCRIPTS_DIR
# The fault catalogue's verdicts do not depend on batching: runs the fault PIPELINES on PROFILES
# (e.g. cpu,host: passing cases mixed with a hang, a teardown abort, a Halide error, wrong results)
# once with a child per case (--batch 1) and once in batches (--batch 16, one job, so that batches
# hold several cases; the 8 s limit is the hang's, and PoCL's first compile under load stays below it), and passes only if every run has the same outcome, message and recorded
# result in both (the run's time and output tail may differ), and the batched run did form batches.
# Both runs take an xfail list that expects fault_nan's failure on host: in the batched run that case
# must lead a child (a child's first case runs as a lone child's does, so its record is its verdict) and
# the child must go on after it; no batch may stop at it.
set -u
exe=$1 golden=$2 profiles=$3 pipelines=$4 scripts=$5
dir=$(mktemp -d)
trap 'rm -rf "$dir"' EXIT
cat > "$dir/xfail.json" <<'EOF'
{"format": 1, "xfail": [{"pipeline": "fault_nan", "profile": "host", "outcomes": ["FAIL"],
  "reason": "planted: a NaN at (5,3) (the fault catalogue)"}]}
EOF
common="run --profile $profiles --pipeline $pipelines --golden-dir $golden --timeout 8 --flake-retries 0 --jobs 1 --xfail $dir/xfail.json"
# shellcheck disable=SC2086
"$exe" $common --batch 1 --json "$dir/single.json" > "$dir/single.log" 2>&1
single_rc=$?
# shellcheck disable=SC2086
HARNESS_BATCH_LOG="$dir/batches.log" "$exe" $common --batch 16 --json "$dir/batched.json" > "$dir/batched.log" 2>&1
batched_rc=$?
cat "$dir/batched.log"
echo "exit codes: one child per case $single_rc, batched $batched_rc"
[ "$single_rc" = "$batched_rc" ] || { echo "FAILED: exit codes differ"; exit 1; }
"$scripts/verdict-diff" "$dir/single.json" "$dir/batched.json" || { echo "FAILED: batching changed a verdict"; exit 1; }
# The batched run must have run several cases in one child at least once.
grep -q "cases=[2-9]" "$dir/batches.log" || { echo "FAILED: no batch of 2 or more cases"; cat "$dir/batches.log"; exit 1; }
# Expected failures lead: a child whose first case is fault_nan/host's and that recorded more after it,
# no batch stopped at it, while batches do stop at the failures nobody expects.
grep -Eq "cases=[0-9]+ end=[a-z-]+ records=([2-9]|[1-9][0-9]) first=fault_nan/host/" "$dir/batches.log" || { echo "FAILED: fault_nan/host (xfail) did not lead a batch that went on"; cat "$dir/batches.log"; exit 1; }
if grep -q " at=fault_nan/host/" "$dir/batches.log"; then echo "FAILED: a batch ran fault_nan/host (xfail) and stopped at it"; cat "$dir/batches.log"; exit 1; fi
grep -q "end=stopped .* at=" "$dir/batches.log" || { echo "FAILED: no batch stopped at an unexpected failure"; cat "$dir/batches.log"; exit 1; }
echo "ok: $(grep -c . "$dir/batches.log") batch children, largest batch $(sed 's/.*cases=//; s/ .*//' "$dir/batches.log" | sort -n | tail -1) cases"
