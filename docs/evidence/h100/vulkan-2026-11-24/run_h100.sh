#!/bin/sh
# The vulkan matrix and the 16384^2 benchmarks on the lent H100 (issue 16). Run from the repo root.
D=$PWD/.device/vulkan
# The GL/Vulkan loader packages unpacked into / (the device README's recipe), then our other libraries.
for f in $D/gl/*.deb; do dpkg -x $f /; done; ldconfig
export LD_LIBRARY_PATH=$D/lib
export __EGL_VENDOR_LIBRARY_FILENAMES=/usr/local/nvidia/share/glvnd/egl_vendor.d/10_nvidia.json
mkdir -p /tmp/v && echo libnvidia-opencl.so.1 > /tmp/v/nvidia.icd && export OCL_ICD_VENDORS=/tmp/v
{
  date -u; nvidia-smi -L; nvidia-smi --query-gpu=driver_version --format=csv,noheader
  ldconfig -p | grep -i "vulkan\|GLX_nvidia" ; ls /usr/share/vulkan/icd.d /etc/vulkan/icd.d /usr/local/nvidia/share/vulkan/icd.d 2>&1
} > $OUT/h100-env.txt 2>&1
# Pick the first NVIDIA ICD manifest with which the loader finds a device (the README's hint names
# /usr/local/nvidia's); the loader's own messages of every try go to h100-env.txt.
icd=""
for f in /usr/local/nvidia/share/vulkan/icd.d/nvidia_icd.json /usr/share/vulkan/icd.d/nvidia_icd.json; do
  [ -f "$f" ] || continue
  echo "== trying $f" >> $OUT/h100-env.txt; cat $f >> $OUT/h100-env.txt
  VK_LOADER_DEBUG=error,warn,driver VK_DRIVER_FILES=$f VK_ICD_FILENAMES=$f $D/bin/vulkaninfo --summary >> $OUT/h100-env.txt 2>&1
  if VK_DRIVER_FILES=$f VK_ICD_FILENAMES=$f $D/bin/vulkaninfo --summary 2>/dev/null | grep -q deviceName; then icd=$f; break; fi
done
if [ -z "$icd" ]; then
  for lib in /usr/local/nvidia/lib64/libGLX_nvidia.so.0 libGLX_nvidia.so.0; do
    printf '{"file_format_version":"1.0.0","ICD":{"library_path":"%s","api_version":"1.3.0"}}\n' $lib > /tmp/v/nvidia_icd.json
    echo "== trying $lib" >> $OUT/h100-env.txt
    VK_LOADER_DEBUG=error,warn,driver VK_DRIVER_FILES=/tmp/v/nvidia_icd.json VK_ICD_FILENAMES=/tmp/v/nvidia_icd.json $D/bin/vulkaninfo --summary >> $OUT/h100-env.txt 2>&1
    if VK_DRIVER_FILES=/tmp/v/nvidia_icd.json VK_ICD_FILENAMES=/tmp/v/nvidia_icd.json $D/bin/vulkaninfo --summary 2>/dev/null | grep -q deviceName; then icd=/tmp/v/nvidia_icd.json; break; fi
  done
fi
export VK_DRIVER_FILES=$icd VK_ICD_FILENAMES=$icd
echo "ICD chosen: $icd" >> $OUT/h100-env.txt
[ -n "$icd" ] || { tail -60 $OUT/h100-env.txt; exit 3; }
$D/bin/aot-harness env --json > $OUT/env.json 2>>$OUT/h100-env.txt
$D/bin/aot-harness env >> $OUT/h100-env.txt 2>&1
cd $D
# 1. every pipeline x case on vulkan and vulkan-mali (host mode), then the other modes on small/odd
( time timeout 100 bin/aot-harness run --profile 'vulkan' --golden-dir golden --timeout 60 --json $OUT/results-vulkan.json ) > $OUT/run-vulkan.log 2>&1
( time timeout 100 bin/aot-harness run --profile 'vulkan-mali' --golden-dir golden --timeout 60 --json $OUT/results-vulkan-mali.json ) >> $OUT/run-vulkan.log 2>&1
for p in vulkan vulkan-mali; do for c in small odd; do
  timeout 40 bin/aot-harness run --profile $p --case $c --mode device --golden-dir golden --timeout 60 2>&1 | grep -v "^results:"
done; done > $OUT/run-modes.log 2>&1
bin/aot-harness run --profile vulkan --case small --mode wrapped-host-visible --golden-dir golden --pipeline brighten >> $OUT/run-modes.log 2>&1
# 2. 16384^2 resident benchmarks: vulkan beside opencl and cuda, and each runtime's device copy
( time timeout 170 bin/pipeline-benchmarks --harness_big --no_opencv_pairing --benchmark_repetitions=3 \
  --benchmark_report_aggregates_only=true --benchmark_min_time=0.1 --benchmark_out_format=json --benchmark_out=$OUT/bench_h100_vulkan.json \
  --benchmark_filter='^BM_(memcpy/(opencl|cuda|vulkan)|(brighten|blur3x3|resize_bilinear|rgb_to_yuv)/(opencl|cuda|vulkan)/16384x16384/resident)' ) > $OUT/bench.log 2>&1
tail -5 $OUT/run-vulkan.log
