#!/bin/sh
# bless_concurrency_test.sh EXE GOLDEN_DIR ROUNDS LOOPS MODE BLESS_ARGS RUN_ARGS
#   Runs LOOPS loops of `EXE run RUN_ARGS` (each its own child processes) on one copy of GOLDEN_DIR
#   while bless (BLESS_ARGS, e.g. "--all") runs ROUNDS times on the same directory.
#   MODE complete: every bless must succeed, `golden verify` must be clean after each.
#   MODE kill: each bless is killed (SIGKILL), at a random point or (every second round) the moment
#     its commit point is reached; while the run loops go on reading,
#     the golden dir must stay exactly as the killed bless left it (runs never write, rename or
#     delete there), then `golden recover` and `golden verify` must succeed.
#   Both: no run may report anything but PASS (a bless must never cause a run error).
set -u
exe=$1 src=$2 rounds=$3 loops=$4 mode=$5 bless_args=$6 run_args=$7
tmp=$(mktemp -d)
cleanup() { touch "$tmp/stop"; wait; rm -rf "$tmp"; }
trap cleanup EXIT
fail() { echo "FAILED: $*"; exit 1; }
# Every file and directory below the golden dir, bless's own included, with its content hash.
state() { (cd "$1" && find . -type d | sort && find . -type f -exec sha256sum {} + | sort); }

cp -r "$src" "$tmp/g"
g=$tmp/g
start=$(date +%s%N)
"$exe" bless $bless_args --golden-dir "$g" >/dev/null || fail "the first bless failed"
bless_us=$(( ($(date +%s%N) - start) / 1000 ))
"$exe" golden verify --golden-dir "$g" >/dev/null || fail "golden verify after the first bless"

mkdir "$tmp/logs"
i=0
while [ "$i" -lt "$loops" ]; do
  i=$((i + 1))
  ( n=0
    while [ ! -e "$tmp/stop" ]; do
      n=$((n + 1))
      "$exe" run $run_args --golden-dir "$g" >"$tmp/logs/$i.$n" 2>&1
      rc=$?
      if [ "$rc" != 0 ]; then echo "loop $i run $n: exit $rc" >>"$tmp/errors"; cat "$tmp/logs/$i.$n" >>"$tmp/errors"; fi
      rm -f "$tmp/logs/$i.$n"
      echo x >>"$tmp/runs.$i"
    done ) &
done

r=0 kills_before=0 kills_after=0 kills_none=0
while [ "$r" -lt "$rounds" ]; do
  r=$((r + 1))
  if [ "$mode" = complete ]; then
    out=$("$exe" bless $bless_args --golden-dir "$g" 2>&1) || fail "round $r: bless failed beside the runs: $out"
    out=$("$exe" golden verify --golden-dir "$g" 2>&1) || fail "round $r: golden verify after bless: $out"
  else
    if [ $((r % 2)) = 0 ]; then
      # Even rounds: after the commit point, before the files move into place (the bless holds still
      # there for a second through its test hook).
      HARNESS_TEST_BLESS_PAUSE_AFTER_COMMIT_MS=1000 "$exe" bless $bless_args --golden-dir "$g" >/dev/null 2>&1 &
      pid=$!
      while [ ! -d "$g/.bless-commit" ] && kill -0 "$pid" 2>/dev/null; do sleep 0.01; done
    else
      "$exe" bless $bless_args --golden-dir "$g" >/dev/null 2>&1 &
      pid=$!
      delay_us=$(od -An -N4 -tu4 /dev/urandom | awk -v d="$bless_us" '{ printf "%d", $1 % (d + 1) }')
      sleep "$(awk -v u="$delay_us" 'BEGIN { printf "%.6f", u / 1000000 }')"
    fi
    kill -KILL "$pid" 2>/dev/null
    wait "$pid" 2>/dev/null
    left=$(state "$g")
    if [ -d "$g/.bless-commit" ]; then kills_after=$((kills_after + 1))
    elif [ -d "$g/.bless-staging" ]; then kills_before=$((kills_before + 1))
    else kills_none=$((kills_none + 1))
    fi
    [ $((r % 2)) = 1 ] || [ -d "$g/.bless-commit" ] || fail "round $r: the kill did not land after the commit point"
    sleep 1  # the run loops read the interrupted state meanwhile
    [ "$(state "$g")" = "$left" ] || fail "round $r: the golden dir changed after the bless was killed (a reader wrote)"
    out=$("$exe" golden verify --golden-dir "$g" 2>&1) || fail "round $r: golden verify of the interrupted bless: $out"
    out=$("$exe" golden recover --golden-dir "$g" 2>&1) || fail "round $r: golden recover: $out"
    out=$("$exe" golden verify --golden-dir "$g" 2>&1) || fail "round $r: golden verify after recover: $out"
  fi
done
touch "$tmp/stop"
wait
runs=$(cat "$tmp"/runs.* 2>/dev/null | wc -l)
[ -e "$tmp/errors" ] && { cat "$tmp/errors"; fail "a run beside bless did not pass"; }
[ "$runs" -ge "$loops" ] || fail "only $runs runs happened beside bless"
if [ "$mode" = complete ]; then
  echo "ok: $rounds blesses succeeded beside $loops run loops ($runs runs, all PASS); golden verify clean"
else
  echo "ok: $rounds killed blesses ($kills_before before, $kills_after after the commit point, $kills_none before it wrote anything) beside $loops run loops ($runs runs, all PASS); the golden dir stayed as each bless left it"
fi
