#!/bin/sh
# Issue 27 item 2 (helper `gpu`), round 3 on the H100 (45 s): first the exit crash's stack (round 3's
# first binary, which still ran the library teardown, with no benchmark: benchmarks/crash_trace.h), then
# what changed after round 2 -- reduce_stats' one-kernel tail, hist_equalize's CUDA blocks (264 x 1024)
# and its histogram output fused into the LUT kernel -- against NPP at 4096^2 and 16384^2.
D=$PWD/.device/gpu
T0=$(date +%s)
left() { echo $(( 42 - ($(date +%s) - T0) )); }  # seconds left of the 45 s budget (3 s margin)
lim() { l=$(left); [ $l -lt 1 ] && l=1; [ $l -lt $1 ] && echo $l || echo $1; }
O=/tmp/gpuout; rm -rf $O; mkdir -p $O
W=/tmp/gpuw; rm -rf $W; mkdir -p $W; tar xJf $D/payload.tar.xz -C $W || exit 3
export LD_LIBRARY_PATH=$W/lib
mkdir -p /tmp/v && echo libnvidia-opencl.so.1 > /tmp/v/nvidia.icd && export OCL_ICD_VENDORS=/tmp/v
{ date -u; nvidia-smi -L; nproc; } > $O/env.txt 2>&1
step() { echo "== $1 $(date -u +%H:%M:%S) left $(left) s" >> $O/log.txt; }
B=$W/bin/pipeline-benchmarks
C="--harness_big --no_opencv_pairing --benchmark_repetitions=3 --benchmark_min_time=0.01 --benchmark_report_aggregates_only=true --benchmark_out_format=json"
P='(hist_equalize|reduce_stats)'
bench() {  # name wanted-timeout filter
  step $1; [ $(left) -lt 3 ] && { echo "skipped: no time" >> $O/log.txt; return; }
  timeout $(lim $2) stdbuf -oL $B $C --benchmark_out=$O/$1.json --benchmark_filter="$3" > $O/$1.log 2>&1; echo "rc=$?" >> $O/log.txt
}
step exitcrash
timeout $(lim 5) $W/bin/pipeline-benchmarks-exitcrash --benchmark_filter='^none$' > $O/exitcrash.log 2>&1; echo "rc=$?" >> $O/log.txt
bench r3_4096 13 "^BM_(npp/$P/4096x4096|$P/(opencl|cuda)/4096x4096/resident)"
bench r3_16384 25 "^BM_(npp/$P/16384x16384|$P/(opencl|cuda)/16384x16384/resident)"
step end
tar czf $OUT/gpu.tgz -C $O .
cat $O/log.txt; grep -h -A12 "fatal signal" $O/*.log | head -30
grep -h "_median" $O/*.log | awk '{printf "%s %s ", $1, $2; for(i=6;i<=NF;i++) if ($i ~ /speedup_vs_npp|pct_of_copy/) printf "%s ", $i; print ""}'
