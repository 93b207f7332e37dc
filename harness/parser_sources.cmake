# harness_parser_sources(<out-var> <profiles.json> <platform> [<golden dir>])
#   The harness sources that need neither the Halide runtime nor OpenCL: the parsers and what they
#   call, with profiles.json embedded (profiles_embedded.cpp, written into the current binary dir).
#   The harness library (harness/CMakeLists.txt) and the fuzz build (harness/fuzz/) both build them.
include_guard(GLOBAL)

function(harness_parser_sources out profiles_json platform)
  set(src "${CMAKE_CURRENT_FUNCTION_LIST_DIR}/src")
  file(READ "${profiles_json}" HARNESS_PROFILES_JSON_TEXT)
  set(HARNESS_PLATFORM_VALUE "${platform}")
  set(HARNESS_GOLDEN_DIR_VALUE "golden")  # the last fallback of default_golden_dir()
  if (ARGC GREATER 3)
    set(HARNESS_GOLDEN_DIR_VALUE "${ARGV3}")
  endif ()
  configure_file("${src}/profiles_embedded.cpp.in" "${CMAKE_CURRENT_BINARY_DIR}/profiles_embedded.cpp" @ONLY)
  set(${out}
      ${src}/args.cpp ${src}/array.cpp ${src}/buffer_modes.cpp ${src}/cli_options.cpp ${src}/compare.cpp
      ${src}/element_type.cpp ${src}/files.cpp ${src}/json_spec.cpp ${src}/number_text.cpp
      ${src}/shard.cpp
      ${src}/golden.cpp ${src}/manifest.cpp ${src}/npy.cpp ${src}/outcome.cpp ${src}/output_pattern.cpp ${src}/profile.cpp
      ${src}/sha256.cpp ${src}/xfail.cpp "${CMAKE_CURRENT_BINARY_DIR}/profiles_embedded.cpp"
      PARENT_SCOPE)
endfunction()
