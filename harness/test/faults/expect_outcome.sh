#!/bin/sh
# expect_outcome.sh EXE GOLDEN PIPELINE PROFILE CODE REGEX [MAX_SECONDS] [extra run args...]
# Runs one fault pipeline and passes only if the exit code is CODE, the output matches REGEX and,
# if given, it took at most MAX_SECONDS. PIPELINE "all" runs every pipeline of PROFILE.
set -u
exe=$1 golden=$2 pipeline=$3 profile=$4 code=$5 regex=$6
shift 6
max=""
if [ $# -gt 0 ]; then max=$1; shift; fi
set -- run --profile "$profile" --golden-dir "$golden" "$@"
[ "$pipeline" != all ] && set -- "$@" --pipeline "$pipeline"
start=$(date +%s%N)
out=$("$exe" "$@" 2>&1)
got=$?
elapsed_ms=$(( ($(date +%s%N) - start) / 1000000 ))
echo "$out"
echo "exit $got after ${elapsed_ms} ms"
[ "$got" = "$code" ] || { echo "FAILED: exit code $got, expected $code"; exit 1; }
printf '%s\n' "$out" | grep -Eq -- "$regex" || { echo "FAILED: output does not match /$regex/"; exit 1; }
if [ -n "$max" ] && [ "$elapsed_ms" -gt $((max * 1000)) ]; then
  echo "FAILED: took ${elapsed_ms} ms, more than ${max} s"; exit 1
fi
echo "ok"
