#!/bin/sh
# expect_bench.sh EXE PIPELINE PROFILE CODE REGEX JSON_CHECK [extra bench args...]
# `aot-harness bench --quick --case small` of one fault pipeline: passes only if the exit code is CODE, the
# output matches REGEX and the Google Benchmark JSON it wrote satisfies JSON_CHECK: "ok" (every benchmark
# of the pipeline is there, without error, with its counters), "error" (each is there, marked failed) or
# "none" (the file is valid and holds none: the child never finished).
set -u
exe=$1 pipeline=$2 profile=$3 code=$4 regex=$5 check=$6
shift 6
json=$(mktemp "${TMPDIR:-/tmp}/expect-bench.XXXXXX")
trap 'rm -f "$json"' EXIT
out=$("$exe" bench --pipeline "$pipeline" --profile "$profile" --case small --quick --json "$json" "$@" 2>&1)
got=$?
echo "$out"
echo "exit $got"
[ "$got" = "$code" ] || { echo "FAILED: exit code $got, expected $code"; exit 1; }
printf '%s\n' "$out" | grep -Eq -- "$regex" || { echo "FAILED: output does not match /$regex/"; exit 1; }
python3 - "$json" "$pipeline" "$check" <<'PY' || { echo "FAILED: the JSON"; exit 1; }
import json, sys
doc = json.load(open(sys.argv[1]))
mine = [b for b in doc["benchmarks"] if b["name"].startswith("BM_%s/" % sys.argv[2])]
assert bool(mine) == (sys.argv[3] != "none"), "benchmarks of %s in %s: %s" % (sys.argv[2], sys.argv[1], mine)
for b in mine:
    if sys.argv[3] == "ok":
        assert not b.get("error_occurred") and b.get("pct_of_copy_bw", 0) > 0, b
    else:
        assert b.get("error_occurred") and b.get("error_message"), b
print("json: %d benchmark(s) of %s: %s" % (len(mine), sys.argv[2], sys.argv[3]))
PY
echo "ok"
