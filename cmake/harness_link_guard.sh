#!/bin/sh
# harness_link_guard.sh: the linker launcher of an outside project's `aot-harness` (set by
# aot_harness_finalize()). A pipeline whose compiled variants call code nobody gave the link (a
# generator with extern stages or C++ externs of its own) must not stop the executable, and so every
# other pipeline's list, bless, run and ctest, from existing. When the link fails with undefined
# references, this script finds the variant libraries (<pipeline>__<profile>.a) that need those
# symbols, drops every library of those pipelines from the link and links a stub in their place: each
# stub variant registers the linker's message (harness_register_build_error), so every run of such a
# pipeline reports ERROR with it and the fix (LINK_LIBRARIES).
#
# The stubs' source: stubs/link_error_variant.cpp.in beside this script, instantiated once a variant.
#
# usage: harness_link_guard.sh <c++ compiler> <nm> <cmake> <the link command CMake runs...>
set -u
cxx=$1 nm=$2 cmake=$3
shift 3
while [ $# -gt 0 ] && [ -z "$1" ]; do shift; done  # an empty launcher list element
log=$(mktemp "${TMPDIR:-/tmp}/harness_link.XXXXXX")
trap 'rm -f "$log" "$log.syms" "$log.bad" "$log.msg"' EXIT
"$@" 2>"$log"
status=$?
if [ "$status" -eq 0 ]; then
  cat "$log" >&2
  exit 0
fi
out="" prev=""
for a in "$@"; do
  [ "$prev" = -o ] && out=$a
  prev=$a
done
# The symbols the linker could not find (as it prints them: demangled).
sed -n "s/.*undefined reference to [\`']\(.*\)'\$/\1/p" "$log" | sort -u >"$log.syms"
if [ -z "$out" ] || [ ! -s "$log.syms" ]; then
  cat "$log" >&2
  exit "$status"
fi
# Pipelines with a variant library that needs one of them.
: >"$log.bad"
for a in "$@"; do
  case ${a##*/} in
    *__*.a) ;;
    *) continue ;;
  esac
  [ -f "$a" ] || continue
  if "$nm" -C --undefined-only "$a" 2>/dev/null | sed -n 's/^ *U //p' | grep -qxFf "$log.syms"; then
    lib=${a##*/}
    lib=${lib#lib}
    echo "${lib%%__*}" >>"$log.bad"
  fi
done
bad=$(sort -u "$log.bad")
if [ -z "$bad" ]; then
  cat "$log" >&2
  exit "$status"
fi
first=$(head -n 1 "$log.syms")
count=$(wc -l <"$log.syms")
more=""
[ "$count" -gt 1 ] && more=" and $((count - 1)) more"

stub="$out.harness_link_stubs.cpp"
stubs=$(dirname "$0")/stubs
: >"$stub"
n=$#
prev=""
for a in "$@"; do
  keep=1
  case ${a##*/} in
    *__*.a)
      lib=${a##*/}
      lib=${lib#lib}
      fn=${lib%.a}
      p=${lib%%__*}
      if echo "$bad" | grep -qxF "$p"; then
        keep=0
        # A variant the generator already failed for is an empty archive whose registration file
        # defines the entry points (harness_run_generator.sh): nothing to stub.
        c_linkage=1
        if "$nm" -C --defined-only "$a" 2>/dev/null | grep -q " ${fn}_argv(void\*\*)\$"; then
          c_linkage=0  # built with c_plus_plus_name_mangling: the entry points have C++ names
        elif ! "$nm" --defined-only "$a" 2>/dev/null | grep -q " ${fn}_argv\$"; then
          [ "$prev" = -o ] && set -- "$@" "$stub.o"
          prev=$a
          continue
        fi
        printf '%s' "pipeline $p does not link: undefined reference to \`$first'$more (code its generator calls but nobody gave the link); give it with aot_harness_add_pipeline($p ... LINK_LIBRARIES <target>)" >"$log.msg"
        "$cmake" "-DTEMPLATE=$stubs/link_error_variant.cpp.in" "-DOUTPUT=$stub" -DMODE=APPEND "-DMESSAGE_FILE=$log.msg" \
          "-DFN=$fn" "-DC_LINKAGE=$c_linkage" -P "$stubs/write_stub.cmake" || { cat "$log" >&2; exit "$status"; }
      fi
      ;;
  esac
  [ "$keep" = 1 ] && set -- "$@" "$a"
  # The stubs go right after `-o <out>`: before the libraries (libharness.a defines what they call).
  [ "$prev" = -o ] && set -- "$@" "$stub.o"
  prev=$a
done
shift "$n"
"$cxx" -c -x c++ "$stub" -o "$stub.o" || { cat "$log" >&2; exit "$status"; }
for p in $bad; do
  echo "harness: WARNING: pipeline $p does not link (undefined reference to \`$first'$more); aot-harness is built without its code, and every run of it reports ERROR; give the code with aot_harness_add_pipeline($p ... LINK_LIBRARIES <target>)" >&2
done
"$@" || exit 1
exit 0
