#!/bin/bash
# Issue 27 on the lent H200 machine, round 4: the final binary's host pipelines at 1080p and 4096^2 on 2 threads of
# the quiet 16-core Xeon (HL_NUM_THREADS=2 taskset -c 0,1: Halide's pool, OpenCV's and the paired copy all use 2),
# paired with OpenCV in blocks, twice; the 2-vCPU dev VM is too noisy at the 0.9-1.1x level (passes 20 % apart).
W=/tmp/r4; rm -rf $W; mkdir -p $W; tar xJf .device/c3/payload.tar.xz -C $W || exit 3
export LD_LIBRARY_PATH=$W/lib
L=$OUT/log.txt; T=/tmp/logs; mkdir -p $T
{ date -u; nproc; grep -m1 "model name" /proc/cpuinfo; $W/bin/aot-harness --version; } > $L 2>&1
R="--benchmark_repetitions=3 --benchmark_min_time=0.05 --benchmark_report_aggregates_only=true --benchmark_out_format=json"
for pass in a b; do
  echo "== host2-$pass $(date -u +%H:%M:%S) load $(cut -d' ' -f1 /proc/loadavg)" >> $L
  HL_NUM_THREADS=2 timeout 120 taskset -c 0,1 $W/bin/pipeline-benchmarks $R --benchmark_out=$OUT/host2_$pass.json \
    '--benchmark_filter=^BM_[a-z0-9_]+/host/(1920x1080|4096x4096)/' > $T/host2_$pass.log 2>&1
  echo "rc=$?" >> $L
done
tar czf $OUT/logs.tgz -C $T .
cat $L
grep -h "_median" $T/host2_*.log | awk '{printf "%s %s ", $1, $2; for(i=6;i<=NF;i++) if ($i ~ /speedup_vs/) printf "%s ", $i; print ""}' | sed 's/resident.manual_time_median//'
