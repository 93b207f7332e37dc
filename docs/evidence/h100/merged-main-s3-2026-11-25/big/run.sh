#!/bin/sh
# Lead, session 3, last round: the merged main 9f0a06a's pipeline-benchmarks on the H100 at 16384^2:
# every GPU pipeline with an NPP peer (NPP first, then cuda and opencl resident), one process per
# pipeline under its own time limit. Everything in $OUT/lead.tgz.
D=$PWD/.device/lead
O=/tmp/leadout; rm -rf $O; mkdir -p $O
BW=/tmp/leadb; rm -rf $BW; mkdir -p $BW; tar xJf "$D/bench.tar.xz" -C $BW || exit 3
B=$BW/bin/pipeline-benchmarks
export LD_LIBRARY_PATH=$BW/lib
mkdir -p /tmp/v && echo libnvidia-opencl.so.1 > /tmp/v/nvidia.icd && export OCL_ICD_VENDORS=/tmp/v
{ date -u; nvidia-smi -L; nvidia-smi --query-gpu=driver_version,clocks.sm,clocks.mem --format=csv,noheader; nproc; } > $O/env.txt 2>&1
R="--harness_big --no_opencv_pairing --benchmark_repetitions=3 --benchmark_min_time=0.01 --benchmark_report_aggregates_only=true --benchmark_out_format=json"
for pt in blur3x3:30 brighten:35 gaussian5x5:30 hist_equalize:30 reduce_stats:30 resize_bilinear:40 rgb_to_yuv:45 sobel:35 unsharp_mask:30; do
  p=${pt%:*}; s=$(date +%s)
  timeout ${pt#*:} stdbuf -oL $B $R --benchmark_out=$O/$p.json --benchmark_filter="^BM_(npp/$p/16384x16384|$p/(cuda|opencl)/16384x16384/resident)" > $O/$p.log 2>&1
  echo "$p rc=$? wall=$(( $(date +%s) - s )) s" >> $O/summary.txt
done
tar czf "$OUT/lead.tgz" -C $O .
cat $O/summary.txt
grep -h "_median" $O/*.log | awk '{printf "%s %s ", $1, $2; for(i=6;i<=NF;i++) if ($i ~ /speedup_vs|pct_of_copy/) printf "%s ", $i; print ""}'
