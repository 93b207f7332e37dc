#!/bin/sh
# Issue 26 on the H100: NVIDIA's Vulkan with the harness's shim, every vulkan/vulkan-mali case (host mode),
# the driver's buffer requirements, and the remaining failures under the Khronos validation layer.
set -u
D=$PWD/.device/vulkan
for f in $D/gl/*.deb; do dpkg -x $f /; done; ldconfig
mkdir -p /tmp/vl && dpkg -x $D/vl/vulkan-validationlayers_*.deb /tmp/vl
export VK_DRIVER_FILES=/usr/local/nvidia/share/vulkan/icd.d/nvidia_icd.json
export __EGL_VENDOR_LIBRARY_FILENAMES=/usr/local/nvidia/share/glvnd/egl_vendor.d/10_nvidia.json
cd $D
{ date -u; nvidia-smi --query-gpu=name,driver_version --format=csv,noheader; python3 buffer_requirements.py; bin/aot-harness env; } > $OUT/env.txt 2>&1
( time timeout 110 bin/aot-harness run --profile vulkan,vulkan-mali --golden-dir golden --timeout 60 --json $OUT/results-nvidia.json ) > $OUT/run.log 2>&1
VK_ADD_LAYER_PATH=/tmp/vl/usr/share/vulkan/explicit_layer.d LD_LIBRARY_PATH=/tmp/vl/usr/lib/x86_64-linux-gnu \
  VK_INSTANCE_LAYERS=VK_LAYER_KHRONOS_validation VK_LAYER_SETTINGS_PATH=$D/layers/core \
  timeout 40 bin/aot-harness run --pipeline int_edges,unsharp_mask,bitonic_sort,blur3x3,matmul --profile vulkan,vulkan-mali \
  --case small --golden-dir golden --json $OUT/results-nvidia-vklayer.json > $OUT/vklayer.log 2>&1
date -u >> $OUT/env.txt
tail -3 $OUT/run.log; tail -2 $OUT/vklayer.log
