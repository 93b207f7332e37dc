#!/bin/sh
# Issue 27 item 3 (helper `cores`), round 1 on the 16-core Xeon (as run on 2026-11-25 at 14:00 UTC, from the
# repository root with .device/cores holding pipeline-benchmarks built at commit 3bf9228 with
# -DHARNESS_PROFILES="cpu;host" -DHARNESS_STRIP_CANDIDATES=ON and the candidate heights of that commit, and
# libs.tar.xz, the shared libraries it links, from the dev VM): Halide's pool cost per parallel call against
# OpenCV's (BM_pool), every host pipeline with the per-call strip choice and with fixed strip heights
# (<p>_strips<rows>), OpenCV paired, at 16 threads and at 2 (taskset -c 0,1, HL_NUM_THREADS=2); the same
# pipelines on a spinning pool (--halide_spin_pool, diagnostic). Everything in $OUT/cores.tgz.
D=$PWD/.device/cores
O=/tmp/coresout; rm -rf $O; mkdir -p $O
L=/tmp/coreslib; mkdir -p $L; tar xJf $D/libs.tar.xz -C $L || exit 3
export LD_LIBRARY_PATH=$L
B=$D/pipeline-benchmarks
{ date -u; nproc; lscpu; grep -m1 flags /proc/cpuinfo; cat /sys/devices/system/cpu/cpu0/cpufreq/scaling_governor;
  cat /proc/loadavg; } > $O/env.txt 2>&1
step() { echo "== $1 $(date -u +%H:%M:%S) load $(cut -d' ' -f1 /proc/loadavg)" >> $O/log.txt; }
C="--benchmark_repetitions=3 --benchmark_min_time=0.03 --benchmark_report_aggregates_only=true --benchmark_out_format=json"
BASE='brighten|gaussian5x5|unsharp_mask|rgb_to_yuv|conv3x3_f16|sobel|sobel_strict|resize_bilinear|hist_equalize|blur3x3|reduce_stats|int_edges|bitonic_sort|matmul'
run() {  # name timeout command...
  n=$1; t=$2; shift 2; step $n
  timeout $t "$@" $C --benchmark_out=$O/$n.json > $O/$n.log 2>&1; echo "rc=$?" >> $O/log.txt
}
run pool16 5 $B --benchmark_filter='^BM_pool/'
run pool16_spin 5 $B --halide_spin_pool --benchmark_filter='^BM_pool/'
run host16_1080p 30 $B --benchmark_filter='^BM_[a-z0-9_]+/host/1920x1080/'
run host16_4096 26 $B --benchmark_filter="^BM_($BASE|(hist_equalize|resize_bilinear)_strips[0-9]+)/host/(4096x4096|large)/"
run host16_spin 10 $B --halide_spin_pool --benchmark_filter="^BM_($BASE)/host/1920x1080/"
export HL_NUM_THREADS=2
run pool2 5 taskset -c 0,1 $B --benchmark_filter='^BM_pool/'
run host2 30 taskset -c 0,1 $B --benchmark_filter="^BM_($BASE|(brighten|hist_equalize|resize_bilinear|sobel)_strips(16|32))/host/"
step end
tar czf $OUT/cores.tgz -C $O .
cat $O/log.txt
