#!/bin/sh
# check_object.sh NM LIBRARY ENTRY [KERNEL_MARKER]
# Passes if LIBRARY defines the function ENTRY (and its _argv/_metadata companions) and, when
# KERNEL_MARKER is given, contains that text (OpenCL C source embedded for the device compiler).
set -u
nm=$1 lib=$2 entry=$3 marker=${4:-}
[ -f "$lib" ] || { echo "FAILED: $lib does not exist"; exit 1; }
syms=$("$nm" -g --defined-only "$lib" 2>&1) || { echo "FAILED: $nm cannot read $lib: $syms"; exit 1; }
for s in "$entry" "${entry}_argv" "${entry}_metadata"; do
  printf '%s\n' "$syms" | grep -Eq " T $s\$" || { echo "FAILED: $lib does not define $s"; exit 1; }
done
if [ -n "$marker" ]; then
  count=$(grep -c -a -- "$marker" "$lib")
  [ "$count" -gt 0 ] || { echo "FAILED: $lib embeds no '$marker' (no OpenCL kernels)"; exit 1; }
  echo "$lib: $entry defined, $count lines with '$marker'"
else
  echo "$lib: $entry defined"
fi
