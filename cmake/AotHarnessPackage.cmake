# The installed, relocatable CMake package: `cmake --install build --prefix P`, then in another
# project find_package(AotHarness CONFIG REQUIRED) with CMAKE_PREFIX_PATH=P;<Halide>.
#   P/lib/libharness.a (its harness_version() / harness_git_commit() name the build), P/include/harness/*.h
#   P/lib/cmake/AotHarness/: the config, version and targets files, HarnessPipeline.cmake,
#     AotHarnessAddPipeline.cmake, AotHarnessFinalize.cmake, HarnessWriteCaseTests.cmake, the launchers
#     harness_run_generator.sh, harness_generator_guard.sh, harness_link_guard.sh with stubs/ (the templates
#     of what they write when a generator or a link fails), the default profiles.json, profiles_embedded.cpp.in
#     and aot_harness_main.cpp (what aot_harness_finalize() builds), AotHarnessBisect.cmake with
#     bisect_plugin.cpp and bisect_generator_main.cpp (`aot-harness bisect`)
#   P/lib/libharness_parallel.a and P/include/harness/parallel_pool.h: harness::parallel (harness::ParallelPool)
#   P/lib/libharness_bench.a and P/lib/aot-harness/benchmark/ (Google Benchmark): `aot-harness bench`
#   P/libexec/aot-harness/ and P/lib/aot-harness/python/harnesslib/: the tools (AotHarnessTools.cmake)
include(CMakePackageConfigHelpers)
include(GNUInstallDirs)

# AOT_HARNESS_GIT_COMMIT in the package config: the commit the package was configured from.
set(HARNESS_GIT_COMMIT "unknown")
find_package(Git QUIET)
if (GIT_FOUND)
  execute_process(COMMAND "${GIT_EXECUTABLE}" rev-parse --short=12 HEAD WORKING_DIRECTORY "${PROJECT_SOURCE_DIR}"
                  OUTPUT_VARIABLE _commit OUTPUT_STRIP_TRAILING_WHITESPACE RESULT_VARIABLE _rc ERROR_QUIET)
  if (_rc EQUAL 0)
    set(HARNESS_GIT_COMMIT "${_commit}")
  endif ()
endif ()

set(_pkg_dir "${CMAKE_INSTALL_LIBDIR}/cmake/AotHarness")
get_property(_harness_lib_features GLOBAL PROPERTY HARNESS_RUNTIME_FEATURES)
set(_harness_export_targets harness harness_parallel)
# harness::parallel (harness/parallel/): the pool an application installs for Halide's parallel loops.
install(FILES "${PROJECT_SOURCE_DIR}/harness/parallel/include/harness/parallel_pool.h"
        DESTINATION "${CMAKE_INSTALL_INCLUDEDIR}/harness")
set(_harness_gbench_dir "")  # where the package carries Google Benchmark, relative to the prefix ("" = none)
if (TARGET harness_bench)
  # `aot-harness bench`: the bench library, and Google Benchmark's Release build when that is the one
  # used (HarnessFindBenchmark.cmake), so that an outside project finds everything under the prefix.
  list(APPEND _harness_export_targets harness_bench)
  install(FILES "${PROJECT_SOURCE_DIR}/harness/bench/include/harness/bench.h" DESTINATION "${CMAKE_INSTALL_INCLUDEDIR}/harness")
  get_property(HARNESS_GBENCH_CARRIED GLOBAL PROPERTY HARNESS_GBENCH_CARRIED)
  if (HARNESS_GBENCH_CARRIED)
    set(_harness_gbench_dir "${CMAKE_INSTALL_LIBDIR}/aot-harness/benchmark")
    install(DIRECTORY "${HARNESS_GBENCH_CARRIED}/include" "${HARNESS_GBENCH_CARRIED}/lib"
            DESTINATION "${_harness_gbench_dir}" PATTERN "pkgconfig" EXCLUDE)
  endif ()
endif ()
install(TARGETS ${_harness_export_targets} EXPORT AotHarnessTargets ARCHIVE DESTINATION "${CMAKE_INSTALL_LIBDIR}")
install(DIRECTORY "${PROJECT_SOURCE_DIR}/harness/include/harness" DESTINATION "${CMAKE_INSTALL_INCLUDEDIR}"
        FILES_MATCHING PATTERN "*.h")
install(EXPORT AotHarnessTargets NAMESPACE harness:: DESTINATION "${_pkg_dir}")
set(_harness_has_bench "")
if (TARGET harness_bench)
  set(_harness_has_bench 1)
