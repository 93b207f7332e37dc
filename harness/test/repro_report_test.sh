#!/bin/sh
# repro_report_test.sh EXE GOLDEN PIPELINE PROFILE: `run --report R --repro-bundles R/repro` on a failing
# variant must write the failure's repro bundle and link it from the report (relative link), and leave
# passing runs without one.
set -u
exe=$1 golden=$2 pipeline=$3 profile=$4
tmp=$(mktemp -d "${TMPDIR:-/tmp}/repro_report.XXXXXX")
trap 'rm -rf "$tmp"' EXIT
"$exe" run --pipeline "$pipeline" --profile "cpu,$profile" --case small --golden-dir "$golden" --flake-retries 0 \
  --report "$tmp/r" --repro-bundles "$tmp/r/repro" --json "$tmp/results.json"
echo "run exit $?"
bundle="repro/repro-$pipeline-$profile-small.tar.gz"
[ -s "$tmp/r/$bundle" ] || { echo "FAILED: no bundle $bundle"; ls -R "$tmp/r"; exit 1; }
[ ! -e "$tmp/r/repro/repro-$pipeline-cpu-small.tar.gz" ] || { echo "FAILED: a bundle for the passing cpu run"; exit 1; }
grep -q "href=\"$bundle\"" "$tmp/r/index.html" || { echo "FAILED: the report does not link $bundle"; exit 1; }
tar -tzf "$tmp/r/$bundle" | grep -q "/run.sh$" || { echo "FAILED: the bundle has no run.sh"; exit 1; }
echo "ok: the report links $bundle"
