#!/bin/sh
# matrix helper, round 1 (issue 27 item 4): where the full H100 matrix's time goes with the candidate
# branch (and main if time is left), each run with its own fresh driver caches (HOME, CUDA_CACHE_PATH, the NVIDIA shader
# cache) unless it says warm; per-child timeline in *.batches (HARNESS_BATCH_LOG), CPU use in *.cpu.
D=$PWD/.device/matrix
W=/tmp/matrixw
rm -rf $W; mkdir -p $W/out
cd $W && tar xJf "$D/payload.tar.xz" || exit 3
O=$W/out
export LD_LIBRARY_PATH=$W
mkdir -p /tmp/v && echo libnvidia-opencl.so.1 > /tmp/v/nvidia.icd && export OCL_ICD_VENDORS=/tmp/v
: "${VK_DRIVER_FILES:=/usr/local/nvidia/share/vulkan/icd.d/nvidia_icd.json}"; export VK_DRIVER_FILES
T0=$(date +%s)
{ date -u; nproc; nvidia-smi -L; cand/aot-harness --version; base/aot-harness --version; echo "HOME=$HOME"; ls -la "$HOME/.nv" "$HOME/.cache/nvidia" 2>&1 | head; } > $O/env.txt 2>&1
left() { echo $(( 115 - ($(date +%s) - T0) )); }
cache() { c=$W/cache-$1; mkdir -p $c/.cache $c/nv $c/gl; export HOME=$c XDG_CACHE_HOME=$c/.cache CUDA_CACHE_PATH=$c/nv __GL_SHADER_DISK_CACHE_PATH=$c/gl; }
# one NAME ENV BIN NEED LIMIT ARGS...: a run (with ENV, "-" for none) if NEED seconds are left, killed
# after LIMIT (or what is left)
one() {
  name=$1 envs=$2 bin=$3 need=$4 lim=$5; shift 5
  [ "$envs" = - ] && envs=HARNESS_NOTHING=1
  l=$(left)
  if [ "$l" -lt "$need" ]; then echo "$name: skipped, $l s left" >> $O/summary.txt; return; fi
  [ "$lim" -gt "$l" ] && lim=$l
  (while sleep 0.5; do echo "$(date +%s.%N) $(head -1 /proc/stat)"; done) > $O/$name.cpu &
  sampler=$!
  s=$(date +%s.%N)
  env HARNESS_BATCH_LOG=$O/$name.batches $envs timeout "$lim" "$bin" run --golden-dir golden --json $O/$name.json "$@" > $O/$name.log 2>&1
  rc=$?
  e=$(date +%s.%N)
  kill $sampler
  echo "$name: rc=$rc start=$s end=$e wall=$(awk "BEGIN{print $e - $s}") env=$envs args=$* | $(grep -E '^[0-9]+ runs' $O/$name.log)" >> $O/summary.txt
}
cache A; one cand_cold - cand/aot-harness 30 40
cache B; one cand_b1 - cand/aot-harness 45 70 --batch 1
cache A; one cand_warm - cand/aot-harness 20 30
for p in cuda opencl vulkan; do cache G$p; one fixed_$p - cand/aot-harness 4 10 --profile $p --pipeline brighten --case small; done
cache D; one cand_gj4 - cand/aot-harness 20 30 --gpu-jobs 4
cache C; one cand_probe HARNESS_BATCH_PROBE=1 cand/aot-harness 20 30
cache F; one cand_gj16 - cand/aot-harness 20 30 --gpu-jobs 16
cache I; one cand_j24 - cand/aot-harness 20 30 --jobs 24
cache E; one cand_nounits HARNESS_BATCH_UNITS=0 cand/aot-harness 20 30
cache H; one base_cold - base/aot-harness 35 45
echo "total $(( $(date +%s) - T0 )) s" >> $O/summary.txt
cat $O/summary.txt
tar czf "$OUT/matrix.tgz" -C $O .
