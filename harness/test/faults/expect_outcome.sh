#!/bin/sh
# expect_outcome.sh EXE GOLDEN PIPELINE PROFILE CODE REGEX [MAX_SECONDS] [extra run args...]
# Runs one fault pipeline and passes only if the exit code is CODE (or one of CODE="0|4"), the output matches REGEX and,
# if given, it took at most MAX_SECONDS. PIPELINE "all" runs every pipeline of PROFILE.
# $EXPECT_WRAPPER (e.g. with_oclgrind.sh) runs the harness under a wrapper; the wrapper's exit 77
# (what it needs is missing) is passed on as SKIP.
set -u
exe=$1 golden=$2 pipeline=$3 profile=$4 code=$5 regex=$6
shift 6
max=""
if [ $# -gt 0 ]; then max=$1; shift; fi
set -- run --profile "$profile" --golden-dir "$golden" "$@"
[ "$pipeline" != all ] && set -- "$@" --pipeline "$pipeline"
start=$(date +%s%N)
out=$(${EXPECT_WRAPPER:-} "$exe" "$@" 2>&1)
got=$?
elapsed_ms=$(( ($(date +%s%N) - start) / 1000000 ))
echo "$out"
echo "exit $got after ${elapsed_ms} ms"
[ "$got" = 77 ] && [ "$code" != 77 ] && { echo "SKIP (exit 77)"; exit 77; }
case "|$code|" in *"|$got|"*) ;; *) echo "FAILED: exit code $got, expected $code"; exit 1 ;; esac
printf '%s\n' "$out" | grep -Eq -- "$regex" || { echo "FAILED: output does not match /$regex/"; exit 1; }
if [ -n "$max" ] && [ "$elapsed_ms" -gt $((max * 1000)) ]; then
  echo "FAILED: took ${elapsed_ms} ms, more than ${max} s"; exit 1
fi
echo "ok"
