# AotHarnessFinalize.cmake: the project's `aot-harness` executable and its tests, from the pipelines
# aot_harness_add_pipeline() added (AotHarnessAddPipeline.cmake includes this file).
#
#   aot_harness_finalize([GOLDEN_DIR <dir>] [TIMEOUT <seconds>])
#       Outside projects (the installed package): the `aot-harness` executable in the build tree's
#       bin/, built from the pipelines added so far (with `bench` and the tools: nightly, compare, ...),
#       one CTest test per pipeline x profile x case, and the targets `aot-harness bisect` builds on
#       first use (AotHarnessBisect.cmake).
#       GOLDEN_DIR defaults to golden/ beside the CMakeLists.txt of the first aot_harness_add_pipeline().
#       The build checks every spec (a bad JSON spec fails it with one line naming file, key and fix).
include_guard(GLOBAL)

# A macro: enable_testing() only takes effect at directory scope, not inside a function.
macro(aot_harness_finalize)
  enable_testing()
  _aot_harness_finalize(${ARGN})
endmacro()

function(_aot_harness_finalize)
  cmake_parse_arguments(PARSE_ARGV 0 ARG "" "GOLDEN_DIR;TIMEOUT" "")
  if (NOT TARGET harness_suite AND AOT_HARNESS_PIPELINES)
    message(FATAL_ERROR "aot_harness_finalize(): AOT_HARNESS_PIPELINES='${AOT_HARNESS_PIPELINES}' names no pipeline "
                        "this project adds; name one of its aot_harness_add_pipeline() calls")
  elseif (NOT TARGET harness_suite)
    message(FATAL_ERROR "aot_harness_finalize(): call aot_harness_add_pipeline() first")
  endif ()
  set(golden "${ARG_GOLDEN_DIR}")
  if (NOT golden)
    get_property(golden GLOBAL PROPERTY HARNESS_DEFAULT_GOLDEN_DIR)
  endif ()
  cmake_path(ABSOLUTE_PATH golden NORMALIZE)
  set(timeout "${ARG_TIMEOUT}")
  if (NOT timeout)
    set(timeout 120)
  endif ()
  # The profiles, platform and golden dir compiled into this project's aot-harness.
  get_property(json_file GLOBAL PROPERTY HARNESS_PROFILES_JSON)
  get_property(platform GLOBAL PROPERTY HARNESS_PLATFORM)
  file(READ "${json_file}" HARNESS_PROFILES_JSON_TEXT)
  set(HARNESS_PLATFORM_VALUE "${platform}")
  set(HARNESS_GOLDEN_DIR_VALUE "${golden}")
  set(config "${CMAKE_CURRENT_BINARY_DIR}/aot_harness_config.cpp")
  configure_file("${_HARNESS_CMAKE_DIR}/profiles_embedded.cpp.in" "${config}" @ONLY)
  add_executable(aot-harness "${_HARNESS_CMAKE_DIR}/aot_harness_main.cpp" "${config}")
  # run's default --timeout: the limit its ctest tests get (harness_discover_cases below).
  target_compile_definitions(aot-harness PRIVATE HARNESS_CASE_TIMEOUT=${timeout})
  # `aot-harness bench` where the package has the bench library; the installed tools' location.
  set(bench "")
  if (TARGET harness::bench)
    set(bench harness::bench)
    target_compile_definitions(aot-harness PRIVATE HARNESS_WITH_BENCH)
  endif ()
  include("${_HARNESS_CMAKE_DIR}/AotHarnessTools.cmake")
  aot_harness_tool_locations(aot-harness "${_AOT_HARNESS_TOOLS_DIR}" "${CMAKE_SOURCE_DIR}" "${_HARNESS_CMAKE_DIR}")
  # The runtime after the harness libraries, whose calls into it (OpenCL/CUDA wrapping, copies) it resolves.
  target_link_libraries(aot-harness PRIVATE harness_suite ${bench} harness::harness harness_halide_runtime)
  # A pipeline whose variants need code nobody gave the link is linked as a stub (its runs report
  # ERROR), not a reason for every other pipeline to go without an aot-harness.
  find_program(AOT_HARNESS_NM NAMES "${CMAKE_NM}" nm)
  get_target_property(link_launcher aot-harness CXX_LINKER_LAUNCHER)
  if (NOT link_launcher)
    set(link_launcher "")
  endif ()
  set(guard sh "${_HARNESS_CMAKE_DIR}/harness_link_guard.sh" "${CMAKE_CXX_COMPILER}" "${AOT_HARNESS_NM}" "${CMAKE_COMMAND}"
            ${link_launcher})
  set_target_properties(aot-harness PROPERTIES RUNTIME_OUTPUT_DIRECTORY "${CMAKE_BINARY_DIR}/bin"
                        CXX_LINKER_LAUNCHER "${guard}")
  # Every JSON spec is checked once at build time, so that a bad spec file fails the build with its
  # one line. A generator without a derivable case does not: its pipeline's runs report ERROR.
  add_custom_command(TARGET aot-harness POST_BUILD
                     COMMAND sh -c "\"$0\" list >/dev/null" "$<TARGET_FILE:aot-harness>"
                     COMMENT "aot-harness: checking the specs" VERBATIM)
  # `aot-harness bisect`'s plugin and generator main, built against this project's Halide when bisect
  # first needs them.
  include("${_HARNESS_CMAKE_DIR}/AotHarnessBisect.cmake")
  _aot_harness_add_bisect_tools("${_HARNESS_CMAKE_DIR}/bisect_plugin.cpp" "${_HARNESS_CMAKE_DIR}/bisect_generator_main.cpp"
                                EXCLUDE_FROM_ALL)
  harness_discover_cases(aot-harness TIMEOUT ${timeout})
  message(STATUS "aot-harness: ${CMAKE_BINARY_DIR}/bin/aot-harness, goldens in ${golden}")
endfunction()
