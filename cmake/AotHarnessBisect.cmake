# AotHarnessBisect.cmake: what `aot-harness bisect` runs besides the build's own generators, built in the
# project that has the pipelines (this repository, or an outside project's aot_harness_finalize()), so
# that they use that project's Halide.
#
#   _aot_harness_add_bisect_tools(<bisect_plugin.cpp> <bisect_generator_main.cpp> [EXCLUDE_FROM_ALL])
#       harness_bisect_plugin: the plugin (a module) loaded into a C++ generator executable with -p;
#       harness-bisect-generator: Halide's generator main with no generator of its own, which loads the
#       plugin to compile the pipeline a Python generator serialized. Both in <build>/bin, where bisect
#       looks. EXCLUDE_FROM_ALL: built when bisect first needs them (cmake --build --target ...), so
#       that a project that never bisects never compiles them. Nothing when cross-compiling or
#       without Halide's compiler library.
include_guard(GLOBAL)

function(_aot_harness_add_bisect_tools plugin_src main_src)
  cmake_parse_arguments(PARSE_ARGV 2 ARG "EXCLUDE_FROM_ALL" "" "")
  if (TARGET harness_bisect_plugin OR CMAKE_CROSSCOMPILING OR NOT TARGET Halide::Halide OR NOT TARGET Halide::Generator)
    return ()
  endif ()
  set(exclude "")
  if (ARG_EXCLUDE_FROM_ALL)
    set(exclude EXCLUDE_FROM_ALL)
  endif ()
  add_library(harness_bisect_plugin MODULE ${exclude} "${plugin_src}")
  target_link_libraries(harness_bisect_plugin PRIVATE Halide::Halide nlohmann_json::nlohmann_json)
  # -O0: its code runs once per bisect build, for microseconds; Halide.h is what its compile costs.
  target_compile_options(harness_bisect_plugin PRIVATE -O0)
  set_target_properties(harness_bisect_plugin PROPERTIES LIBRARY_OUTPUT_DIRECTORY "${CMAKE_BINARY_DIR}/bin")
  add_executable(harness-bisect-generator ${exclude} "${main_src}")
  target_link_libraries(harness-bisect-generator PRIVATE Halide::Generator)
  set_target_properties(harness-bisect-generator PROPERTIES RUNTIME_OUTPUT_DIRECTORY "${CMAKE_BINARY_DIR}/bin")
endfunction()
