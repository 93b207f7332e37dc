#!/bin/sh
# vulkan_readback_probe_test.sh PROBE: runs vulkan-readback-probe on lavapipe (Mesa's CPU Vulkan driver) with a small
# buffer and passes only if it exits 0 with at least one measured memory-type line and both Halide-pick lines; then
# a bad option and a non-numeric value must each exit non-zero with one line naming the problem. Exit 77 (SKIP) only
# when lavapipe's ICD is not installed.
set -u
probe=$1
icd=$(ls /usr/share/vulkan/icd.d/lvp_icd.*.json 2>/dev/null | head -n 1)
[ -n "$icd" ] || { echo "SKIP: no lavapipe ICD in /usr/share/vulkan/icd.d (install mesa-vulkan-drivers)"; exit 77; }
out=$(VK_DRIVER_FILES=$icd VK_ICD_FILENAMES=$icd "$probe" --bytes 65536 --reps 3 2>&1)
rc=$?
printf '%s\nexit %s\n' "$out" "$rc"
fail() { echo "FAILED: $1"; exit 1; }
[ "$rc" = 0 ] || fail "exit $rc, expected 0"
printf '%s\n' "$out" | grep -Eq '^type +[0-9]+ heap [0-9]+ .*HOST_VISIBLE.* read +[0-9.]+ ms +[0-9.]+ GB/s +write +[0-9.]+ ms +[0-9.]+ GB/s$' ||
  fail "no measured memory-type line"
for dir in device-to-host host-to-device; do
  printf '%s\n' "$out" | grep -Eq "^$dir staging: Halide 21 picks type [0-9]+ \(.*HOST_VISIBLE.*\): (read|write) [0-9.]+ GB/s; fastest (read|write): type [0-9]+ " ||
    fail "no '$dir staging: Halide 21 picks' line"
done
for bad in "--frobnicate" "--bytes lots"; do
  # shellcheck disable=SC2086
  out=$(VK_DRIVER_FILES=$icd VK_ICD_FILENAMES=$icd "$probe" $bad 2>&1)
  rc=$?
  printf '%s: %s (exit %s)\n' "$bad" "$out" "$rc"
  [ "$rc" != 0 ] || fail "'$bad' exited 0"
  [ "$(printf '%s\n' "$out" | wc -l)" = 1 ] || fail "'$bad' printed more than one line"
  printf '%s\n' "$out" | grep -q -- "${bad%% *}" || fail "'$bad': the message does not name the option"
done
echo "vulkan-readback-probe: ok"
