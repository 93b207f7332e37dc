#!/bin/bash
# Issue 27 on the lent H200 machine, round 3: the final binary (run from the repository root, .device/c3 and .gl
# carried). The whole matrix with default settings (every profile: NVIDIA's CUDA, OpenCL and Vulkan), every GPU
# pipeline against NPP / cuBLAS at 4096^2 then 16384^2, and the host pipelines at 1080p and 4096^2 on 16 threads
# (Halide's own pool, paired with OpenCV in blocks). Everything it measures goes to $OUT.
W=/tmp/r3; rm -rf $W; mkdir -p $W; tar xJf .device/c3/payload.tar.xz -C $W || exit 3
for f in .gl/*.deb; do dpkg -x $f /; done; ldconfig
export LD_LIBRARY_PATH=$W/lib
mkdir -p /tmp/v && echo libnvidia-opencl.so.1 > /tmp/v/nvidia.icd && export OCL_ICD_VENDORS=/tmp/v
export VK_DRIVER_FILES=/usr/local/nvidia/share/vulkan/icd.d/nvidia_icd.json
L=$OUT/log.txt; T=/tmp/logs; mkdir -p $T
{ date -u; nvidia-smi -L; nvidia-smi --query-gpu=driver_version,clocks.sm,clocks.mem --format=csv,noheader; nproc
  grep -m1 "model name" /proc/cpuinfo; $W/bin/aot-harness --version; } > $L 2>&1
step() { echo "== $1 $(date -u +%H:%M:%S) load $(cut -d' ' -f1 /proc/loadavg)" >> $L; }
step matrix
( time timeout 60 $W/bin/aot-harness run --golden-dir golden --json $OUT/matrix.json ) > $T/matrix.log 2>&1
grep -E "^[0-9]+ runs|real" $T/matrix.log >> $L; grep -E "^\[" $T/matrix.log | grep -vE " (PASS|XFAIL) " | head -20 >> $L
R="--no_opencv_pairing --benchmark_repetitions=3 --benchmark_min_time=0.05 --benchmark_report_aggregates_only=true --benchmark_out_format=json"
for s in 4096x4096 16384x16384; do
  step gpu-$s
  timeout 300 $W/bin/pipeline-benchmarks --harness_sizes=$s $R --benchmark_out=$OUT/gpu_$s.json \
    --benchmark_filter='^BM_(memcpy/(opencl|cuda)/|npp/|[a-z0-9_]+/(opencl|cuda)/([0-9x]+|large)/resident)' > $T/gpu_$s.log 2>&1
  echo "rc=$?" >> $L
done
step host16
timeout 60 $W/bin/pipeline-benchmarks --benchmark_repetitions=3 --benchmark_min_time=0.05 --benchmark_report_aggregates_only=true \
  --benchmark_out_format=json --benchmark_out=$OUT/host16.json '--benchmark_filter=^BM_[a-z0-9_]+/host/(1920x1080|4096x4096)/' > $T/host16.log 2>&1
echo "rc=$?" >> $L
step end
tar czf $OUT/logs.tgz -C $T .
cat $L
grep -h "_median" $T/gpu_*.log $T/host16.log | awk '{printf "%s %s ", $1, $2; for(i=6;i<=NF;i++) if ($i ~ /speedup_vs|pct_of_copy/) printf "%s ", $i; print ""}' | sed 's/manual_time_median//'
