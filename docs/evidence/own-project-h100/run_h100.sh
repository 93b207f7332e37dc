#!/bin/sh
# The H100 call of issue 24: `aot-harness bench` of an outside project's pipeline (examples/own-project's
# sharpen, a Python generator, built against the installed package) on opencl, cuda and vulkan with % of
# copy, and bench's overhead against a direct call of the host variant (4096^2, median over repetitions,
# alternated twice). Run from the repository root with .device/product carried: bin/aot-harness and
# bin/sharpen-direct of the outside build, gl/*.deb (the Vulkan loader), lib/libOpenCL.so.1.
D=$PWD/.device/product
for f in "$D"/gl/*.deb; do dpkg -x "$f" /; done; ldconfig
export LD_LIBRARY_PATH=$D/lib
mkdir -p /tmp/v && echo libnvidia-opencl.so.1 > /tmp/v/nvidia.icd && export OCL_ICD_VENDORS=/tmp/v
export VK_DRIVER_FILES=/usr/local/nvidia/share/vulkan/icd.d/nvidia_icd.json
export __EGL_VENDOR_LIBRARY_FILENAMES=/usr/local/nvidia/share/glvnd/egl_vendor.d/10_nvidia.json
cd "$D" || exit 1
{ date -u; nvidia-smi --query-gpu=name,driver_version,memory.total --format=csv; lscpu | grep -E "Model name|^CPU\(s\)"
  bin/aot-harness --version; bin/aot-harness list; } > "$OUT/env.txt" 2>&1
# 1. the GPU profiles: resident and round trip, 4096 x 4096 (the Python generator's estimate case)
# (and threshold, a C++ spec with make_case, at --size 4096x4096)
{ date -u; time timeout 150 bin/aot-harness bench --pipeline sharpen,threshold --profile opencl,cuda,vulkan \
    --case estimate --size 4096x4096 --repetitions 5 --min-time 0.05 --json "$OUT/bench-gpu.json"; echo "bench exit $?"
  date -u; } > "$OUT/bench-gpu.log" 2>&1
# 2. overhead: the host variant called directly vs through bench, alternated, median of 9 repetitions each
for i in 1 2; do
  echo "== round $i $(date -u +%H:%M:%S)"
  bin/sharpen-direct 4096 4096 9 0.2 | tail -1
  timeout 60 bin/aot-harness bench --pipeline sharpen --profile host --case estimate --mode resident \
    --repetitions 9 --min-time 0.2 --json "$OUT/bench-host-$i.json" | grep -E "median|sharpen/host|exit|bench host"
done > "$OUT/overhead.log" 2>&1
tail -25 "$OUT/bench-gpu.log"; cat "$OUT/overhead.log"
