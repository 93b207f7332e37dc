#!/bin/sh
# genfuzz_run.sh HARNESS WORK PLANTED PROFILES MIN_MEANINGFUL [GOLDEN_DIR]
# What the harness makes of the generator fuzzer's generators, and the check against what was planted:
# `list --json`, `describe --json` of every pipeline, `bless --all`, `run --profile PROFILES`, then
# `genfuzz check` (scripts/harnesslib/genfuzz/genfuzz_check.py). Writes WORK/{list.json,describe/,bless.log,run.log,
# results.json,genfuzz.md,genfuzz.json}; the goldens go to GOLDEN_DIR (default WORK/golden).
# Exit 0 when every generator has a meaningful verdict or a true reason and MIN_MEANINGFUL of those built
# have a verdict; 1 otherwise (the table names each failure and its class).
set -eu
h=$1 work=$2 planted=$3 profiles=$4 min=$5
golden=${6:-$work/golden}
here=$(cd "$(dirname "$0")" && pwd)
scripts=$(cd "$here/../../../scripts" && pwd)
py=python3
[ -x /usr/bin/python3 ] && py=/usr/bin/python3  # Debian's, with numpy
fail() { echo "genfuzz: FAIL: $*" >&2; exit 1; }
rm -rf "$work/describe" "$golden" "$work/shapes"
mkdir -p "$work/describe" "$work/shapes"
# One derivation for all the commands below, as ctest's runs share one: the binary does not change meanwhile.
export AOT_HARNESS_SHAPE_CACHE="$work/shapes"
"$h" list --json >"$work/list.json" || fail "list --json"
for p in $("$py" -c 'import json,sys; print(" ".join(p["name"] for p in json.load(open(sys.argv[1]))["pipelines"]))' "$work/list.json"); do
  "$h" describe "$p" --json >"$work/describe/$p.json" || fail "describe $p"
done
"$h" bless --all --golden-dir "$golden" >"$work/bless.log" 2>&1 || true  # the pipelines without a case are named there
"$h" run --profile "$profiles" --golden-dir "$golden" --json "$work/results.json" >"$work/run.log" 2>&1 || true
[ -s "$work/results.json" ] || { tail -20 "$work/run.log"; fail "the run wrote no results"; }
[ "$golden" = "$work/golden" ] || ln -sfn "$golden" "$work/golden"
PYTHONPATH="$scripts" PYTHONDONTWRITEBYTECODE=1 "$py" -m harnesslib.genfuzz.genfuzz check "$work" --planted "$planted" \
  --profiles "$profiles" --min-meaningful "$min" --json "$work/genfuzz.json" >"$work/genfuzz.md" &&
  rc=0 || rc=$?
cat "$work/genfuzz.md"
[ "$rc" = 0 ] || fail "targets missed (above; $work/run.log has every run)"
echo "genfuzz: PASS"
