#!/bin/bash
# Issue 27 on the lent H100 (run from the repository root with .device/perf carried): the NPP baselines'
# check, the GPU pipelines against NPP at 4096^2 and 16384^2, the full matrix before/after (default
# settings: old binary one child per case, new binary batches), the host pipelines against OpenCV on
# 16 threads (old and new binaries, interleaved). Everything it measures goes to $OUT.
D=$PWD/.device/perf
cd $D && tar xJf payload.tar.xz || exit 3
for f in gl/*.deb; do dpkg -x $f /; done; ldconfig
export LD_LIBRARY_PATH=$D/lib
mkdir -p /tmp/v && echo libnvidia-opencl.so.1 > /tmp/v/nvidia.icd && export OCL_ICD_VENDORS=/tmp/v
export VK_DRIVER_FILES=/usr/local/nvidia/share/vulkan/icd.d/nvidia_icd.json VK_ICD_FILENAMES=/usr/local/nvidia/share/vulkan/icd.d/nvidia_icd.json
export __EGL_VENDOR_LIBRARY_FILENAMES=/usr/local/nvidia/share/glvnd/egl_vendor.d/10_nvidia.json
L=$OUT/log.txt
T=/tmp/logs; mkdir -p $T
{ date -u; nvidia-smi -L; nvidia-smi --query-gpu=driver_version,clocks.sm,clocks.mem --format=csv,noheader; nproc
  ls /usr/local/cuda/lib64/libnpp* 2>&1 | head -3; new/aot-harness --version; old/aot-harness --version; } > $L 2>&1
step() { echo "== $1 $(date -u +%H:%M:%S) load $(cut -d' ' -f1 /proc/loadavg)" >> $L; }
step npp-test
timeout 60 new/npp-baselines-test >> $L 2>&1
step matrix-old
( time timeout 110 old/aot-harness run --golden-dir golden --json $OUT/matrix_old.json ) > $T/matrix_old.log 2>&1
tail -3 $T/matrix_old.log >> $L
step matrix-new
( export HARNESS_BATCH_LOG=$T/batches.log; time timeout 60 new/aot-harness run --golden-dir golden --json $OUT/matrix_new.json ) > $T/matrix_new.log 2>&1
tail -3 $T/matrix_new.log >> $L
step npp-bench
timeout 170 new/pipeline-benchmarks --harness_big --no_opencv_pairing --benchmark_repetitions=3 --benchmark_min_time=0.05 \
  --benchmark_report_aggregates_only=true --benchmark_out_format=json --benchmark_out=$OUT/bench_npp.json \
  --benchmark_filter='^BM_(memcpy/(opencl|cuda)/|[a-z0-9_]+/(opencl|cuda)/(4096x4096|16384x16384|large)/resident)' > $T/bench_npp.log 2>&1
step host-old
timeout 60 old/pipeline-benchmarks --benchmark_filter='^BM_(memcpy/host/|[a-z0-9_]+/host/)' --benchmark_repetitions=3 \
  --benchmark_min_time=0.1 --benchmark_report_aggregates_only=true --benchmark_out_format=json --benchmark_out=$OUT/host_old.json > /dev/null 2>> $L
step host-new
timeout 60 new/pipeline-benchmarks --benchmark_filter='^BM_(memcpy/host/|[a-z0-9_]+/host/)' --benchmark_repetitions=3 \
  --benchmark_min_time=0.1 --benchmark_report_aggregates_only=true --benchmark_out_format=json --benchmark_out=$OUT/host_new.json > /dev/null 2>> $L
step end
tar czf $OUT/logs.tgz -C $T .
grep -E "max \||SKIPPED|FAILED|PASSED" $L | head -40; grep -E "^[0-9]+ runs|real" $T/matrix_*.log
