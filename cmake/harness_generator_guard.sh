#!/bin/sh
# harness_generator_guard.sh: the compiler and linker launcher of the generator targets that
# aot_harness_add_pipeline() uses (their CXX_COMPILER_LAUNCHER / CXX_LINKER_LAUNCHER). A generator
# whose source does not compile, or whose executable does not link, must not stop the build of the
# other pipelines: on failure this script builds a stub in place of the object (or executable). The
# stub generator prints the compiler's (linker's) first errors and exits 1 whenever it runs, so every
# variant of that pipeline becomes a stub (harness_run_generator.sh) whose runs report ERROR with the
# message, and the user sees which generator failed and why in `aot-harness list` and every record.
#
# usage: harness_generator_guard.sh compile|link <c++ compiler> <cmake> <the command CMake runs...>
#   compile: the command has `-o <object>` and `-c <source>`; the stub is compiled with the same
#            flags (so the depfile and the object land where the build expects them).
#   link:    the command has `-o <executable>`; the stub is a program of its own.
# The stub's source: stubs/generator_build_error.cpp.in beside this script, instantiated.
set -u
mode=$1 cxx=$2 cmake=$3
shift 3
while [ $# -gt 0 ] && [ -z "$1" ]; do shift; done  # an empty launcher list element
log=$(mktemp "${TMPDIR:-/tmp}/harness_guard.XXXXXX")
trap 'rm -f "$log" "$log.msg"' EXIT
"$@" 2>"$log"
status=$?
if [ "$status" -eq 0 ]; then
  cat "$log" >&2
  exit 0
fi

out="" src="" prev=""
for a in "$@"; do
  case $prev in
    -o) out=$a ;;
    -c) src=$a ;;
  esac
  prev=$a
done
if [ -z "$out" ] || { [ "$mode" = compile ] && [ -z "$src" ]; }; then
  cat "$log" >&2
  echo "harness_generator_guard.sh: $mode failed ($status) and the command names no -o/-c; cannot write a stub" >&2
  exit "$status"
fi

# The message: the compiler's or linker's error lines (else its first lines), at most 1500 bytes.
errors=$(grep -E "error|undefined reference" "$log" | head -n 8)
[ -n "$errors" ] || errors=$(head -n 8 "$log")
[ -n "$errors" ] || errors="exit status $status, no output"
errors=$(printf '%s' "$errors" | head -c 1500)
if [ "$mode" = compile ]; then
  what="the generator source ${src##*/} does not compile"
else
  what="the generator executable ${out##*/} does not link"
fi
cat "$log" >&2
echo "harness: WARNING: $what; the build goes on with a stub generator, and every run of its pipelines reports ERROR" >&2

stub="$out.harness_stub.cpp"
printf '%s: %s' "$what" "$errors" >"$log.msg"
with_main=0
[ "$mode" = link ] && with_main=1
stubs=$(dirname "$0")/stubs
"$cmake" "-DTEMPLATE=$stubs/generator_build_error.cpp.in" "-DOUTPUT=$stub" "-DMESSAGE_FILE=$log.msg" "-DWHAT=$what" \
  "-DWITH_MAIN=$with_main" -P "$stubs/write_stub.cmake" || exit 1
if [ "$mode" = compile ]; then
  # The same command with the source replaced: same flags, same object and depfile paths.
  n=$#
  i=0
  prev=""
  for a in "$@"; do
    i=$((i + 1))
    if [ "$prev" = -c ]; then set -- "$@" "$stub"; else set -- "$@" "$a"; fi
    prev=$a
  done
  shift "$n"
  "$@" || exit 1
else
  "$cxx" -x c++ "$stub" -o "$out" || exit 1
fi
exit 0
