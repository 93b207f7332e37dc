#!/bin/sh
# harness_run_generator.sh: runs one Halide generator invocation for harness_add_pipeline(); if the
# generator fails (a schedule this target cannot compile, a CompileError, a crash), the build goes on:
# this script writes stub outputs instead, so that the variant still links and registers, and every
# run of it reports ERROR carrying the generator's message: one bad variant must not break the build
# of the others.
#
# usage: harness_run_generator.sh <generator> <c++ compiler> <ar> <cmake> [<compiler flag>...] -- <generator args>
#   <generator args> are what add_halide_library passes: -n NAME -f FUNCTION -e OUTPUTS -o DIR target=T ...
# Stubs written on failure (only those named in -e), from the templates in stubs/ beside this script:
#   NAME.h                 declarations of FUNCTION_argv / FUNCTION_metadata (failed_variant.h.in)
#   NAME.o | NAME.a        an empty object (or archive), so the static library still builds
#   NAME.registration.cpp  defines FUNCTION_argv (raises the message as a Halide error and returns
#                          halide_error_code_generic_error), FUNCTION_metadata (no arguments) and
#                          registers them with extra key "harness_compile_error" = the message
#                          (failed_variant.registration.cpp.in).
set -u
prev=""
gen=$1 cxx=$2 ar=$3 cmake=$4
shift 4
stubs=$(dirname "$0")/stubs
cxxflags=""
while [ $# -gt 0 ] && [ "$1" != "--" ]; do cxxflags="$cxxflags $1"; shift; done
[ $# -gt 0 ] && shift  # the --

log=$(mktemp "${TMPDIR:-/tmp}/harness_gen.XXXXXX")
trap 'rm -f "$log" "$log.msg"' EXIT
# Every generator invocation runs under a memory and a time limit (a generator whose defaults run away
# must not take the machine down): AOT_HARNESS_GENERATOR_MEMORY_MB of address space and
# AOT_HARNESS_GENERATOR_TIMEOUT seconds, set by aot_harness_add_pipeline() from the CMake variables of
# the same names (0 = no limit).
mem_mb=${AOT_HARNESS_GENERATOR_MEMORY_MB:-6144}
limit_s=${AOT_HARNESS_GENERATOR_TIMEOUT:-600}
(
  [ "$mem_mb" -gt 0 ] && ulimit -v $((mem_mb * 1024))
  if [ "$limit_s" -gt 0 ] && command -v timeout >/dev/null; then
    exec timeout -k 10 "$limit_s" "$gen" "$@"
  fi
  exec "$gen" "$@"
) 2>"$log"
status=$?

name="" fn="" emits="" outdir="." target=""
for a in "$@"; do
  case $prev in -n) name=$a ;; -f) fn=$a ;; -e) emits=$a ;; -o) outdir=$a ;; esac
  case $a in target=*) target=${a#target=} ;; esac
  prev=$a
done
[ -n "$fn" ] || fn=$name
missing_note=""
if [ "$status" -eq 0 ]; then
  cat "$log" >&2
  # A generator that exits 0 but writes none of what was asked (a Python generator file without its
  # `hl.main()` call does exactly that) fails like one that exits non-zero: its pipeline's runs are
  # ERROR records saying why, and the build of the others goes on.
  missing=""
  for kind in $(printf '%s' "$emits" | tr ',' ' '); do
    case $kind in
      c_header) f=$name.h ;;
      object) f=$name.o ;;
      static_library) f=$name.a ;;
      registration) f=$name.registration.cpp ;;
      *) continue ;;
    esac
    [ -e "$outdir/$f" ] || missing="$missing${missing:+, }$f"
  done
  if [ -n "$name" ] && [ -n "$missing" ]; then
    case $gen in
      *.py.sh) missing_note="the Python generator exited 0 but wrote nothing ($missing missing): its file never calls Halide's generator main; end it with: if __name__ == \"__main__\": hl.main()" ;;
      *) missing_note="the generator exited 0 but did not write $missing; make it write the outputs it is asked for (-e $emits)" ;;
    esac
    status=1
  else
    # A GPU target whose schedule made no kernel writes no device_code file: leave an empty one, so
    # the build has the output it declared (aot_harness_add_pipeline asks for it on GPU profiles).
    case ",$emits," in *,device_code,*) [ -n "$name" ] && [ ! -e "$outdir/$name.device_code" ] && : >"$outdir/$name.device_code" ;; esac
    exit 0
  fi
