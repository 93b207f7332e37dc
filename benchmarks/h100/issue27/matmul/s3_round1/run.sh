#!/bin/sh
# Issue 27 item 2, helper `matmul`, round 1 on the H100 (<= 105 s). Question 1: why matmul's cuda build
# (0.697 ms) is 4.3x slower than its opencl build (0.164 ms) with the same schedule. Hypothesis, from
# ptxas 13.0 on the dev VM: Halide's CUDA runtime JIT-compiles the PTX with CU_JIT_MAX_REGISTERS=64
# (src/runtime/cuda.cpp; HL_CUDA_JIT_MAX_REGISTERS overrides it), and this kernel needs 193 registers: at
# 64 it spills 6752 bytes per thread. Question 2: which register-blocked schedule comes closest to cuBLAS.
# Binaries: a matmul-only build of branch matmul3 (= main 3d59a63) with riders of the same generator
# (variant=N, matmul_vN; _sm80: the cuda target with cuda_capability_80): every vN loads its operands
# with 128-bit loads (a specialisation on 16-byte-aligned rows). Tiles (block j x i / thread j x i / k step):
# v1 64x16/4x8/8, v2 128x32/8x8/8, v3 64x32/4x8/8, v4 64x64/4x8/8, v5 64x16/4x4/8, v6 32x32/4x4/8,
# v7 128x16/8x4/8, v8 64x16/4x8/4, v9 64x16/4x8/16, v10 128x64/8x8/8, v11 128x32/8x4/8, v12 64x32/4x4/8.
# Between steps only HL_CUDA_JIT_MAX_REGISTERS changes. Everything in $OUT/matmul.tgz.
D=$PWD/.device/matmul
T0=$(date +%s)
left() { echo $(( 104 - ($(date +%s) - T0) )); }
lim() { l=$(left); [ $l -lt 1 ] && l=1; [ $l -lt $1 ] && echo $l || echo $1; }
O=/tmp/matmulout; rm -rf $O; mkdir -p $O
W=/tmp/matmulw; rm -rf $W; mkdir -p $W; tar xJf $D/payload.tar.xz -C $W || exit 3
export LD_LIBRARY_PATH=$W/lib
mkdir -p /tmp/v && echo libnvidia-opencl.so.1 > /tmp/v/nvidia.icd && export OCL_ICD_VENDORS=/tmp/v
{ date -u; nvidia-smi -L; nvidia-smi --query-gpu=driver_version,clocks.sm,clocks.max.sm,clocks.mem --format=csv,noheader; cat $W/commit.txt; } > $O/env.txt 2>&1
step() { echo "== $1 $(date -u +%H:%M:%S) left $(left) s" >> $O/log.txt; }
B=$W/bin/pipeline-benchmarks
C="--no_opencv_pairing --benchmark_repetitions=3 --benchmark_min_time=0.01 --benchmark_report_aggregates_only=true --benchmark_out_format=json"
bench() {  # name wanted-timeout max-registers(or "default") filter
  step "$1 HL_CUDA_JIT_MAX_REGISTERS=$3"; [ $(left) -lt 4 ] && { echo "skipped: no time" >> $O/log.txt; return; }
  if [ "$3" = default ]; then unset HL_CUDA_JIT_MAX_REGISTERS; else export HL_CUDA_JIT_MAX_REGISTERS=$3; fi
  timeout $(lim $2) stdbuf -oL $B $C --benchmark_out=$O/$1.json --benchmark_filter="$4" > $O/$1.log 2>&1; echo "rc=$?" >> $O/log.txt
  unset HL_CUDA_JIT_MAX_REGISTERS
}
# the baseline as main measures it (default cap), then the same binary with the cap lifted
bench base_default 12 default '^BM_(npp/matmul/large|matmul/(opencl|cuda)/large/resident)'
bench sweep_r255 45 255 '^BM_(npp/matmul/large|matmul(_v[0-9]+(_sm80)?)?/(cuda|opencl)/large/resident)'
# the 4x4-per-thread riders fit in 64 registers (ptxas: 72 unbounded, no spill at 64): under the default cap
bench small_default 12 default '^BM_(npp/matmul/large|matmul_v(1|5|6|12|5_sm80)/cuda/large/resident)'
step check
( cd $W && HL_CUDA_JIT_MAX_REGISTERS=255 timeout $(lim 15) bin/aot-harness run --pipeline 'matmul,matmul_v1,matmul_v5,matmul_v3' --profile cuda --golden-dir golden --json $O/check_r255.json ) > $O/check_r255.log 2>&1; echo "rc=$?" >> $O/log.txt
bench r128 10 128 '^BM_(npp/matmul/large|matmul(_v1|_v3)?/cuda/large/resident)'
step ptxas
for p in matmul matmul_v1 matmul_v5; do for r in 64 255; do echo "$p maxrregcount $r"; timeout 3 /usr/local/cuda/bin/ptxas -arch=sm_90 -v --maxrregcount $r -o /dev/null $W/ptx/${p}_cuda.ptx 2>&1 | grep -E "registers|spill"; done; done > $O/ptxas.log 2>&1
/usr/local/cuda/bin/ptxas --version >> $O/ptxas.log 2>&1
step end
tar czf $OUT/matmul.tgz -C $O .
cat $O/log.txt; tail -3 $O/check_r255.log
grep -h "_median" $O/*.log | awk '{printf "%s %s ", $1, $2; for(i=6;i<=NF;i++) if ($i ~ /speedup_vs_npp/) printf "%s ", $i; print ""}'
