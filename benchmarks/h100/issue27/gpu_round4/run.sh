#!/bin/sh
# Issue 27 item 2 (helper `gpu`), round 4 (this session's round 1) on the H100, 110 s: (1) the floor: an
# empty kernel launch + sync as Halide 21's OpenCL and CUDA runtimes issue them (gpu-launch-probe), and
# every NPP-paired pipeline at 64x64 (next to no work) against NPP at 64x64; (2) riders (<p>_c<N>:
# gpu_candidate=N of the same generator) of blur3x3, hist_equalize, resize_bilinear at 4096^2 (median of
# 3) and blur3x3, resize_bilinear at 16384^2 (one repetition each, resize first: the 16384^2 set-up is ~1.5 s a run),
# NPP first in each case. Everything in $OUT/gpu.tgz.
D=$PWD/.device/gpu
T0=$(date +%s)
left() { echo $(( 104 - ($(date +%s) - T0) )); }  # seconds left of the 110 s budget (6 s margin)
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
C="--no_opencv_pairing --benchmark_min_time=0.02 --benchmark_report_aggregates_only=true --benchmark_out_format=json"
bench() {  # name wanted-timeout extra-flags filter
  step $1; [ $(left) -lt 3 ] && { echo "skipped: no time" >> $O/log.txt; return; }
  timeout $(lim $2) stdbuf -oL $B $C $3 --benchmark_out=$O/$1.json --benchmark_filter="$4" > $O/$1.log 2>&1; echo "rc=$?" >> $O/log.txt
}
step probe
timeout $(lim 15) $W/bin/gpu-launch-probe 2000 > $O/probe.txt 2>&1; echo "rc=$?" >> $O/log.txt
NPPP='(blur3x3|brighten|gaussian5x5|hist_equalize|reduce_stats|resize_bilinear|rgb_to_yuv|sobel|unsharp_mask)'
bench floor_64 14 "--harness_sizes=64x64 --benchmark_repetitions=3" "^BM_(npp/$NPPP/64x64|($NPPP|hist_equalize_c[123])/(opencl|cuda)/64x64/resident)"
S4="--harness_sizes=4096x4096 --benchmark_repetitions=3 --benchmark_min_time=0.01"
bench r4_4096_resize 16 "$S4" "^BM_(npp/resize_bilinear/4096x4096|resize_bilinear(_c[1-9])?/(opencl|cuda)/4096x4096/resident)"
bench r4_4096_blur_hist 22 "$S4" "^BM_(npp/(blur3x3|hist_equalize)/4096x4096|(blur3x3(_c[1-7])?|hist_equalize(_c[1-3])?)/(opencl|cuda)/4096x4096/resident)"
S16="--harness_sizes=16384x16384 --benchmark_repetitions=1 --benchmark_min_time=0.05"
bench r4_16384_resize 22 "$S16" "^BM_(npp/resize_bilinear/16384x16384|resize_bilinear(_c[2678])?/(opencl|cuda)/16384x16384/resident)"
bench r4_16384_blur 22 "$S16" "^BM_(npp/blur3x3/16384x16384|blur3x3(_c[367])?/(opencl|cuda)/16384x16384/resident)"
step end
tar czf $OUT/gpu.tgz -C $O .
cat $O/log.txt; cat $O/probe.txt; grep -h -A12 "fatal signal" $O/*.log | head -20
grep -h -E "_median|/manual_time " $O/*.log | grep -v memcpy | awk '{printf "%s %s ", $1, $2; for(i=6;i<=NF;i++) if ($i ~ /speedup_vs_npp|pct_of_copy/) printf "%s ", $i; print ""}'
