#!/bin/sh
# Issue 25 on the lent H100: NVIDIA Vulkan before (children exit with the runtime live:
# --no-device-release, with the teardown triage's re-run) and after (children release), every
# vulkan/vulkan-mali pipeline x case, raw outcomes (empty xfail list); then repro bundles made on the
# dev VM, unpacked in /tmp and run with only their own files.
D=$PWD/.device/triage
for f in $D/gl/*.deb; do dpkg -x $f /; done; ldconfig
export VK_DRIVER_FILES=/usr/local/nvidia/share/vulkan/icd.d/nvidia_icd.json VK_ICD_FILENAMES=/usr/local/nvidia/share/vulkan/icd.d/nvidia_icd.json
export __EGL_VENDOR_LIBRARY_FILENAMES=/usr/local/nvidia/share/glvnd/egl_vendor.d/10_nvidia.json
{ date -u; nvidia-smi -L; nvidia-smi --query-gpu=driver_version --format=csv,noheader; $D/bin/aot-harness --version; which c++ g++ gcc; nproc; } > $OUT/env.txt 2>&1
cd $D
echo '{"format": 1, "xfail": []}' > /tmp/no_xfail.json
common="--profile vulkan,vulkan-mali --golden-dir golden --xfail /tmp/no_xfail.json --flake-retries 0 --gpu-jobs 4 --jobs 16 --timeout 60"
( time timeout 170 bin/aot-harness run $common --no-device-release --json $OUT/before.json ) > $OUT/before.log 2>&1
( time timeout 100 bin/aot-harness run $common --json $OUT/after.json ) > $OUT/after.log 2>&1
for b in repro-*.tar.gz; do
  rm -rf /tmp/r && mkdir /tmp/r && tar -xzf $b -C /tmp/r && cd /tmp/r/repro-* || continue
  echo "=== $b: ./run.sh (started $(date -u +%T))"
  env -i PATH=/usr/bin:/bin VK_DRIVER_FILES=$VK_DRIVER_FILES VK_ICD_FILENAMES=$VK_ICD_FILENAMES sh ./run.sh; echo "run.sh exit $?"
  echo "=== $b: ./run.sh --no-release"
  env -i PATH=/usr/bin:/bin VK_DRIVER_FILES=$VK_DRIVER_FILES VK_ICD_FILENAMES=$VK_ICD_FILENAMES sh ./run.sh --no-release; echo "run.sh --no-release exit $?"
  cd $D
done > $OUT/repro.log 2>&1
tail -3 $OUT/before.log $OUT/after.log; grep -a "exit" $OUT/repro.log
