#!/bin/sh
# Issue 27 item 2, helper `matmul`, round 3 (verification, <= 60 s): branch matmul3 as committed (rebased
# on main a445a3d; binaries of a matmul-only build of that tree), nothing set in the environment:
# (1) BM_npp/matmul against BM_matmul cuda and opencl (the RESULTS row), (2) `aot-harness run` of matmul
# on cuda and opencl in every buffer mode, (3) `aot-harness bench` of matmul on cuda (small 64^3: the
# per-call floor; large 1024^3), the other path through the spec's register cap. Everything in $OUT/matmul.tgz.
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
step bench_npp
timeout $(lim 12) stdbuf -oL $W/bin/pipeline-benchmarks --no_opencv_pairing --benchmark_repetitions=3 --benchmark_min_time=0.01 \
  --benchmark_report_aggregates_only=true --benchmark_out_format=json --benchmark_out=$O/bench_npp.json \
  --benchmark_filter='^BM_(npp/matmul/large|matmul/(cuda|opencl)/large/resident)' > $O/bench_npp.log 2>&1; echo "rc=$?" >> $O/log.txt
step run
( cd $W && timeout $(lim 15) bin/aot-harness run --pipeline matmul --profile cuda,opencl --mode all --golden-dir golden --json $O/run.json ) > $O/run.log 2>&1; echo "rc=$?" >> $O/log.txt
step bench
( cd $W && timeout $(lim 20) bin/aot-harness bench --pipeline matmul --profile cuda --case small,large --mode resident --repetitions 3 --golden-dir golden --json $O/bench.json ) > $O/bench.log 2>&1; echo "rc=$?" >> $O/log.txt
step end
tar czf $OUT/matmul.tgz -C $O .
cat $O/log.txt; tail -3 $O/run.log
grep -h "_median" $O/*.log | awk '{printf "%s %s ", $1, $2; for(i=6;i<=NF;i++) if ($i ~ /speedup_vs_npp/) printf "%s ", $i; print ""}'
