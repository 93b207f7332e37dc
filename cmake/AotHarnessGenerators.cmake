# AotHarnessGenerators.cmake: the generators of aot_harness_add_pipeline (AotHarnessAddPipeline.cmake, which
# includes it): harness_add_generator(), which records a generator's sources, and the sha256 of those sources
# that each golden's manifest entry keeps (a golden whose generator changed since its bless is stale).
include_guard(GLOBAL)

# The sha256 of a generator's sources (one source: that file's sha256, as the goldens' manifest has
# always recorded), or "unknown" for an imported generator without recorded sources.
function(_aot_harness_generator_sha out gen)
  get_property(sources GLOBAL PROPERTY HARNESS_GENERATOR_SOURCES_${gen})
  if (NOT sources AND TARGET "${gen}")
    get_target_property(imported "${gen}" IMPORTED)
    get_property(py_src TARGET "${gen}" PROPERTY Halide_PYTHON_GENERATOR_SOURCE)  # a Python generator
    if (py_src)
      set(sources "${py_src}")
    elseif (NOT imported)
      get_target_property(sources "${gen}" SOURCES)
      get_target_property(dir "${gen}" SOURCE_DIR)
      set(abs "")
      foreach (s IN LISTS sources)
        cmake_path(ABSOLUTE_PATH s BASE_DIRECTORY "${dir}")
        list(APPEND abs "${s}")
      endforeach ()
      set(sources "${abs}")
    endif ()
  endif ()
  list(FILTER sources EXCLUDE REGEX "\\.(h|hpp)$")
  list(LENGTH sources n)
  if (n EQUAL 0)
    set(${out} "unknown" PARENT_SCOPE)
    return ()
  endif ()
  set(hashes "")
  foreach (s IN LISTS sources)
    file(SHA256 "${s}" h)
    list(APPEND hashes "${h}")
    set_property(DIRECTORY APPEND PROPERTY CMAKE_CONFIGURE_DEPENDS "${s}")
  endforeach ()
  if (n EQUAL 1)
    set(${out} "${hashes}" PARENT_SCOPE)
  else ()
    string(SHA256 h "${hashes}")
    set(${out} "${h}" PARENT_SCOPE)
  endif ()
endfunction()

# Halide.h as one precompiled header per set of generators compiled with the same options (harness_add_generator's
# at -O0; an outside project's own add_halide_generator() targets that aot_harness_add_pipeline() is given):
# parsing it is most of a generator's compile (sobel's: 5.2 CPU-s without, 2.5 with), and precompiling it costs
# about 9 CPU-s before any of them can start, so a set uses it from eight generators on (three took 9-10 s on two
# cores without it, 17-19 s with), decided at the end of the top-level directory when they are all known (a clean
# build of this repository, 21 generators: 793 -> 733 CPU-s). Off with
# -DAOT_HARNESS_GENERATOR_PCH=OFF; a compiler that rejects the header reads Halide.h as before.
option(AOT_HARNESS_GENERATOR_PCH "Precompile Halide.h once per set of C++ generators with the same options" ON)
function(_aot_harness_generator_pch target)
  if (NOT AOT_HARNESS_GENERATOR_PCH OR NOT CMAKE_CXX_COMPILER_ID MATCHES "GNU|Clang" OR NOT TARGET "${target}")
    return ()
  endif ()
  get_target_property(imported "${target}" IMPORTED)
  get_target_property(type "${target}" TYPE)
  if (imported OR NOT type STREQUAL "EXECUTABLE")  # a cross build's import, a Python generator's stand-in
    return ()
  endif ()
  get_property(gens GLOBAL PROPERTY _AOT_HARNESS_PCH_GENERATORS)
  if (NOT gens)
    cmake_language(DEFER DIRECTORY "${CMAKE_SOURCE_DIR}" CALL _aot_harness_generator_pch_apply)
  endif ()
  if (NOT target IN_LIST gens)
    set_property(GLOBAL APPEND PROPERTY _AOT_HARNESS_PCH_GENERATORS "${target}")
  endif ()
endfunction()
function(_aot_harness_generator_pch_apply)
  get_property(gens GLOBAL PROPERTY _AOT_HARNESS_PCH_GENERATORS)
  set(keys "")
  foreach (g IN LISTS gens)
    get_target_property(opts "${g}" COMPILE_OPTIONS)
    string(SHA1 key "${opts}")
    list(APPEND keys "${key}")
    list(APPEND set_${key} "${g}")
  endforeach ()
  list(REMOVE_DUPLICATES keys)
  foreach (key IN LISTS keys)
    set(set "${set_${key}}")
    list(LENGTH set n)
    if (n LESS 8)
      continue ()
    endif ()
    list(POP_FRONT set first)
    target_precompile_headers(${first} PRIVATE <Halide.h>)
    foreach (g IN LISTS set)
      target_precompile_headers(${g} REUSE_FROM ${first})
    endforeach ()
  endforeach ()
endfunction()

# harness_add_generator(<target> SOURCES <file>...): add_halide_generator() that also records the
# sources, so that builds importing the generator (cross, asan) hash the same files.
function(harness_add_generator target)
  cmake_parse_arguments(PARSE_ARGV 1 ARG "" "" "SOURCES")
  set(abs "")
  foreach (s IN LISTS ARG_SOURCES)
    cmake_path(ABSOLUTE_PATH s OUTPUT_VARIABLE a)
    list(APPEND abs "${a}")
  endforeach ()
  set_property(GLOBAL PROPERTY HARNESS_GENERATOR_SOURCES_${target} "${abs}")
  if (NOT TARGET ${target} AND NOT TARGET ${PROJECT_NAME}::halide_generators::${target})
    add_halide_generator(${target} SOURCES ${abs})
    # -O0: a generator's own C++ only builds the pipeline's IR, once per variant at build time (Halide's
    # compiler, libHalide, does the work), and -O0 compiles it in about 1.3 s less CPU than -O3 (of ~3.5 s,
    # most of it Halide.h). The variants are the same bytes (docs/ARCHITECTURE.md, "Build and test time").
    if (TARGET ${target})  # a cross build imports the host build's generators instead
      get_target_property(type ${target} TYPE)
      if (type STREQUAL "EXECUTABLE")  # not a Python generator's stand-in target
        target_compile_options(${target} PRIVATE -O0)
        _aot_harness_generator_pch(${target})
      endif ()
    endif ()
  endif ()
endfunction()