endif ()
configure_package_config_file("${PROJECT_SOURCE_DIR}/cmake/AotHarnessConfig.cmake.in"
                              "${PROJECT_BINARY_DIR}/AotHarnessConfig.cmake" INSTALL_DESTINATION "${_pkg_dir}")
write_basic_package_version_file("${PROJECT_BINARY_DIR}/AotHarnessConfigVersion.cmake"
                                 VERSION "${PROJECT_VERSION}" COMPATIBILITY SameMinorVersion)
install(FILES "${PROJECT_BINARY_DIR}/AotHarnessConfig.cmake" "${PROJECT_BINARY_DIR}/AotHarnessConfigVersion.cmake"
              "${PROJECT_SOURCE_DIR}/cmake/HarnessPipeline.cmake" "${PROJECT_SOURCE_DIR}/cmake/AotHarnessAddPipeline.cmake"
              "${PROJECT_SOURCE_DIR}/cmake/AotHarnessVariantInfo.cmake" "${PROJECT_SOURCE_DIR}/cmake/AotHarnessGenerators.cmake"
              "${PROJECT_SOURCE_DIR}/cmake/AotHarnessFinalize.cmake"
              "${PROJECT_SOURCE_DIR}/cmake/HarnessWriteCaseTests.cmake" "${PROJECT_SOURCE_DIR}/generators/profiles.json"
              "${PROJECT_SOURCE_DIR}/harness/src/base/profiles_embedded.cpp.in"
        DESTINATION "${_pkg_dir}")
install(PROGRAMS "${PROJECT_SOURCE_DIR}/cmake/harness_run_generator.sh" "${PROJECT_SOURCE_DIR}/cmake/harness_generator_guard.sh"
                 "${PROJECT_SOURCE_DIR}/cmake/harness_link_guard.sh" DESTINATION "${_pkg_dir}")
# The templates of the stubs those launchers write when a generator or a link fails.
install(DIRECTORY "${PROJECT_SOURCE_DIR}/cmake/stubs" DESTINATION "${_pkg_dir}")
# The tools (`aot-harness nightly`, ...): harnesslib and one entry point per tool (AotHarnessTools.cmake).
install(FILES "${PROJECT_SOURCE_DIR}/cmake/AotHarnessTools.cmake" DESTINATION "${_pkg_dir}")
include(AotHarnessTools)
aot_harness_install_tools("${PROJECT_SOURCE_DIR}/scripts" "${PROJECT_SOURCE_DIR}/scripts/device-ctest")
install(FILES "${PROJECT_SOURCE_DIR}/harness/tools/aot_harness.cpp" DESTINATION "${_pkg_dir}" RENAME aot_harness_main.cpp)
# `aot-harness bisect`: its plugin and generator main, compiled in the outside project against its Halide.
# The estimates probe's autoscheduler (aot_harness_add_pipeline), compiled in the outside project too.
install(FILES "${PROJECT_SOURCE_DIR}/cmake/harness_estimates_probe.cpp" DESTINATION "${_pkg_dir}")
install(FILES "${PROJECT_SOURCE_DIR}/cmake/AotHarnessBisect.cmake" "${PROJECT_SOURCE_DIR}/harness/bisect/bisect_plugin.cpp"
              "${PROJECT_SOURCE_DIR}/harness/bisect/bisect_generator_main.cpp" DESTINATION "${_pkg_dir}")

