#!/bin/sh
# Issue 27 item 3 (helper `cores`), round 1 of the third session on the 16-core Xeon (timeouts sum to 102 s):
# Halide 21's own thread pool against harness::ParallelPool (--halide_pool=harness, spin 2 ms) on the same
# binary (rgb_to_yuv with its tail strip partitioned, commit 04b782e; the pool with its start fix), every host pipeline at 1080p and
# 4096^2 on 16 threads, strip candidates at 1080p on both pools, 1080p on 2 threads (taskset -c 0,1,
# HL_NUM_THREADS=2) on both pools, BM_pool on both, task-times (each task alone) and the pool's unit test.
# OpenCV paired after every iteration, median of 3 repetitions. Everything in $OUT/cores.tgz.
D=$PWD/.device/cores
O=/tmp/coresout; rm -rf $O; mkdir -p $O
L=/tmp/coreslib; mkdir -p $L; tar xJf $D/libs.tar.xz -C $L || exit 3
X=/tmp/coresbin; mkdir -p $X; tar xJf $D/bin.tar.xz -C $X || exit 3
export LD_LIBRARY_PATH=$L
B=$X/pipeline-benchmarks
BASE='brighten|gaussian5x5|unsharp_mask|rgb_to_yuv|conv3x3_f16|sobel|sobel_strict|resize_bilinear|hist_equalize|blur3x3|reduce_stats|int_edges'
CAND='rgb_to_yuv_strips8|rgb_to_yuv_strips32|brighten_strips204|brighten_strips408|brighten_strips_t1|brighten_strips_t2|gaussian5x5_strips_t1|unsharp_mask_strips_t1|conv3x3_f16_strips_t1|sobel_strips_t1'
{ date -u; nproc; cat /proc/loadavg; lscpu | head -20; } > $O/cpu.txt 2>&1
step() { echo "== $1 $(date -u +%H:%M:%S) load $(cut -d' ' -f1 /proc/loadavg)" >> $O/log.txt; }
C="--benchmark_repetitions=3 --benchmark_min_time=0.02 --benchmark_report_aggregates_only=true --benchmark_out_format=json"
S=""; command -v stdbuf > /dev/null && S="stdbuf -oL"  # a timed-out run keeps every finished line
run() {  # name timeout command...
  n=$1; t=$2; shift 2; step $n
  timeout $t $S "$@" $C --benchmark_out=$O/$n.json > $O/$n.log 2>&1; echo "rc=$?" >> $O/log.txt
}
step unit; timeout 5 $X/parallel-pool-test > $O/parallel_pool_test.log 2>&1; echo "rc=$?" >> $O/log.txt
step task_times
timeout 6 sh -c "for p in rgb_to_yuv gaussian5x5 brighten; do $X/task-times \$p host 1920x1080 16 10; done" > $O/task_times.txt 2>&1
echo "rc=$?" >> $O/log.txt
run h16_1080_halide 10 $B --halide_pool=halide --benchmark_filter="^BM_($BASE)/host/1920x1080/"
run h16_1080_harness 10 $B --halide_pool=harness --benchmark_filter="^BM_($BASE)/host/1920x1080/"
run h16_4096_halide 12 $B --halide_pool=halide --benchmark_filter="^BM_($BASE)/host/4096x4096/"
run h16_4096_harness 12 $B --halide_pool=harness --benchmark_filter="^BM_($BASE)/host/4096x4096/"
run h16_cand_halide 9 $B --halide_pool=halide --benchmark_filter="^BM_($CAND)/host/1920x1080/"
run h16_cand_harness 9 $B --halide_pool=harness --benchmark_filter="^BM_($CAND)/host/1920x1080/"
run h16_pool_halide 5 $B --halide_pool=halide --benchmark_filter="^BM_pool/"
run h16_pool_harness 5 $B --halide_pool=harness --benchmark_filter="^BM_pool/"
export HL_NUM_THREADS=2
run h2_1080_halide 10 taskset -c 0,1 $B --halide_pool=halide --benchmark_filter="^BM_($BASE)/host/1920x1080/"
run h2_1080_harness 10 taskset -c 0,1 $B --halide_pool=harness --benchmark_filter="^BM_($BASE)/host/1920x1080/"
step end
tar czf $OUT/cores.tgz -C $O .
cat $O/log.txt
