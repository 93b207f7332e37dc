#!/bin/sh
# reproduced_cache_test.sh AOT_HARNESS GOLDEN_DIR
# The run's kept reproductions of unstored goldens (run/reproduced_cache.h): a host run of a case whose
# goldens are not stored runs the cpu variant and keeps its verified bytes in the run's cache folder; the
# next run of the case reads them there ("kept"); a damaged entry is not used (the cpu variant again), and
# every run still PASSes against the manifest.
set -eu
exe=$1 golden=$2
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
fail() { echo "reproduced_cache: FAIL: $*" >&2; exit 1; }
py=python3
[ -x /usr/bin/python3 ] && py=/usr/bin/python3
# run N WANT: the N-th run of int_edges/host/large (three unstored outputs), its source WANT
run() {
  AOT_HARNESS_SHAPE_CACHE="$work/cache" "$exe" run --golden-dir "$golden" --pipeline int_edges --profile host \
    --case large --json "$work/r$1.json" >"$work/r$1.txt" 2>&1 || { cat "$work/r$1.txt"; fail "run $1 did not pass"; }
  got=$("$py" -c 'import json,sys; r=json.load(open(sys.argv[1]))["runs"]; print(*[x["outcome"]+":"+x["metrics"].get("golden_reproduced_by","") for x in r])' "$work/r$1.json")
  [ "$got" = "PASS:$2" ] || fail "run $1: got '$got', want 'PASS:$2'"
}
mkdir -p "$work/cache"
run 1 "cpu variant"
n=$(ls "$work/cache/goldens" | wc -l)
[ "$n" -eq 3 ] || fail "run 1 kept $n goldens, want the 3 outputs of int_edges/large"
run 2 "kept"
first=$(ls "$work/cache/goldens" | head -1)
printf 'damaged' >>"$work/cache/goldens/$first"
run 3 "cpu variant"
echo "reproduced_cache: reproduced, kept, read back; a damaged entry reproduced again"
