#!/bin/sh
# Issue 27 item 3 (helper `cores`), round 2 on the 16-core Xeon (<= 80 s; timeouts sum to 72 s): the final `cores` branch's
# host pipelines against OpenCV (paired, same thread count), 1080p and 4096^2, median of 3 repetitions,
# at 16 threads and at 2 (taskset -c 0,1, HL_NUM_THREADS=2); candidates with 1 and 2 strips per thread
# (<p>_strips_t<k>) at 1080p on 16 threads; the final schedules on the spinning pool (--halide_spin_pool,
# diagnostic);
# BM_pool at 16 threads. Everything in $OUT/cores.tgz.
D=$PWD/.device/cores
O=/tmp/coresout; rm -rf $O; mkdir -p $O
L=/tmp/coreslib; mkdir -p $L; tar xJf $D/libs.tar.xz -C $L || exit 3
export LD_LIBRARY_PATH=$L
B=$D/pipeline-benchmarks
BASE='brighten|gaussian5x5|unsharp_mask|rgb_to_yuv|conv3x3_f16|sobel|sobel_strict|resize_bilinear|hist_equalize|blur3x3|reduce_stats|int_edges|bitonic_sort|matmul'
{ date -u; nproc; lscpu; grep -m1 flags /proc/cpuinfo; cat /proc/loadavg; } > $O/cpu.txt 2>&1
step() { echo "== $1 $(date -u +%H:%M:%S) load $(cut -d' ' -f1 /proc/loadavg)" >> $O/log.txt; }
C="--benchmark_repetitions=3 --benchmark_min_time=0.02 --benchmark_report_aggregates_only=true --benchmark_out_format=json"
run() {  # name timeout command...
  n=$1; t=$2; shift 2; step $n
  timeout $t "$@" $C --benchmark_out=$O/$n.json > $O/$n.log 2>&1; echo "rc=$?" >> $O/log.txt
}
run pool16 4 $B --benchmark_filter='^BM_pool/'
run host16 28 $B --benchmark_filter="^BM_($BASE)/host/"
run host16_cand_1080p 6 $B --benchmark_filter='^BM_[a-z0-9_]+_strips_t[12]/host/1920x1080/'
run host16_spin_1080p 6 $B --halide_spin_pool --benchmark_filter="^BM_($BASE)/host/1920x1080/"
export HL_NUM_THREADS=2
run host2 28 taskset -c 0,1 $B --benchmark_filter="^BM_($BASE)/host/"
step end
tar czf $OUT/cores.tgz -C $O .
cat $O/log.txt