if (HARNESS_BUILD_TESTS AND NOT CMAKE_CROSSCOMPILING AND NOT HARNESS_SANITIZE)
  # examples/own-project against the package installed into a temp prefix (cmake/own_project_test.sh).
  cmake_path(GET Halide_DIR PARENT_PATH _halide_prefix)  # <prefix>/lib64/cmake/Halide -> <prefix>
  cmake_path(GET _halide_prefix PARENT_PATH _halide_prefix)
  cmake_path(GET _halide_prefix PARENT_PATH _halide_prefix)
  # core: install, build, bless, ctest, bench, every tool's --help; tools (nightly, after core): nightly
  # twice on PoCL and Oclgrind, history, compare, dashboard in Chromium, driver-diff, device-ctest, lava-job.
  foreach (part IN ITEMS core tools)
    set(_name package/own_project)
    if (part STREQUAL "tools")
      set(_name package/own_project_tools)
    endif ()
    add_test(NAME ${_name}
             COMMAND sh "${PROJECT_SOURCE_DIR}/cmake/own_project_test.sh" "${CMAKE_COMMAND}" "${CMAKE_CTEST_COMMAND}"
                     "${PROJECT_BINARY_DIR}" "${PROJECT_SOURCE_DIR}" "${_halide_prefix}"
                     "${PROJECT_BINARY_DIR}/own-project" ${part})
  endforeach ()
  # The longest precommit tests: no RUN_SERIAL (the other tests fill the cores beside their nested
  # builds); a COST (seconds, about) starts them first on a fresh clone, which has no timing history.
  # Both package tests run `cmake --install` of this build at the same time, into prefixes of their own;
  # they share only the build's install_manifest.txt, which each rewrites and nothing reads (a lock
  # between them made the pair, 72 + 35 s, the whole precommit set's critical path).
  set_tests_properties(package/own_project PROPERTIES LABELS "unit;package" TIMEOUT 1200 COST 100
                       FIXTURES_SETUP own_project_built)
  set_tests_properties(package/own_project_tools PROPERTIES LABELS "nightly;package" TIMEOUT 1800 RUN_SERIAL ON
                       FIXTURES_REQUIRED own_project_built)
  # One bad generator never blocks the rest: five generators, three broken in different ways.
  add_test(NAME package/isolation
           COMMAND sh "${PROJECT_SOURCE_DIR}/harness/test/isolation/isolation_test.sh" "${CMAKE_COMMAND}"
                   "${CMAKE_CTEST_COMMAND}" "${PROJECT_BINARY_DIR}" "${PROJECT_SOURCE_DIR}" "${_halide_prefix}"
                   "${PROJECT_BINARY_DIR}/isolation")
  set_tests_properties(package/isolation PROPERTIES LABELS "unit;package" TIMEOUT 900 COST 40)
  # bisect-commit from the installed package: an outside project's git repository of six commits with a planted
  # slowdown and a planted wrong result, each bisected to its commit (nightly: it builds a commit per step).
  add_test(NAME package/bisect_commit
           COMMAND sh "${PROJECT_SOURCE_DIR}/harness/test/bisect_commit/bisect_commit_test.sh" "${CMAKE_COMMAND}"
                   "${PROJECT_BINARY_DIR}" "${PROJECT_SOURCE_DIR}" "${_halide_prefix}" "${PROJECT_BINARY_DIR}/bisect-commit")
  set_tests_properties(package/bisect_commit PROPERTIES LABELS "nightly;package" TIMEOUT 3600)
  # bisect and repro from the installed package, on a C++ and a Python generator with a planted GPU error
  # (nightly: two bisects, four repro bundles and the plugin's build, about two minutes of CPU).
  add_test(NAME package/triage_outside
           COMMAND sh "${PROJECT_SOURCE_DIR}/harness/test/triage_outside/triage_outside_test.sh" "${CMAKE_COMMAND}"
                   "${CMAKE_CTEST_COMMAND}" "${PROJECT_BINARY_DIR}" "${PROJECT_SOURCE_DIR}" "${_halide_prefix}"
                   "${PROJECT_BINARY_DIR}/triage-outside")
  set_tests_properties(package/triage_outside PROPERTIES LABELS "nightly;package;bisect;repro" TIMEOUT 1800)
  # The generators of Halide's apps/ from Debian's halide source package (downloaded and checked at test
  # time into a cache, never into the tree), with no spec (nightly).
  add_test(NAME package/debian_halide_corpus
           COMMAND sh "${PROJECT_SOURCE_DIR}/harness/test/corpus/corpus_test.sh" "${CMAKE_COMMAND}"
                   "${CMAKE_CTEST_COMMAND}" "${PROJECT_BINARY_DIR}" "${PROJECT_SOURCE_DIR}" "${_halide_prefix}"
                   "${PROJECT_BINARY_DIR}/debian-halide-corpus")
  set_tests_properties(package/debian_halide_corpus PROPERTIES LABELS "nightly;package" TIMEOUT 7200 RUN_SERIAL ON)
  # The generator fuzzer at nightly size: 200 random generators (scripts/genfuzz, seed 1) through the package,
  # no spec, cpu and host; its precommit sample is genfuzz/sample (harness/test/genfuzz/CMakeLists.txt).
  add_test(NAME package/genfuzz
           COMMAND sh "${PROJECT_SOURCE_DIR}/harness/test/genfuzz/genfuzz_test.sh" "${CMAKE_COMMAND}"
                   "${CMAKE_CTEST_COMMAND}" "${PROJECT_BINARY_DIR}" "${PROJECT_SOURCE_DIR}" "${_halide_prefix}"
                   "${PROJECT_BINARY_DIR}/genfuzz" 1 200 cpu,host)
  set_tests_properties(package/genfuzz PROPERTIES LABELS "nightly;package;genfuzz" TIMEOUT 7200 RUN_SERIAL ON)
endif ()
