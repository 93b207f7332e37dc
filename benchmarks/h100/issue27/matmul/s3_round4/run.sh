#!/bin/sh
# Issue 27 item 2, helper `matmul`, an extra payload (only if a round is left; <= 60 s). The question: does
# a block-level k loop over shared-memory tiles beat the kept register-blocked schedule? Riders of the same
# generator (variant=21/22/23, matmul_v2N): 64 x 32 outputs per block of 16 x 8 threads, the block's k loop
# outside the thread loops, A and B slices of 8 / 16 / 32 k staged in shared memory per step, each step's
# 4 x 4 partial sums per thread in registers (rfactor), added into the block's accumulator tile in shared
# memory once per step. Beside them: cuBLAS and the kept matmul (branch matmul3), nothing set in the
# environment (the spec's register cap applies to matmul only; the riders' specs are matmul's, so theirs too).
# Everything in $OUT/matmul.tgz.
D=$PWD/.device/matmul
T0=$(date +%s)
left() { echo $(( 56 - ($(date +%s) - T0) )); }
lim() { l=$(left); [ $l -lt 1 ] && l=1; [ $l -lt $1 ] && echo $l || echo $1; }
O=/tmp/matmulout; rm -rf $O; mkdir -p $O
W=/tmp/matmulw; rm -rf $W; mkdir -p $W; tar xJf $D/payload.tar.xz -C $W || exit 3
export LD_LIBRARY_PATH=$W/lib
unset HL_CUDA_JIT_MAX_REGISTERS
mkdir -p /tmp/v && echo libnvidia-opencl.so.1 > /tmp/v/nvidia.icd && export OCL_ICD_VENDORS=/tmp/v
{ date -u; nvidia-smi -L; nvidia-smi --query-gpu=driver_version,clocks.sm,clocks.max.sm,clocks.mem --format=csv,noheader; cat $W/commit.txt; } > $O/env.txt 2>&1
step() { echo "== $1 $(date -u +%H:%M:%S) left $(left) s" >> $O/log.txt; }
step bench
timeout $(lim 30) stdbuf -oL $W/bin/pipeline-benchmarks --no_opencv_pairing --benchmark_repetitions=3 --benchmark_min_time=0.01 \
  --benchmark_report_aggregates_only=true --benchmark_out_format=json --benchmark_out=$O/bench.json \
  --benchmark_filter='^BM_(npp/matmul/large|matmul(_v2[123])?/(cuda|opencl)/large/resident)' > $O/bench.log 2>&1; echo "rc=$?" >> $O/log.txt
step run
( cd $W && timeout $(lim 15) bin/aot-harness run --pipeline 'matmul_v2*' --profile cuda,opencl --golden-dir golden --json $O/run.json ) > $O/run.log 2>&1; echo "rc=$?" >> $O/log.txt
step end
tar czf $OUT/matmul.tgz -C $O .
cat $O/log.txt; tail -3 $O/run.log
grep -h "_median" $O/*.log | awk '{printf "%s %s ", $1, $2; for(i=6;i<=NF;i++) if ($i ~ /speedup_vs_npp/) printf "%s ", $i; print ""}'
