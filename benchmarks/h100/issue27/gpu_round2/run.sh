#!/bin/sh
# Issue 27 item 2 (helper `gpu`), round 2 on the H100 (80 s): the final GPU schedules of blur3x3,
# hist_equalize, reduce_stats (4096^2, 16384^2) and matmul (1024^3) against NPP / cuBLAS (NPP first in each
# case), BM_npp/resize_bilinear at 16384^2 alone (crash report: benchmarks/crash_trace.h), then, as long
# as time is left, round-1 riders (<p>_c<N>: gpu_candidate=N of the same generator) and matmul's
# correctness on cuda and opencl.
# Everything in $OUT/gpu.tgz.
D=$PWD/.device/gpu
T0=$(date +%s)
left() { echo $(( 76 - ($(date +%s) - T0) )); }  # seconds left of the 80 s budget (4 s margin)
lim() { l=$(left); [ $l -lt 1 ] && l=1; [ $l -lt $1 ] && echo $l || echo $1; }  # min(wanted, left), >= 1
O=/tmp/gpuout; rm -rf $O; mkdir -p $O
W=/tmp/gpuw; rm -rf $W; mkdir -p $W; tar xJf $D/payload.tar.xz -C $W || exit 3
export LD_LIBRARY_PATH=$W/lib
mkdir -p /tmp/v && echo libnvidia-opencl.so.1 > /tmp/v/nvidia.icd && export OCL_ICD_VENDORS=/tmp/v
{ date -u; nvidia-smi -L; nvidia-smi --query-gpu=driver_version,clocks.sm,clocks.mem --format=csv,noheader; nproc; } > $O/env.txt 2>&1
step() { echo "== $1 $(date -u +%H:%M:%S) left $(left) s" >> $O/log.txt; }
B=$W/bin/pipeline-benchmarks
C="--harness_big --no_opencv_pairing --benchmark_repetitions=3 --benchmark_min_time=0.01 --benchmark_report_aggregates_only=true --benchmark_out_format=json"
P='(blur3x3|hist_equalize|reduce_stats)'
bench() {  # name wanted-timeout filter
  step $1; [ $(left) -lt 3 ] && { echo "skipped: no time" >> $O/log.txt; return; }
  timeout $(lim $2) stdbuf -oL $B $C --benchmark_out=$O/$1.json --benchmark_filter="$3" > $O/$1.log 2>&1; echo "rc=$?" >> $O/log.txt
}
bench bench_main 50 "^BM_(memcpy/(opencl|cuda)/|npp/$P/(4096x4096|16384x16384)|$P/(opencl|cuda)/(4096x4096|16384x16384)/resident)"
bench matmul 10 "^BM_(npp/matmul/large|matmul/(opencl|cuda)/large/resident)"
bench resize_npp_16384 12 '^BM_npp/resize_bilinear/16384x16384/'
[ $(left) -ge 5 ] && bench riders_4096 8 "^BM_(npp/$P/4096x4096|(reduce_stats_c2|hist_equalize_c4)/(opencl|cuda)/4096x4096/resident|(blur3x3_c4|hist_equalize_c5)/opencl/4096x4096/resident|matmul_c[23]/cuda/large/resident)"
if [ $(left) -ge 4 ]; then
  step check_matmul
  ( cd $W && timeout $(lim 7) bin/aot-harness run --pipeline matmul --profile cuda,opencl --golden-dir golden --json $O/check.json ) > $O/check.log 2>&1; echo "rc=$?" >> $O/log.txt
fi
if [ $(left) -ge 4 ]; then
  step ptxas
  timeout $(lim 5) /usr/local/cuda/bin/ptxas -arch=sm_90 -v -o /dev/null $W/ptx/matmul_cuda.ptx > $O/ptxas.log 2>&1
fi
step end
tar czf $OUT/gpu.tgz -C $O .
cat $O/log.txt; tail -2 $O/check.log; grep -A3 "fatal signal" $O/*.log | head -8
grep -h "_median" $O/*.log | grep -v memcpy | awk '{printf "%s %s ", $1, $2; for(i=6;i<=NF;i++) if ($i ~ /speedup_vs_npp|pct_of_copy/) printf "%s ", $i; print ""}'
