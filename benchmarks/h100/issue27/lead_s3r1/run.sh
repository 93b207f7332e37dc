#!/bin/sh
# Lead, session 3 round 1: main 3d59a63's pipeline-benchmarks on the H100: the NPP cells never measured
# at 16384^2 (resize_bilinear, rgb_to_yuv, sobel, unsharp_mask; NPP, cuda, opencl resident), then the
# exit status of a run with no benchmark (the exit crash). <= 110 s. Everything in $OUT/lead.tgz.
D=$PWD/.device/lead
T0=$(date +%s)
left() { echo $(( 105 - ($(date +%s) - T0) )); }
lim() { l=$(left); [ $l -lt 1 ] && l=1; [ $l -lt $1 ] && echo $l || echo $1; }
W=/tmp/leadw; rm -rf $W; mkdir -p $W/out; tar xJf "$D/payload.tar.xz" -C $W || exit 3
O=$W/out
export LD_LIBRARY_PATH=$W/lib
mkdir -p /tmp/v && echo libnvidia-opencl.so.1 > /tmp/v/nvidia.icd && export OCL_ICD_VENDORS=/tmp/v
{ date -u; nvidia-smi -L; nvidia-smi --query-gpu=driver_version,clocks.sm,clocks.mem --format=csv,noheader; nproc; } > $O/env.txt 2>&1
step() { echo "== $1 $(date -u +%H:%M:%S) left $(left) s" >> $O/log.txt; }
B=$W/bin/pipeline-benchmarks
C="--harness_big --no_opencv_pairing --benchmark_repetitions=3 --benchmark_min_time=0.01 --benchmark_report_aggregates_only=true --benchmark_out_format=json"
bench() {  # name wanted-timeout filter
  step $1; [ $(left) -lt 3 ] && { echo "skipped: no time" >> $O/log.txt; return; }
  timeout $(lim $2) stdbuf -oL $B $C --benchmark_out=$O/$1.json --benchmark_filter="$3" > $O/$1.log 2>&1; echo "rc=$?" >> $O/log.txt
}
step noop; timeout 8 $B --benchmark_filter='^none$' > $O/noop.log 2>&1; echo "rc=$?" >> $O/log.txt
for pt in resize_bilinear:30 rgb_to_yuv:30 sobel:20 unsharp_mask:20; do
  p=${pt%:*}; bench $p ${pt#*:} "^BM_(npp/$p/16384x16384|$p/(opencl|cuda)/16384x16384/resident)"
done
step end
tar czf "$OUT/lead.tgz" -C $O .
cat $O/log.txt
grep -h "_median" $O/*.log | awk '{printf "%s %s ", $1, $2; for(i=6;i<=NF;i++) if ($i ~ /speedup_vs_npp|pct_of_copy/) printf "%s ", $i; print ""}'
