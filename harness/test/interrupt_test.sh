#!/bin/sh
# interrupt_test.sh EXE GOLDEN: `run --jobs 2` whose children hang (started through a wrapper that never
# returns, HARNESS_EXEC_WRAPPER), stopped with SIGTERM (a CI job cancelled, a ctest timeout) once two run,
# must leave no child behind: the children have process groups of their own, which a signal to run's
# group does not reach, so run kills them itself (harness/src/run/interrupt.cpp; SIGINT, Ctrl-C, the same),
# removes its temp directory (under TMPDIR, which must end empty), then dies of the signal. (A background job of
# a script has SIGINT ignored, hence SIGTERM here.) --batch 1: two children at once (batch children are started
# and tracked the same way, run/supervisor.h ChildProcess).
set -u
exe=$1 golden_src=$2
tmp=$(mktemp -d "${TMPDIR:-/tmp}/interrupt-test.XXXXXX")
trap 'rm -rf "$tmp"' EXIT
cp -R "$golden_src" "$tmp/golden"  # a path of its own: this test's children are found by it
printf '#!/bin/sh\n# a child that never returns (its arguments stay visible to ps)\nwhile :; do sleep 1; done\n' > "$tmp/hang.sh"
chmod +x "$tmp/hang.sh"
children() { ps -eo args= | grep -F -- "$tmp/golden" | grep -F -c -- "__run-one"; }
mkdir "$tmp/tmpdir"
TMPDIR="$tmp/tmpdir" HARNESS_EXEC_WRAPPER="$tmp/hang.sh" "$exe" run --pipeline blur3x3 --profile cpu --jobs 2 --batch 1 --timeout 120 \
    --golden-dir "$tmp/golden" > "$tmp/out.txt" 2>&1 &
pid=$!
i=0
while [ "$(children)" -lt 2 ] && [ $i -lt 100 ]; do sleep 0.1; i=$((i + 1)); done
before=$(children)
if [ "$before" -lt 2 ]; then
  echo "FAILED: expected 2 hanging children, saw $before"; cat "$tmp/out.txt"; kill "$pid"; exit 1
fi
made=$(ls -A "$tmp/tmpdir")
case "$made" in
  aot-harness.*) ;;
  *) echo "FAILED: run made no temp dir under TMPDIR (it holds '$made')"; kill "$pid"; exit 1 ;;
esac
kill -TERM "$pid"
wait "$pid"
rc=$?
sleep 0.5
after=$(children)
echo "children before SIGTERM: $before, after: $after; run exited $rc"
if [ "$after" != 0 ]; then
  echo "FAILED: $after child(ren) left running after SIGTERM"
  for p in $(ps -eo pid=,args= | grep -F -- "$tmp/golden" | grep -F -- "__run-one" | awk '{print $1}'); do kill -KILL "-$p"; done
  exit 1
fi
[ "$rc" = 143 ] || { echo "FAILED: run should die of SIGTERM (exit 143), exited $rc"; exit 1; }
left=$(ls -A "$tmp/tmpdir")
[ -z "$left" ] || { echo "FAILED: the temp dir stayed behind in TMPDIR: $left"; exit 1; }
echo ok
