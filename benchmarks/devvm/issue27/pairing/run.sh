#!/bin/bash
# Issue 27, 2 threads: the host pipelines at 1080p and 4096^2 on the 2-vCPU dev VM, Halide's own pool, paired with
# OpenCV in blocks (pipeline-benchmarks' default) and after every call (the former default), twice each,
# alternated. From the repository root after a build; writes beside this script.
D=$(dirname "$0"); B=build/bin/pipeline-benchmarks
{ date -u; nproc; grep -m1 "model name" /proc/cpuinfo; uptime; } > $D/env.txt
R="--benchmark_repetitions=3 --benchmark_min_time=0.05 --benchmark_report_aggregates_only=true --benchmark_out_format=json"
for pass in a b; do
  for p in blocks iteration; do
    $B --pairing=$p $R --benchmark_out=$D/host_${p}_$pass.json '--benchmark_filter=^BM_[a-z0-9_]+/host/(1920x1080|4096x4096)/' > $D/host_${p}_$pass.log 2>&1
  done
done
uptime >> $D/env.txt
