# harness_embedded_profiles_source(<out-var> <profiles.json> <platform> [<golden dir>])
#   Writes profiles_embedded.cpp (profiles.json and the last fallback golden dir, from
#   src/base/profiles_embedded.cpp.in) into the current binary dir and returns its path.
# harness_embedded_personalities_source(<out-var>)
#   Writes personalities_embedded.cpp (src/devices/personalities.json as text, for `run --device`) into the
#   current binary dir's generated/ and returns its path.
# harness_parser_sources(<out-var> <profiles.json> <platform> [<golden dir>])
#   The harness sources that need neither the Halide runtime nor OpenCL: the parsers and what they
#   call, with profiles_embedded.cpp. The fuzz build (harness/fuzz/) builds them alone; the library
#   (harness/CMakeLists.txt) builds them in their layers.
include_guard(GLOBAL)

function(harness_embedded_profiles_source out profiles_json platform)
  file(READ "${profiles_json}" HARNESS_PROFILES_JSON_TEXT)
  set(HARNESS_PLATFORM_VALUE "${platform}")
  set(HARNESS_GOLDEN_DIR_VALUE "golden")  # the last fallback of default_golden_dir()
  if (ARGC GREATER 3)
    set(HARNESS_GOLDEN_DIR_VALUE "${ARGV3}")
  endif ()
  configure_file("${CMAKE_CURRENT_FUNCTION_LIST_DIR}/src/base/profiles_embedded.cpp.in"
                 "${CMAKE_CURRENT_BINARY_DIR}/profiles_embedded.cpp" @ONLY)
  set(${out} "${CMAKE_CURRENT_BINARY_DIR}/profiles_embedded.cpp" PARENT_SCOPE)
endfunction()

function(harness_embedded_personalities_source out)
  set(json "${CMAKE_CURRENT_FUNCTION_LIST_DIR}/src/devices/personalities.json")
  set_property(DIRECTORY APPEND PROPERTY CMAKE_CONFIGURE_DEPENDS "${json}")
  file(READ "${json}" HARNESS_PERSONALITIES_JSON_TEXT)
  configure_file("${CMAKE_CURRENT_FUNCTION_LIST_DIR}/src/devices/personalities_embedded.cpp.in"
                 "${CMAKE_CURRENT_BINARY_DIR}/generated/personalities_embedded.cpp" @ONLY)
  set(${out} "${CMAKE_CURRENT_BINARY_DIR}/generated/personalities_embedded.cpp" PARENT_SCOPE)
endfunction()

function(harness_parser_sources out profiles_json platform)
  harness_embedded_profiles_source(embedded "${profiles_json}" "${platform}" ${ARGN})
  harness_embedded_personalities_source(personalities)
  set(src "${CMAKE_CURRENT_FUNCTION_LIST_DIR}/src")
  set(${out}
      ${src}/base/args.cpp ${src}/base/files.cpp ${src}/base/json_reader.cpp ${src}/base/number_text.cpp ${src}/base/outcome.cpp
      ${src}/base/output_pattern.cpp ${src}/base/profile.cpp ${src}/base/sha256.cpp
      ${src}/values/array.cpp ${src}/values/compare.cpp ${src}/values/element_type.cpp ${src}/values/npy.cpp
      ${src}/values/tolerance.cpp ${src}/values/verdict_core.cpp ${src}/values/npy_core.cpp
      ${src}/golden/golden.cpp ${src}/golden/manifest.cpp
      ${src}/spec/json_spec.cpp ${src}/spec/xfail.cpp
      ${src}/variant/buffer_modes.cpp
      ${src}/matrix/shard.cpp
      ${src}/cli/cli_options.cpp ${src}/cli/cli_table.cpp ${src}/run/child_protocol.cpp
      ${src}/devices/device_personality.cpp
      "${embedded}" "${personalities}"
      PARENT_SCOPE)
endfunction()