fi
limit_note=""
if [ "$status" -eq 124 ] || [ "$status" -eq 137 ]; then
  limit_note="it ran longer than its limit of ${limit_s} s (raise AOT_HARNESS_GENERATOR_TIMEOUT, or give GeneratorParams with PARAMS); "
elif [ "$mem_mb" -gt 0 ] && grep -qiE "bad_alloc|out of memory|cannot allocate|mmap" "$log"; then
  limit_note="it ran out of its ${mem_mb} MiB of memory (raise AOT_HARNESS_GENERATOR_MEMORY_MB, or give GeneratorParams with PARAMS); "
elif [ "$status" -eq 134 ] && grep -q "Assertion .* failed" "$log"; then
  # An assertion of Halide's or LLVM's own (LLVM's IRBuilder on a masked store of a scalar, say): no limit was met.
  limit_note="it aborted on an assertion inside Halide's compiler (signal 6): a Halide bug for this schedule and target; "
elif { [ "$status" -eq 134 ] || [ "$status" -eq 139 ]; } && [ "$mem_mb" -gt 0 ] && ! grep -q "Error" "$log"; then
  limit_note="it died of signal $((status - 128)) under a ${mem_mb} MiB memory limit (AOT_HARNESS_GENERATOR_MEMORY_MB); "
fi

if [ -z "$name" ] || [ -z "$emits" ]; then
  cat "$log" >&2
  echo "harness_run_generator.sh: generator failed ($status) and its arguments name no -n/-e; cannot write stubs" >&2
  exit "$status"
fi

# The message: the generator's stderr, trimmed, at most 2000 bytes.
msg=$(head -c 2000 "$log")
[ -n "$msg" ] || msg="generator exited with status $status and printed nothing"
[ -z "$missing_note" ] || msg=$missing_note
msg="generator ${name} failed for target ${target}: ${limit_note}$msg"

case $name in
  *__estimates)  # the estimates probe (aot_harness_add_pipeline): optional, so only a note
    echo "harness: note: ${name}: no estimates from an autoscheduled build (${limit_note:-the generator failed}); cases use the plain build's metadata" >&2 ;;
  *)
    echo "harness: WARNING: $msg" >&2
    echo "harness: WARNING: ${name} becomes a stub variant whose every run reports ERROR with this message" >&2 ;;
esac

ident=$(printf '%s' "$fn" | sed 's/[^A-Za-z0-9_]/_/g')
printf '%s' "$msg" >"$log.msg"
# write_stub TEMPLATE OUTPUT [-DNAME=VALUE...]: one of the templates in stubs/, instantiated.
write_stub() {
  template=$1 output=$2
  shift 2
  "$cmake" "-DTEMPLATE=$stubs/$template" "-DOUTPUT=$output" "-DMESSAGE_FILE=$log.msg" "-DNAME=$name" "-DFN=$fn" \
    "-DIDENT=$ident" "-DTARGET=$target" -P "$stubs/write_stub.cmake"
}
for kind in $(printf '%s' "$emits" | tr ',' ' '); do
  case $kind in
    c_header) write_stub failed_variant.h.in "$outdir/$name.h" || exit 1 ;;
    object)
      # shellcheck disable=SC2086
      "$cxx" $cxxflags -c -x c++ /dev/null -o "$outdir/$name.o" || exit 1
      ;;
    static_library)
      # shellcheck disable=SC2086
      "$cxx" $cxxflags -c -x c++ /dev/null -o "$outdir/$name.stub.o" || exit 1
      rm -f "$outdir/$name.a"
      "$ar" qc "$outdir/$name.a" "$outdir/$name.stub.o" || exit 1
      rm -f "$outdir/$name.stub.o"
      ;;
    registration) write_stub failed_variant.registration.cpp.in "$outdir/$name.registration.cpp" || exit 1 ;;
    device_code) : >"$outdir/$name.device_code" ;;  # no kernels
    *) ;;  # other outputs (stmt, assembly, ...) are simply absent
  esac
done
exit 0
