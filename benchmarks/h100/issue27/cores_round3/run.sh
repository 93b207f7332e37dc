#!/bin/sh
# Issue 27 item 3 (helper `cores`), round 3 on the 16-core Xeon (<= 45 s; timeouts sum to 40 s): the final
# `cores` branch (stencils with 2 strips per thread where they are at most 96 rows): every host pipeline at
# 1080p on 16 threads, twice; the changed stencils at 4096^2 on 16 threads and at 1080p and 4096^2 on 2
# threads (taskset -c 0,1, HL_NUM_THREADS=2). OpenCV paired, median of 3 repetitions. Everything in $OUT/cores.tgz.
D=$PWD/.device/cores
O=/tmp/coresout; rm -rf $O; mkdir -p $O
L=/tmp/coreslib; mkdir -p $L; tar xJf $D/libs.tar.xz -C $L || exit 3
export LD_LIBRARY_PATH=$L
B=$D/pipeline-benchmarks
BASE='brighten|gaussian5x5|unsharp_mask|rgb_to_yuv|conv3x3_f16|sobel|sobel_strict|resize_bilinear|hist_equalize|blur3x3|reduce_stats|int_edges|bitonic_sort|matmul'
CHANGED='gaussian5x5|conv3x3_f16|unsharp_mask|sobel|sobel_strict'
{ date -u; nproc; cat /proc/loadavg; } > $O/cpu.txt 2>&1
step() { echo "== $1 $(date -u +%H:%M:%S) load $(cut -d' ' -f1 /proc/loadavg)" >> $O/log.txt; }
C="--benchmark_repetitions=3 --benchmark_min_time=0.02 --benchmark_report_aggregates_only=true --benchmark_out_format=json"
run() {  # name timeout command...
  n=$1; t=$2; shift 2; step $n
  timeout $t "$@" $C --benchmark_out=$O/$n.json > $O/$n.log 2>&1; echo "rc=$?" >> $O/log.txt
}
run host16_1080p_a 9 $B --benchmark_filter="^BM_($BASE)/host/1920x1080/"
run host16_1080p_b 9 $B --benchmark_filter="^BM_($BASE)/host/1920x1080/"
run host16_4096_changed 8 $B --benchmark_filter="^BM_($CHANGED)/host/4096x4096/"
export HL_NUM_THREADS=2
run host2_1080p_changed 6 taskset -c 0,1 $B --benchmark_filter="^BM_($CHANGED)/host/1920x1080/"
run host2_4096_changed 8 taskset -c 0,1 $B --benchmark_filter="^BM_($CHANGED)/host/4096x4096/"
step end
tar czf $OUT/cores.tgz -C $O .
cat $O/log.txt
