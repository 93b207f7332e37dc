#!/bin/sh
# Issue 27 item 3 (helper `cores`), round 2 of the third session on the 16-core Xeon (timeouts sum to 100 s):
# branch cores3 at 4e2f294: the stencils' strips partitioned at the image edges (always_partition(x): gaussian5x5,
# conv3x3_f16, sobel, unsharp_mask; rgb_to_yuv since round 1), hist_equalize's partials summed 16 bins at a time. Halide 21's own pool against
# harness::ParallelPool (--halide_pool=harness, spin 2 ms; harness:200 = spin 0.2 ms) on the same binary:
# every host pipeline at 1080p on 16 threads, the 4096^2 cells round 1 lost to its timeout plus the changed
# stencils, and the 2-thread cells (taskset -c 0,1, HL_NUM_THREADS=2) that were within 10 % of OpenCV.
# OpenCV paired after every iteration, median of 3 repetitions. Everything in $OUT/cores.tgz.
D=$PWD/.device/cores
O=/tmp/coresout; rm -rf $O; mkdir -p $O
L=/tmp/coreslib; mkdir -p $L; tar xJf $D/libs.tar.xz -C $L || exit 3
X=/tmp/coresbin; mkdir -p $X; tar xJf $D/bin.tar.xz -C $X || exit 3
export LD_LIBRARY_PATH=$L
B=$X/pipeline-benchmarks
BASE='brighten|gaussian5x5|unsharp_mask|rgb_to_yuv|conv3x3_f16|sobel|sobel_strict|resize_bilinear|hist_equalize|blur3x3|reduce_stats|int_edges'
BIG16='gaussian5x5|unsharp_mask|conv3x3_f16|sobel|sobel_strict|resize_bilinear|hist_equalize'
TWO='gaussian5x5|unsharp_mask|conv3x3_f16|sobel_strict|resize_bilinear|hist_equalize'
{ date -u; nproc; cat /proc/loadavg; lscpu | head -20; } > $O/cpu.txt 2>&1
step() { echo "== $1 $(date -u +%H:%M:%S) load $(cut -d' ' -f1 /proc/loadavg)" >> $O/log.txt; }
C="--benchmark_repetitions=3 --benchmark_min_time=0.02 --benchmark_report_aggregates_only=true --benchmark_out_format=json"
S=""; command -v stdbuf > /dev/null && S="stdbuf -oL"  # a timed-out run keeps every finished line
run() {  # name timeout command...
  n=$1; t=$2; shift 2; step $n
  timeout $t $S "$@" $C --benchmark_out=$O/$n.json > $O/$n.log 2>&1; echo "rc=$?" >> $O/log.txt
}
step unit; timeout 4 $X/parallel-pool-test > $O/parallel_pool_test.log 2>&1; echo "rc=$?" >> $O/log.txt
step task_times
timeout 4 sh -c "for p in unsharp_mask gaussian5x5 sobel; do $X/task-times \$p host 1920x1080 2 10; done" > $O/task_times.txt 2>&1
echo "rc=$?" >> $O/log.txt
run h16_1080_halide 9 $B --halide_pool=halide --benchmark_filter="^BM_($BASE)/host/1920x1080/"
run h16_1080_harness 9 $B --halide_pool=harness --benchmark_filter="^BM_($BASE)/host/1920x1080/"
run h16_1080_harness200 8 $B --halide_pool=harness:200 --benchmark_filter="^BM_($BASE)/host/1920x1080/"
run h16_4096_halide 13 $B --halide_pool=halide --benchmark_filter="^BM_($BIG16)/host/4096x4096/"
run h16_4096_harness 13 $B --halide_pool=harness --benchmark_filter="^BM_($BIG16)/host/4096x4096/"
export HL_NUM_THREADS=2
run h2_1080_halide 8 taskset -c 0,1 $B --halide_pool=halide --benchmark_filter="^BM_($TWO)/host/1920x1080/"
run h2_1080_harness 8 taskset -c 0,1 $B --halide_pool=harness --benchmark_filter="^BM_($TWO)/host/1920x1080/"
run h2_4096_halide 12 taskset -c 0,1 $B --halide_pool=halide --benchmark_filter="^BM_($TWO)/host/4096x4096/"
run h2_4096_harness 12 taskset -c 0,1 $B --halide_pool=harness --benchmark_filter="^BM_($TWO)/host/4096x4096/"
step end
tar czf $OUT/cores.tgz -C $O .
cat $O/log.txt
