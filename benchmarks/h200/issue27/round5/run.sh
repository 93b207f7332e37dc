#!/bin/bash
# Issue 27 on the lent H200 machine, round 5: halide-app-matmul (benchmarks/tools/halide_app_matmul.cpp): Halide's own
# apps/cuda_mat_mul, unchanged, against cuBLAS and the suite's matmul cuda variant, 1024^3 f32, in one process, three
# times (run from the repository root, .device/c5 carried).
W=/tmp/r5; rm -rf $W; mkdir -p $W; tar xJf .device/c5/payload.tar.xz -C $W || exit 3
export LD_LIBRARY_PATH=$W/lib
{ date -u; nvidia-smi -L; nvidia-smi --query-gpu=driver_version,clocks.sm,clocks.mem --format=csv,noheader
  for i in 1 2 3; do echo "== run $i $(date -u +%H:%M:%S)"; timeout 60 $W/bin/halide-app-matmul 300; echo "rc=$?"; done; } > $OUT/log.txt 2>&1
cat $OUT/log.txt
