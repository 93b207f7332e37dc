# HarnessFindBenchmark.cmake: Google Benchmark for `aot-harness bench` (harness/bench/) and
# benchmarks/pipeline-benchmarks: the Release build that scripts/setup makes in .deps/benchmark, else
# the system's (Debian's libbenchmark is a debug build; bench.json's context says which:
# library_build_type). Include it in each directory that links benchmark::benchmark (an imported
# target is seen by its directory only). Sets the global property HARNESS_GBENCH_CARRIED to that
# Release build's prefix when it is the one used: the installed package carries it
# (AotHarnessPackage.cmake), so that an outside project needs nothing else.
set(_gbench_release "${PROJECT_SOURCE_DIR}/.deps/benchmark/lib/cmake/benchmark")
if (EXISTS "${_gbench_release}/benchmarkConfig.cmake")
  set(benchmark_DIR "${_gbench_release}" CACHE PATH "Google Benchmark's CMake package" FORCE)  # also in old build dirs
endif ()
find_package(benchmark REQUIRED)
get_property(_gbench_said GLOBAL PROPERTY HARNESS_GBENCH_SAID)
if (NOT _gbench_said)
  set_property(GLOBAL PROPERTY HARNESS_GBENCH_SAID 1)
  message(STATUS "harness: Google Benchmark ${benchmark_VERSION} from ${benchmark_DIR}")
  cmake_path(ABSOLUTE_PATH benchmark_DIR NORMALIZE OUTPUT_VARIABLE _gbench_dir)
  cmake_path(ABSOLUTE_PATH _gbench_release NORMALIZE OUTPUT_VARIABLE _gbench_release_abs)
  string(REGEX REPLACE "/$" "" _gbench_dir "${_gbench_dir}")
  if (_gbench_dir STREQUAL _gbench_release_abs)
    set_property(GLOBAL PROPERTY HARNESS_GBENCH_CARRIED "${PROJECT_SOURCE_DIR}/.deps/benchmark")
  endif ()
endif ()
