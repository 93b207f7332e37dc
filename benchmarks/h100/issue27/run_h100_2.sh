#!/bin/bash
# Issue 27, second H100 call: the NPP baselines' check again (sobel angle, resize on a ramp), the full
# matrix with the default settings (batches; the first call's old-binary records are the reference),
# and the GPU pipelines against NPP (BM_npp timed on its own, not interleaved) at 16384^2, then 4096^2.
D=$PWD/.device/perf
cd $D && tar xJf payload.tar.xz || exit 3
for f in gl/*.deb; do dpkg -x $f /; done; ldconfig
export LD_LIBRARY_PATH=$D/lib
mkdir -p /tmp/v && echo libnvidia-opencl.so.1 > /tmp/v/nvidia.icd && export OCL_ICD_VENDORS=/tmp/v
export VK_DRIVER_FILES=/usr/local/nvidia/share/vulkan/icd.d/nvidia_icd.json VK_ICD_FILENAMES=/usr/local/nvidia/share/vulkan/icd.d/nvidia_icd.json
export __EGL_VENDOR_LIBRARY_FILENAMES=/usr/local/nvidia/share/glvnd/egl_vendor.d/10_nvidia.json
L=$OUT/log.txt
T=/tmp/logs; mkdir -p $T
{ date -u; nvidia-smi -L; nproc; new/aot-harness --version; echo "ulimit -c: $(ulimit -c)"; echo "core_pattern: $(cat /proc/sys/kernel/core_pattern)"; } > $L 2>&1
step() { echo "== $1 $(date -u +%H:%M:%S) load $(cut -d' ' -f1 /proc/loadavg)" >> $L; }
step npp-test
timeout 40 new/npp-baselines-test >> $L 2>&1
step matrix-new
( export HARNESS_BATCH_LOG=$T/batches.log; time timeout 60 new/aot-harness run --golden-dir golden --json $OUT/matrix_new.json ) > $T/matrix_new.log 2>&1
tail -3 $T/matrix_new.log >> $L
P='(blur3x3|brighten|gaussian5x5|sobel|unsharp_mask|resize_bilinear|rgb_to_yuv|hist_equalize|reduce_stats)'
for size in 16384x16384 4096x4096; do
  step bench-$size
  extra=""; [ $size = 4096x4096 ] && extra="|npp/matmul/large|matmul/(opencl|cuda)/large/resident"
  to=100; [ $size = 4096x4096 ] && to=70
  timeout $to new/pipeline-benchmarks --harness_big --no_opencv_pairing --benchmark_repetitions=3 --benchmark_min_time=0.02 \
    --benchmark_report_aggregates_only=true --benchmark_out_format=json --benchmark_out=$OUT/bench_$size.json \
    --benchmark_filter="^BM_(memcpy/(opencl|cuda)/|npp/$P/$size|$P/(opencl|cuda)/$size/resident$extra)" > $T/bench_$size.log 2>&1
done
step end
tar czf $OUT/logs.tgz -C $T .
grep -E "max \||FAILED|PASSED|ulimit|core_pattern|^==" $L | head -40; grep -E "^[0-9]+ runs|real" $T/matrix_new.log
grep -h "_median" $T/bench_*.log | grep -v memcpy | awk '{printf "%s %s %s ", $1, $2, $3; for(i=6;i<=NF;i++) if ($i ~ /speedup_vs_npp|pct_of_copy/) printf "%s ", $i; print ""}' | sed 's/manual_time_median//'
