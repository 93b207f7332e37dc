# HarnessUnityBuild.cmake: this repository's own C++ (the harness layers, its unit tests, the bench
# library and the benchmarks) compiles as unity builds: a few .cpp files per compiler run, so that the
# headers every file includes (nlohmann JSON, the standard library, GoogleTest, Google Benchmark) are
# parsed and their templates instantiated and optimised once per batch instead of once per file. It
# halves the CPU time of those targets (docs/ARCHITECTURE.md, "Build and test time"). Halide's
# generators, the generated variant code and outside projects (the package) are not touched.
#
#   harness_unity_build(<target> [BATCH <n>] [SKIP <source>...])
#       Compiles <target> as a unity build of HARNESS_UNITY_BATCH files per batch (default 8), or <n>.
#       SKIP: sources compiled on their own, because their file-local names (anonymous namespaces,
#       statics) clash with another file of the target. Generated sources are always compiled alone
#       (version_info.cpp changes with every commit; it must not drag its batch along).
#   -DHARNESS_UNITY_BUILD=OFF compiles every file on its own (the asan preset does, so that a file
#   that only compiles with the includes of the files batched before it is still found).
include_guard(GLOBAL)
option(HARNESS_UNITY_BUILD "Compile the harness, its tests and the benchmarks as unity builds (about half the CPU time)" ON)
set(HARNESS_UNITY_BATCH 8 CACHE STRING "Source files per unity batch (HARNESS_UNITY_BUILD)")

function(harness_unity_build target)
  cmake_parse_arguments(PARSE_ARGV 1 ARG "" "BATCH" "SKIP")
  if (NOT HARNESS_UNITY_BUILD)
    return()
  endif ()
  if (NOT ARG_BATCH)
    set(ARG_BATCH ${HARNESS_UNITY_BATCH})
  endif ()
  set_target_properties(${target} PROPERTIES UNITY_BUILD ON UNITY_BUILD_BATCH_SIZE ${ARG_BATCH})
  get_target_property(sources ${target} SOURCES)
  get_target_property(dir ${target} SOURCE_DIR)
  set(alone "")
  foreach (s IN LISTS sources)
    cmake_path(ABSOLUTE_PATH s BASE_DIRECTORY "${dir}")
    get_source_file_property(generated "${s}" TARGET_DIRECTORY ${target} GENERATED)
    if (generated OR s MATCHES "^${CMAKE_BINARY_DIR}/")
      list(APPEND alone "${s}")
    endif ()
  endforeach ()
  foreach (s IN LISTS ARG_SKIP)
    cmake_path(ABSOLUTE_PATH s BASE_DIRECTORY "${dir}")
    if (NOT EXISTS "${s}")
      message(FATAL_ERROR "harness_unity_build(${target}): SKIP ${s} is not a source of the target; fix the path")
    endif ()
    list(APPEND alone "${s}")
  endforeach ()
  if (alone)
    set_source_files_properties(${alone} TARGET_DIRECTORY ${target} PROPERTIES SKIP_UNITY_BUILD_INCLUSION ON)
  endif ()
endfunction()
