#!/bin/sh
# 2-vCPU dev VM: main's host schedules against this branch's, interleaved, both pinned to CPUs 0-1.
cd "$(dirname "$0")/../../../.."  # the repository root
BASE='brighten|gaussian5x5|unsharp_mask|rgb_to_yuv|conv3x3_f16|sobel|sobel_strict|resize_bilinear|hist_equalize|blur3x3|reduce_stats|int_edges|bitonic_sort|matmul'
for r in 1 2; do
  for v in main cores; do
    B=build-host/bin/pipeline-benchmarks; [ $v = main ] && B="$MAIN_BENCH"  # main's pipeline-benchmarks (cpu and host profiles)
    echo "== $v r$r $(date -u +%H:%M:%S) load $(cut -d' ' -f1 /proc/loadavg)"
    taskset -c 0,1 $B --benchmark_filter="^BM_($BASE)/host/" --benchmark_repetitions=3 --benchmark_min_time=0.1 \
      --benchmark_report_aggregates_only=true --benchmark_out_format=json --benchmark_out=$OUT/host2_${v}_r$r.json > /dev/null 2>&1
  done
done
echo "== end $(date -u +%H:%M:%S) load $(cut -d' ' -f1 /proc/loadavg)"
