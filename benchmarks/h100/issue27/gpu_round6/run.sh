#!/bin/sh
# Issue 27 item 2 (helper `gpu`), round 6 (this session's round 3, verification) on the H100, 60 s: the
# folded GPU schedules of blur3x3 (64 x 4 threads), hist_equalize (LUT per output block, 3 kernels) and
# resize_bilinear (4 x 4 per thread, u8->f32 without cvt, CUDA: planes in one thread) against NPP, NPP first
# in each case, at 4096^2 (median of 3) and 16384^2 (one repetition: 2-5 s of set-up a benchmark). First the
# three pipelines' cuda and opencl variants against their goldens (aot-harness run). Everything in $OUT/gpu.tgz.
D=$PWD/.device/gpu
T0=$(date +%s)
left() { echo $(( 55 - ($(date +%s) - T0) )); }  # seconds left of the 60 s budget (5 s margin)
lim() { l=$(left); [ $l -lt 1 ] && l=1; [ $l -lt $1 ] && echo $l || echo $1; }  # min(wanted, left), >= 1
O=/tmp/gpuout; rm -rf $O; mkdir -p $O
W=/tmp/gpuw; rm -rf $W; mkdir -p $W; tar xJf $D/payload.tar.xz -C $W || exit 3
export LD_LIBRARY_PATH=$W/lib
if [ -z "$GPU_LOCAL_TEST" ]; then
  mkdir -p /tmp/v && echo libnvidia-opencl.so.1 > /tmp/v/nvidia.icd && export OCL_ICD_VENDORS=/tmp/v
fi
{ date -u; nvidia-smi -L; nvidia-smi --query-gpu=driver_version,clocks.sm,clocks.mem --format=csv,noheader; nproc; } > $O/env.txt 2>&1
step() { echo "== $1 $(date -u +%H:%M:%S) left $(left) s" >> $O/log.txt; }
B=$W/bin/pipeline-benchmarks
C="--no_opencv_pairing --benchmark_report_aggregates_only=true --benchmark_out_format=json"
bench() {  # name wanted-timeout extra-flags filter
  step $1; [ $(left) -lt 3 ] && { echo "skipped: no time" >> $O/log.txt; return; }
  timeout $(lim $2) stdbuf -oL $B $C $3 --benchmark_out=$O/$1.json --benchmark_filter="$4" > $O/$1.log 2>&1; echo "rc=$?" >> $O/log.txt
}
step check  # the changed schedules against the goldens on the device (PoCL and lavapipe ran them locally)
( cd $W && timeout $(lim 9) bin/aot-harness run --pipeline blur3x3,hist_equalize,resize_bilinear \
    --profile ${GPU_CHECK_PROFILES:-cuda,opencl} --golden-dir golden --json $O/check.json ) > $O/check.log 2>&1; echo "rc=$?" >> $O/log.txt
S4="--harness_sizes=4096x4096 --benchmark_repetitions=3 --benchmark_min_time=0.01"
S16="--harness_sizes=16384x16384 --benchmark_repetitions=1 --benchmark_min_time=0.05"
P='(blur3x3|hist_equalize|resize_bilinear)'
bench r6_4096 12 "$S4" "^BM_(npp/$P/4096x4096|$P/(opencl|cuda)/4096x4096/resident)"
bench r6_16384_resize 16 "$S16" "^BM_(npp/resize_bilinear/16384x16384|resize_bilinear/(opencl|cuda)/16384x16384/resident)"
bench r6_16384_blur_hist 17 "$S16" "^BM_(npp/(blur3x3|hist_equalize)/16384x16384|(blur3x3|hist_equalize)/(opencl|cuda)/16384x16384/resident)"
step end
tar czf $OUT/gpu.tgz -C $O .
cat $O/log.txt; tail -3 $O/check.log; grep -h -E "FAIL|ERROR" $O/check.log | head -5; grep -h -A12 "fatal signal" $O/*.log | head -20
grep -h -E "_median|/manual_time " $O/*.log | awk '{printf "%s %s ", $1, $2; for(i=6;i<=NF;i++) if ($i ~ /speedup_vs_npp|pct_of_copy/) printf "%s ", $i; print ""}'
