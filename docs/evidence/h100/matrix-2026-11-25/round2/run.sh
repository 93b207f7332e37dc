#!/bin/sh
# matrix helper, round 2 (issue 27 item 4): the full H100 matrix with DEFAULT settings, the matrix branch
# ("after") and main ("before") in the same call, each with its own fresh driver caches (HOME,
# CUDA_CACHE_PATH, the NVIDIA shader cache); then the branch with --batch 1 (a child per case) on the
# pipelines with expected failures and SKIPs for the verdict diff; per-child timeline in *.batches
# (HARNESS_BATCH_LOG), CPU use in *.cpu. At most 80 s.
D=$PWD/.device/matrix
W=/tmp/matrixw
rm -rf $W; mkdir -p $W/out
cd $W && tar xJf "$D/payload.tar.xz" || exit 3
O=$W/out
export LD_LIBRARY_PATH=$W
mkdir -p /tmp/v && echo libnvidia-opencl.so.1 > /tmp/v/nvidia.icd && export OCL_ICD_VENDORS=/tmp/v
: "${VK_DRIVER_FILES:=/usr/local/nvidia/share/vulkan/icd.d/nvidia_icd.json}"; export VK_DRIVER_FILES
T0=$(date +%s)
{ date -u; nproc; nvidia-smi -L; cand/aot-harness --version; base/aot-harness --version; echo "HOME=$HOME"; } > $O/env.txt 2>&1
left() { echo $(( 77 - ($(date +%s) - T0) )); }
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
cache A; one after - cand/aot-harness 20 26
cache B; one before - base/aot-harness 30 36
# --batch 1 on the pipelines with expected failures (Vulkan) and SKIPs (OpenCL), every profile: the full
# matrix with --batch 1 takes 53 s here (round 1), more than this call has
cache C; one after_batch1 - cand/aot-harness 10 30 --batch 1 --pipeline int_edges,unsharp_mask,bitonic_sort,conv3x3_f16
echo "total $(( $(date +%s) - T0 )) s" >> $O/summary.txt
cat $O/summary.txt
tar czf "$OUT/matrix.tgz" -C $O .
