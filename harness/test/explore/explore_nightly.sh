#!/bin/sh
# explore_nightly.sh AOT_HARNESS SOURCE_DIR WORK DRIVER SEED COUNT PROFILE BUDGET
# aot-harness explore at nightly size on one driver, the only one of its API for the run: pocl or oclgrind
# (OpenCL, as the only ICD) or lavapipe or lavapipe-mesa25 (Vulkan: the system's Mesa 22 or Mesa 25 from
# scripts/with-mesa25); pocl-mali and lavapipe-mali run the opencl-mali and vulkan-mali profiles (Mali
# schedules within a Mali-G52's limits) on PoCL and lavapipe; host runs the host profile (no driver).
# The drivers of one profile share WORK's build (the same seed and profile). Fails on a
# finding that harness/test/explore/known_findings.json does not list (each listed one names whose bug it
# is and how we know); exit 77 when the driver is not installed. WORK/<driver>/ keeps results.json,
# explore.md and the repro bundles.
set -u
exe=$1 src=$2 work=$3 driver=$4 seed=$5 count=$6 profile=$7 budget=$8
wrapper=""
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
case "$driver" in
  pocl|pocl-mali|oclgrind)
    icd=/etc/OpenCL/vendors/pocl.icd
    [ "$driver" = oclgrind ] && icd=/usr/lib/oclgrind/liboclgrind-rt-icd.so
    [ -f "$icd" ] || { echo "SKIP: $driver is not installed ($icd missing)"; exit 77; }
    if [ "$driver" = oclgrind ]; then echo "$icd" > "$tmp/oclgrind.icd"; else cp "$icd" "$tmp/"; fi
    OCL_ICD_VENDORS=$tmp OCL_ICD_FILENAMES=
    export OCL_ICD_VENDORS OCL_ICD_FILENAMES ;;
  lavapipe|lavapipe-mali)
    VK_DRIVER_FILES=$(ls /usr/share/vulkan/icd.d/lvp_icd*.json 2>/dev/null | head -1)
    [ -n "$VK_DRIVER_FILES" ] || { echo "SKIP: lavapipe is not installed"; exit 77; }
    export VK_DRIVER_FILES ;;
  lavapipe-mesa25)
    [ -f "$src/.deps/mesa-25/lvp_icd.json" ] || { echo "SKIP: Mesa 25 is not unpacked (scripts/setup)"; exit 77; }
    wrapper="$src/scripts/with-mesa25" ;;
  host) ;;
  *) echo "explore_nightly.sh: unknown driver $driver (pocl, pocl-mali, oclgrind, lavapipe, lavapipe-mali," \
       "lavapipe-mesa25, host)" >&2; exit 2 ;;
esac
# shellcheck disable=SC2086
exec $wrapper "$exe" explore --seed "$seed" --count "$count" --profile "$profile" --work "$work/build" \
  --out "$work/$driver" --time-budget "$budget" --known "$src/harness/test/explore/known_findings.json"
