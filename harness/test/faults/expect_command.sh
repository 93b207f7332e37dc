#!/bin/sh
# expect_command.sh CODE REGEX... -- COMMAND...: runs COMMAND and passes only if it exits with CODE and
# its output (stdout and stderr) matches every REGEX (grep -E). Prints the output and the time taken.
set -u
code=$1
shift
n=0
while [ $# -gt 0 ] && [ "$1" != "--" ]; do
  n=$((n + 1))
  eval "re_$n=\$1"
  shift
done
[ $# -gt 0 ] && shift
start=$(date +%s%N)
out=$("$@" 2>&1)
got=$?
echo "$out"
echo "exit $got after $(( ($(date +%s%N) - start) / 1000000 )) ms"
[ "$got" = "$code" ] || { echo "FAILED: exit code $got, expected $code"; exit 1; }
i=1
while [ $i -le $n ]; do
  eval "re=\$re_$i"
  printf '%s\n' "$out" | grep -Eq -- "$re" || { echo "FAILED: output does not match /$re/"; exit 1; }
  i=$((i + 1))
done
echo "ok"
