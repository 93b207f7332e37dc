#!/bin/sh
# Lead, round 3: the merged main on the H100: the whole matrix with default settings (fresh driver
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
