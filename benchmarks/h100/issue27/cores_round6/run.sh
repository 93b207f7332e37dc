#!/bin/sh
# Issue 27 item 3 (helper `cores`), round 3 (verification) on the 16-core Xeon (timeouts sum to 54 s): the final
# binary (branch cores3 at 4e2f294) at 1080p on 16 threads, Halide 21's pool and harness::ParallelPool
# alternated twice (round 2's host was noisy), then the 2-thread cells nearest 1.0x on both pools.
# What else runs on the machine is recorded first (ps). OpenCV paired, median of 3. All in $OUT/cores.tgz.
D=$PWD/.device/cores
O=/tmp/coresout; rm -rf $O; mkdir -p $O
L=/tmp/coreslib; mkdir -p $L; tar xJf $D/libs.tar.xz -C $L || exit 3
X=/tmp/coresbin; mkdir -p $X; tar xJf $D/bin.tar.xz -C $X || exit 3
export LD_LIBRARY_PATH=$L
B=$X/pipeline-benchmarks
BASE='brighten|gaussian5x5|unsharp_mask|rgb_to_yuv|conv3x3_f16|sobel|sobel_strict|resize_bilinear|hist_equalize|blur3x3|reduce_stats|int_edges'
TWO='unsharp_mask|resize_bilinear|hist_equalize'
{ date -u; nproc; cat /proc/loadavg; ps -eo pcpu,pid,comm --sort=-pcpu | head -15; } > $O/cpu.txt 2>&1
step() { echo "== $1 $(date -u +%H:%M:%S) load $(cut -d' ' -f1 /proc/loadavg)" >> $O/log.txt; }
C="--benchmark_repetitions=3 --benchmark_min_time=0.02 --benchmark_report_aggregates_only=true --benchmark_out_format=json"
S=""; command -v stdbuf > /dev/null && S="stdbuf -oL"
run() {  # name timeout command...
  n=$1; t=$2; shift 2; step $n
  timeout $t $S "$@" $C --benchmark_out=$O/$n.json > $O/$n.log 2>&1; echo "rc=$?" >> $O/log.txt
}
run h16_1080_halide 9 $B --halide_pool=halide --benchmark_filter="^BM_($BASE)/host/1920x1080/"
run h16_1080_harness 9 $B --halide_pool=harness --benchmark_filter="^BM_($BASE)/host/1920x1080/"
run h16_1080_halide_b 9 $B --halide_pool=halide --benchmark_filter="^BM_($BASE)/host/1920x1080/"
run h16_1080_harness_b 9 $B --halide_pool=harness --benchmark_filter="^BM_($BASE)/host/1920x1080/"
export HL_NUM_THREADS=2
run h2_1080_halide 6 taskset -c 0,1 $B --halide_pool=halide --benchmark_filter="^BM_($TWO)/host/1920x1080/"
run h2_1080_harness 6 taskset -c 0,1 $B --halide_pool=harness --benchmark_filter="^BM_($TWO)/host/1920x1080/"
step end
ps -eo pcpu,pid,comm --sort=-pcpu | head -8 >> $O/cpu.txt
tar czf $OUT/cores.tgz -C $O .
cat $O/log.txt
