#!/bin/sh
# repro_test.sh EXE GOLDEN TEST CODE REGEX [FILE...]: makes the repro bundle of TEST
# (<pipeline>/<profile>/<case>), unpacks it in a temp dir and runs its run.sh there with a bare
# environment (no harness, no Halide, PATH=/usr/bin:/bin). Passes only if run.sh exits with CODE, a line
# of its output matches REGEX (grep -E), each FILE (a glob) exists non-empty in the bundle and every
# SPIR-V module in it passes spirv-val (when installed).
set -u
exe=$1 golden=$2 test=$3 code=$4 regex=$5
shift 5
tmp=$(mktemp -d "${TMPDIR:-/tmp}/repro_test.XXXXXX")
trap 'rm -rf "$tmp"' EXIT
"$exe" repro "$test" --golden-dir "$golden" --out "$tmp/bundle.tar.gz" || { echo "FAILED: repro exited $?"; exit 1; }
mkdir "$tmp/elsewhere"
tar -xzf "$tmp/bundle.tar.gz" -C "$tmp/elsewhere" || { echo "FAILED: cannot unpack the bundle"; exit 1; }
cd "$tmp/elsewhere"/repro-* || { echo "FAILED: no repro-* directory in the bundle"; exit 1; }
for f in run.sh README.md main.cpp case.txt environment.json include/HalideRuntime.h "$@"; do
  found=$(ls -d $f 2>/dev/null | head -n 1)  # FILE may be a glob
  [ -n "$found" ] && [ -s "$found" ] || { echo "FAILED: the bundle has no $f"; ls -R; exit 1; }
done
# SPIR-V modules must be what a driver accepts: the Khronos validator, where it is installed.
if command -v spirv-val >/dev/null 2>&1; then
  for m in device/*.spv; do
    [ -e "$m" ] || continue
    spirv-val --target-env vulkan1.3 "$m" || { echo "FAILED: spirv-val rejects $m"; exit 1; }
    echo "spirv-val: $m valid"
  done
fi
if grep -rIl -e "$(dirname "$exe")" --include='*.sh' --include='*.txt' --include='*.cpp' . >/dev/null; then
  echo "FAILED: the bundle's scripts refer to the build tree"; exit 1
fi
out=$(env -i PATH=/usr/bin:/bin HOME="$tmp" sh ./run.sh 2>&1)
got=$?
echo "$out"
echo "run.sh exit $got"
[ "$got" = "$code" ] || { echo "FAILED: run.sh exited $got, expected $code"; exit 1; }
printf '%s\n' "$out" | grep -Eq -- "$regex" || { echo "FAILED: output does not match /$regex/"; exit 1; }
echo "ok"
