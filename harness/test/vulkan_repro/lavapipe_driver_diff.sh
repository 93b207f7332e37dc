#!/bin/sh
# Nightly driver qualification between the two lavapipe versions here: the suite's vulkan and vulkan-mali
# profiles (every case, host mode) on the system's Mesa 22.3.6 and on Mesa 25.0.7 (bookworm-backports,
# .deps/mesa-25/, scripts/with-mesa25), then scripts/driver-diff between them. Passes when both runs name
# their own driver (driverInfo) and driver-diff finds nothing worse on the newer one (outcomes only:
# lavapipe's timings on a shared CI machine are noise). 77 without Mesa 25 (run scripts/setup).
# Usage: lavapipe_driver_diff.sh AOT_HARNESS REPO_ROOT OUT_DIR
set -u
harness=$1 root=$2 out=$3
[ -f "$root/.deps/mesa-25/lvp_icd.json" ] || { echo "SKIP: no Mesa 25 lavapipe in .deps/mesa-25 (scripts/setup)"; exit 77; }
rm -rf "$out" && mkdir -p "$out/mesa-22" "$out/mesa-25"
export HL_VK_DEVICE_TYPE=cpu
"$harness" run --profile vulkan,vulkan-mali --timeout 300 --json "$out/mesa-22/results.json" >"$out/mesa-22.log" 2>&1
"$root/scripts/with-mesa25" "$harness" run --profile vulkan,vulkan-mali --timeout 300 \
  --json "$out/mesa-25/results.json" >"$out/mesa-25.log" 2>&1
for v in 22 25; do
  [ -f "$out/mesa-$v/results.json" ] || { echo "FAIL: the Mesa $v run wrote no results (log: $out/mesa-$v.log)"; exit 1; }
  grep -q "Vulkan Mesa llvmpipe, Mesa $v\." "$out/mesa-$v/results.json" ||
    { echo "FAIL: the Mesa $v run does not name its driver as 'Vulkan Mesa llvmpipe, Mesa $v.*'"; exit 1; }
done
"$root/scripts/driver-diff" "$out/mesa-22" "$out/mesa-25" --ignore-perf --out "$out"
status=$?
cat "$out/driver-diff.md"
exit $status
