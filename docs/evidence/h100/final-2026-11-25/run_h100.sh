#!/bin/sh
# Final main on the H100: the whole matrix with default settings (wall time, outcomes), then NVIDIA
# Vulkan alone (host mode) for the triage/Vulkan tables.
D=$PWD/.device/final
for f in "$D"/gl/*.deb; do dpkg -x "$f" /; done; ldconfig
export LD_LIBRARY_PATH=$D/lib
mkdir -p /tmp/v && echo libnvidia-opencl.so.1 > /tmp/v/nvidia.icd && export OCL_ICD_VENDORS=/tmp/v
export VK_DRIVER_FILES=/usr/local/nvidia/share/vulkan/icd.d/nvidia_icd.json
cd "$D" || exit 3
{ date -u; nvidia-smi -L; nproc; bin/aot-harness --version; } > "$OUT/env.txt" 2>&1
( time timeout 240 bin/aot-harness run --golden-dir golden --json "$OUT/matrix.json" ) > "$OUT/matrix.log" 2>&1
( time timeout 120 bin/aot-harness run --golden-dir golden --profile vulkan,vulkan-mali --json "$OUT/vulkan.json" ) > "$OUT/vulkan.log" 2>&1
tail -5 "$OUT/matrix.log"; tail -5 "$OUT/vulkan.log"
grep -E "CRASH|TEARDOWN|TIMEOUT" "$OUT/matrix.log" | head -10
