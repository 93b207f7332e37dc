#!/bin/sh
# Issue 27 item 2 (helper `gpu`), round 1 on the H100: the GPU schedule candidates of reduce_stats,
# hist_equalize, blur3x3 and matmul (<p>_c<N>, gpu_candidate=N; <p> itself is candidate 0) against NPP /
# cuBLAS in one process per size; their correctness on cuda and opencl; where NPP's planar resize fails
# (npp-resize-probe) and the benchmark's BM_npp/resize_bilinear at 16384^2 alone; ptxas -v of the
# matmul candidates' PTX. Everything in $OUT/gpu.tgz.
D=$PWD/.device/gpu
T0=$(date +%s)
left() { echo $(( 112 - ($(date +%s) - T0) )); }  # seconds left of the 120 s budget (8 s margin)
lim() { l=$(left); [ $l -lt 1 ] && l=1; [ $l -lt $1 ] && echo $l || echo $1; }  # min(wanted, left), >= 1
O=/tmp/gpuout; rm -rf $O; mkdir -p $O
W=/tmp/gpuw; rm -rf $W; mkdir -p $W; tar xJf $D/payload.tar.xz -C $W || exit 3
export LD_LIBRARY_PATH=$W/lib
mkdir -p /tmp/v && echo libnvidia-opencl.so.1 > /tmp/v/nvidia.icd && export OCL_ICD_VENDORS=/tmp/v
{ date -u; nvidia-smi -L; nvidia-smi --query-gpu=driver_version,clocks.sm,clocks.mem --format=csv,noheader; nproc
  ls /usr/local/cuda/bin 2>&1 | tr '\n' ' '; echo; } > $O/env.txt 2>&1
step() { echo "== $1 $(date -u +%H:%M:%S)" >> $O/log.txt; }
B=$W/bin
C="--benchmark_repetitions=3 --benchmark_min_time=0.01 --benchmark_report_aggregates_only=true --benchmark_out_format=json"
P='(blur3x3|hist_equalize|reduce_stats)'
step bench4096
timeout $(lim 30) $B/pipeline-benchmarks --harness_big --no_opencv_pairing $C --benchmark_out=$O/bench_4096.json \
  --benchmark_filter="^BM_(memcpy/(opencl|cuda)/|npp/$P/4096x4096|npp/matmul/large|$P(_c[0-9])?/(opencl|cuda)/4096x4096/resident|${P}_c0_sm80/cuda/4096x4096/resident|matmul(_c[0-9])?/(opencl|cuda)/large/resident|matmul_c1_sm80/cuda/large/resident)" \
  > $O/bench_4096.log 2>&1; echo "rc=$?" >> $O/log.txt
step bench16384
timeout $(lim 38) $B/pipeline-benchmarks --harness_big --no_opencv_pairing $C --benchmark_out=$O/bench_16384.json \
  --benchmark_filter="^BM_(memcpy/(opencl|cuda)/|npp/$P/16384x16384|$P(_c[0-9])?/(opencl|cuda)/16384x16384/resident|${P}_c0_sm80/cuda/16384x16384/resident)" \
  > $O/bench_16384.log 2>&1; echo "rc=$?" >> $O/log.txt
step check
( cd $W && timeout $(lim 18) bin/aot-harness run --pipeline 'reduce_stats*,hist_equalize*,matmul*,blur3x3*' --profile cuda,opencl \
  --golden-dir golden --json $O/check.json ) > $O/check.log 2>&1; echo "rc=$?" >> $O/log.txt
step resize-probe
timeout $(lim 12) $B/npp-resize-probe > $O/resize_probe.log 2>&1; echo "rc=$?" >> $O/log.txt
step resize-bench
timeout $(lim 9) $B/pipeline-benchmarks --harness_big --benchmark_repetitions=1 --benchmark_min_time=0.01 \
  --benchmark_filter='^BM_npp/resize_bilinear/16384x16384$' > $O/resize_bench.log 2>&1; echo "rc=$?" >> $O/log.txt
step ptxas
for f in $W/ptx/matmul_c0.ptx $W/ptx/matmul_c1.ptx $W/ptx/reduce_stats_c0.ptx $W/ptx/hist_equalize_c0.ptx \
         $W/ptx/matmul_c1_sm80.ptx $W/ptx/matmul_c2.ptx $W/ptx/matmul_c3.ptx; do
  [ $(left) -lt 6 ] && break
  echo "--- $f"; timeout 5 /usr/local/cuda/bin/ptxas -arch=sm_90 -v -o /dev/null $f 2>&1 | tail -4
done > $O/ptxas.log 2>&1
step end
tar czf $OUT/gpu.tgz -C $O .
cat $O/log.txt; tail -3 $O/check.log; grep -E "CRASH|signal|error" $O/resize_probe.log | head -5
grep -h "_median" $O/bench_*.log | grep -v memcpy | awk '{printf "%s %s ", $1, $2; for(i=6;i<=NF;i++) if ($i ~ /speedup_vs_npp|pct_of_copy/) printf "%s ", $i; print ""}'
