#!/bin/bash
# Issue 27 on the lent H200 machine, round 1 (run from the repository root, .device/c1 and .gl carried): is NPP
# there, the whole matrix with 128-byte aligned host buffers (every profile, NVIDIA's CUDA, OpenCL and Vulkan),
# the GPU pipelines against NPP at 4096^2 and 16384^2 with the A/B candidates (<p>_c1: byte stores, the schedules
# before this round), and the host pipelines at 1080p and 4096^2 on 16 threads, paired with OpenCV and alone.
# Everything it measures goes to $OUT.
W=/tmp/r1; rm -rf $W; mkdir -p $W; tar xJf .device/c1/payload.tar.xz -C $W || exit 3
for f in .gl/*.deb; do dpkg -x $f /; done; ldconfig
export LD_LIBRARY_PATH=$W/lib
mkdir -p /tmp/v && echo libnvidia-opencl.so.1 > /tmp/v/nvidia.icd && export OCL_ICD_VENDORS=/tmp/v
export VK_DRIVER_FILES=/usr/local/nvidia/share/vulkan/icd.d/nvidia_icd.json
L=$OUT/log.txt; T=/tmp/logs; mkdir -p $T
{ date -u; nvidia-smi -L; nvidia-smi --query-gpu=driver_version,clocks.sm,clocks.mem --format=csv,noheader; nproc
  grep -m1 "model name" /proc/cpuinfo; ls /usr/local/cuda/lib64/ | grep -E "libnpp(c|if)\.so|libcublas\.so" | head -4
  $W/bin/aot-harness --version; } > $L 2>&1
step() { echo "== $1 $(date -u +%H:%M:%S) load $(cut -d' ' -f1 /proc/loadavg)" >> $L; }
step npp-test
timeout 60 $W/bin/npp-baselines-test 2>&1 | grep -E "PASSED|FAILED|SKIPPED|OK \]" | head -20 >> $L
step matrix
P=bitonic_sort,blur3x3,brighten,conv3x3_f16,gaussian5x5,hist_equalize,int_edges,matmul,reduce_stats,resize_bilinear,rgb_to_yuv,sobel,unsharp_mask
( time timeout 90 $W/bin/aot-harness run --golden-dir golden --pipeline $P --json $OUT/matrix.json ) > $T/matrix.log 2>&1
grep -E "^[0-9]+ runs|real" $T/matrix.log >> $L; grep -vE "PASS|XFAIL" $T/matrix.log | grep -E "^\[" | head -20 >> $L
step gpu-bench
R="--benchmark_repetitions=3 --benchmark_min_time=0.05 --benchmark_report_aggregates_only=true --benchmark_out_format=json"
timeout 240 $W/bin/pipeline-benchmarks --harness_sizes=4096x4096,16384x16384 --no_opencv_pairing $R --benchmark_out=$OUT/gpu.json \
  --benchmark_filter='^BM_(memcpy/(opencl|cuda)/|npp/|[a-z0-9_]+/(opencl|cuda)/([0-9x]+|large)/resident)' > $T/gpu.log 2>&1
echo "gpu-bench rc=$?" >> $L
step host-paired
timeout 60 $W/bin/pipeline-benchmarks $R --benchmark_out=$OUT/host_paired.json \
  --benchmark_filter='^BM_[a-z0-9_]+/host/(1920x1080|4096x4096)/' > $T/host_paired.log 2>&1
echo "host-paired rc=$?" >> $L
step host-alone
timeout 60 $W/bin/pipeline-benchmarks --no_opencv_pairing $R --benchmark_out=$OUT/host_alone.json \
  --benchmark_filter='^BM_([a-z0-9_]+/host/(1920x1080|4096x4096)/|opencv/[a-z0-9_]+/(1920x1080|4096x4096)/threads:16)' > $T/host_alone.log 2>&1
echo "host-alone rc=$?" >> $L
step end
tar czf $OUT/logs.tgz -C $T .
cat $L
grep -h "_median" $T/gpu.log | awk '{printf "%s %s ", $1, $2; for(i=6;i<=NF;i++) if ($i ~ /speedup_vs|pct_of_copy/) printf "%s ", $i; print ""}' | sed 's/manual_time_median//' | head -80
