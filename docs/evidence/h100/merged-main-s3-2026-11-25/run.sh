#!/bin/sh
# Lead, session 3 final round: the merged main 9f0a06a on the H100: the whole matrix with default settings (fresh driver
# caches), then the whole matrix with --batch 1 (a child per case) for the verdict diff. <= 85 s.
D=$PWD/.device/lead
W=/tmp/leadw; rm -rf $W; mkdir -p $W/out; cd $W && tar xJf "$D/payload.tar.xz" || exit 3
O=$W/out
export LD_LIBRARY_PATH=$W
mkdir -p /tmp/v && echo libnvidia-opencl.so.1 > /tmp/v/nvidia.icd && export OCL_ICD_VENDORS=/tmp/v
cache() { c=$W/cache-$1; mkdir -p $c/.cache $c/nv $c/gl; export HOME=$c XDG_CACHE_HOME=$c/.cache CUDA_CACHE_PATH=$c/nv __GL_SHADER_DISK_CACHE_PATH=$c/gl; }
{ date -u; nvidia-smi -L; nproc; ./aot-harness --version; } > $O/env.txt 2>&1
cache A; s=$(date +%s.%N)
timeout 30 ./aot-harness run --golden-dir golden --json $O/default.json > $O/default.log 2>&1; echo "default rc=$? wall=$(awk "BEGIN{print $(date +%s.%N) - $s}")" >> $O/summary.txt
cache B; s=$(date +%s.%N)
timeout 55 ./aot-harness run --golden-dir golden --batch 1 --json $O/batch1.json > $O/batch1.log 2>&1; echo "batch1 rc=$? wall=$(awk "BEGIN{print $(date +%s.%N) - $s}")" >> $O/summary.txt
grep -E "^[0-9]+ runs" $O/default.log $O/batch1.log >> $O/summary.txt
cat $O/summary.txt
tar czf "$OUT/lead.tgz" -C $O .
# Then the merged main's pipeline-benchmarks (bench.tar.xz): every GPU pipeline at 4096^2 and matmul
# against NPP / cuBLAS (cuda, opencl, resident), and the host pipelines at 1080p on 16 threads against
# OpenCV on Halide's pool and on harness::ParallelPool. <= 75 s.
BW=/tmp/leadb; rm -rf $BW; mkdir -p $BW; tar xJf "$D/bench.tar.xz" -C $BW || exit 3
B=$BW/bin/pipeline-benchmarks
export LD_LIBRARY_PATH=$BW/lib:$W
R="--benchmark_repetitions=3 --benchmark_min_time=0.01 --benchmark_report_aggregates_only=true --benchmark_out_format=json"
s=$(date +%s); timeout 40 stdbuf -oL $B --no_opencv_pairing $R --benchmark_out=$O/gpu4096.json --benchmark_filter='^BM_(npp/[a-z0-9_]+/(4096x4096|large)|[a-z0-9_]+/(opencl|cuda)/(4096x4096|large)/resident)' > $O/gpu4096.log 2>&1; echo "gpu4096 rc=$? wall=$(( $(date +%s) - s ))" >> $O/summary.txt
s=$(date +%s); timeout 15 stdbuf -oL $B $R --benchmark_out=$O/host16_halide.json --benchmark_filter='^BM_[a-z0-9_]+/host/1920x1080/' > $O/host16_halide.log 2>&1; echo "host16_halide rc=$? wall=$(( $(date +%s) - s ))" >> $O/summary.txt
s=$(date +%s); timeout 15 stdbuf -oL $B --halide_pool=harness $R --benchmark_out=$O/host16_harness.json --benchmark_filter='^BM_[a-z0-9_]+/host/1920x1080/' > $O/host16_harness.log 2>&1; echo "host16_harness rc=$? wall=$(( $(date +%s) - s ))" >> $O/summary.txt
tar czf "$OUT/lead.tgz" -C $O .
cat $O/summary.txt
grep -h "_median" $O/gpu4096.log $O/host16_*.log | awk '{printf "%s %s ", $1, $2; for(i=6;i<=NF;i++) if ($i ~ /speedup_vs|pct_of_copy/) printf "%s ", $i; print ""}'
