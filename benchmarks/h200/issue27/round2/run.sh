#!/bin/bash
# Issue 27 on the lent H200 machine, round 2 (run from the repository root, .device/c2 and .gl carried): the host
# pipelines at 1080p and 4096^2 on 16 threads, Halide's own pool, paired with OpenCV in blocks (the new default)
# and after every call (the former default), twice each, alternated; then the GPU pipelines round 1 did not reach
# and blur3x3 again (5 repetitions), against NPP at 4096^2 and 16384^2, with the A/B candidates (<p>_c1).
W=/tmp/r2; rm -rf $W; mkdir -p $W; tar xJf .device/c2/payload.tar.xz -C $W || exit 3
for f in .gl/*.deb; do dpkg -x $f /; done; ldconfig
export LD_LIBRARY_PATH=$W/lib
mkdir -p /tmp/v && echo libnvidia-opencl.so.1 > /tmp/v/nvidia.icd && export OCL_ICD_VENDORS=/tmp/v
L=$OUT/log.txt; T=/tmp/logs; mkdir -p $T
{ date -u; nvidia-smi -L; nproc; grep -m1 "model name" /proc/cpuinfo; $W/bin/aot-harness --version; } > $L 2>&1
step() { echo "== $1 $(date -u +%H:%M:%S) load $(cut -d' ' -f1 /proc/loadavg)" >> $L; }
R="--benchmark_repetitions=3 --benchmark_min_time=0.05 --benchmark_report_aggregates_only=true --benchmark_out_format=json"
H='--benchmark_filter=^BM_[a-z0-9_]+/host/(1920x1080|4096x4096)/'
for pass in a b; do
  for p in blocks iteration; do
    step host-$p-$pass
    timeout 60 $W/bin/pipeline-benchmarks --pairing=$p $R --benchmark_out=$OUT/host_${p}_$pass.json "$H" > $T/host_${p}_$pass.log 2>&1
    echo "rc=$?" >> $L
  done
done
step gpu-bench
timeout 260 $W/bin/pipeline-benchmarks --harness_sizes=4096x4096,16384x16384 --no_opencv_pairing \
  --benchmark_repetitions=5 --benchmark_min_time=0.05 --benchmark_report_aggregates_only=true --benchmark_out_format=json \
  --benchmark_out=$OUT/gpu.json \
  --benchmark_filter='^BM_(memcpy/(opencl|cuda)/|npp/(blur3x3|resize_bilinear|rgb_to_yuv|sobel|unsharp_mask)/|(blur3x3|resize_bilinear|rgb_to_yuv|sobel|unsharp_mask)(_c1)?/(opencl|cuda)/[0-9x]+/resident)' > $T/gpu.log 2>&1
echo "gpu-bench rc=$?" >> $L
step end
tar czf $OUT/logs.tgz -C $T .
cat $L
for f in $T/host_*.log; do echo "## $f"; grep -h "_median" $f | awk '{printf "%s %s ", $1, $2; for(i=6;i<=NF;i++) if ($i ~ /speedup_vs/) printf "%s ", $i; print ""}' | sed 's/resident.manual_time_median//'; done
grep -h "_median" $T/gpu.log | awk '{printf "%s %s ", $1, $2; for(i=6;i<=NF;i++) if ($i ~ /speedup_vs|pct_of_copy/) printf "%s ", $i; print ""}' | sed 's/manual_time_median//'
