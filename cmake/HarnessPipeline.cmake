# HarnessPipeline.cmake: build every profile variant of a Halide generator for the AOT harness.
#
#   harness_load_profiles(<profiles.json>)
#       Validates the profile list (a bad entry is a FATAL_ERROR naming the entry and the field),
#       picks the targets of HARNESS_PLATFORM and creates the shared runtime `harness_halide_runtime`
#       carrying every GPU API the selected profiles use. Call once, before harness_add_pipeline().
#
#   harness_add_pipeline(<name> GENERATOR <generator.cpp> SPEC <spec.cpp>
#                        [PROFILES <profile>...] [PARAMS <generator-param=value>...]
#                        [FEATURES <halide-feature>...] [SUITE <object library>])
#       One static library per pipeline x profile, named <name>__<profile with '-' as '_'>, with Halide
#       REGISTRATION metadata; adds the spec and the registrations to the `harness_suite` object library
#       (or SUITE) that the harness executables link. PROFILES defaults to every loaded profile.
#       FEATURES (e.g. cl_half) are appended as -<feature> to the target of every GPU profile (runtime
#       other than none); a spec that needs a device extension for them lists it in
#       PipelineSpec::required_extensions so that devices without it SKIP.
#       The generator runs through harness_run_generator.sh: if it fails for one profile, the build
#       goes on with a stub variant whose every run is an ERROR carrying the generator's message.
include_guard(GLOBAL)
set(_HARNESS_CMAKE_DIR "${CMAKE_CURRENT_LIST_DIR}")

function(_harness_json_get out json)
  string(JSON value ERROR_VARIABLE err GET "${json}" ${ARGN})
  if (err)
    set(${out} "" PARENT_SCOPE)
  else ()
    set(${out} "${value}" PARENT_SCOPE)
  endif ()
endfunction()

function(_harness_default_platform out)
  if (CMAKE_SYSTEM_PROCESSOR MATCHES "^(x86_64|AMD64|amd64)$")
    set(arch "x86-64")
  elseif (CMAKE_SYSTEM_PROCESSOR MATCHES "^(aarch64|arm64|ARM64)$")
    set(arch "arm-64")
  else ()
    message(FATAL_ERROR "harness: unsupported processor '${CMAKE_SYSTEM_PROCESSOR}'; set HARNESS_PLATFORM to a key of profiles.json targets")
  endif ()
  if (ANDROID OR CMAKE_SYSTEM_NAME STREQUAL "Android")
    set(os "android")
  else ()
    set(os "linux")
  endif ()
  set(${out} "${arch}-${os}" PARENT_SCOPE)
endfunction()

function(harness_load_profiles json_file)
  set_property(DIRECTORY APPEND PROPERTY CMAKE_CONFIGURE_DEPENDS "${json_file}")
  file(READ "${json_file}" json)
  string(JSON type ERROR_VARIABLE err TYPE "${json}" profiles)
  if (err OR NOT type STREQUAL "OBJECT")
    message(FATAL_ERROR "harness: ${json_file}: not valid JSON with a \"profiles\" object (${err}); fix the file")
  endif ()
  if (HARNESS_PLATFORM)
    set(platform "${HARNESS_PLATFORM}")
  else ()
    _harness_default_platform(platform)
  endif ()
  string(JSON count LENGTH "${json}" profiles)
  set(selected "")
  set(features "")
  if (count GREATER 0)
    math(EXPR last "${count} - 1")
    foreach (i RANGE ${last})
      string(JSON name MEMBER "${json}" profiles ${i})
      if (NOT name MATCHES "^[a-z][a-z0-9-]*$")
        message(FATAL_ERROR "harness: profiles.json: profile '${name}': name must match [a-z][a-z0-9-]*")
      endif ()
      foreach (field IN ITEMS description schedule runtime targets)
        _harness_json_get(value "${json}" profiles ${name} ${field})
        if (value STREQUAL "")
          message(FATAL_ERROR "harness: profiles.json: profile '${name}': missing or empty field '${field}'")
        endif ()
      endforeach ()
      _harness_json_get(runtime "${json}" profiles ${name} runtime)
      if (NOT runtime MATCHES "^(none|opencl|cuda)$")
        message(FATAL_ERROR "harness: profiles.json: profile '${name}': field 'runtime' is '${runtime}'; use none, opencl or cuda")
      endif ()
      string(JSON ttype TYPE "${json}" profiles ${name} targets)
      if (NOT ttype STREQUAL "OBJECT")
        message(FATAL_ERROR "harness: profiles.json: profile '${name}': field 'targets' must be an object of platform -> Halide target")
      endif ()
      _harness_json_get(target "${json}" profiles ${name} targets ${platform})
      if (target STREQUAL "")
        message(STATUS "harness: profile '${name}' has no target for ${platform}; not built")
        continue ()
      endif ()
      if (NOT target MATCHES "^(host|${platform})(-[a-z0-9_]+)*$")
        message(FATAL_ERROR "harness: profiles.json: profile '${name}': field 'targets.${platform}' is '${target}'; it must start with '${platform}' (or be 'host')")
      endif ()
      if (HARNESS_PROFILES AND NOT name IN_LIST HARNESS_PROFILES)
        continue ()
      endif ()
      _harness_json_get(schedule "${json}" profiles ${name} schedule)
      list(APPEND selected "${name}")
      set_property(GLOBAL PROPERTY HARNESS_PROFILE_${name}_TARGET "${target}")
      set_property(GLOBAL PROPERTY HARNESS_PROFILE_${name}_SCHEDULE "${schedule}")
      set_property(GLOBAL PROPERTY HARNESS_PROFILE_${name}_RUNTIME "${runtime}")
      if (NOT runtime STREQUAL "none")
        list(APPEND features "${runtime}")
      endif ()
    endforeach ()
  endif ()
  if (NOT selected)
    message(FATAL_ERROR "harness: no profile of ${json_file} has a target for ${platform} (HARNESS_PROFILES='${HARNESS_PROFILES}')")
  endif ()
  list(REMOVE_DUPLICATES features)
  list(SORT features)
  list(JOIN features "-" feature_str)
  set(runtime_target "${platform}")
  if (feature_str)
    string(APPEND runtime_target "-${feature_str}")
  endif ()
  add_halide_runtime(harness_halide_runtime TARGETS ${runtime_target})
  set_property(GLOBAL PROPERTY HARNESS_PROFILE_NAMES "${selected}")
  set_property(GLOBAL PROPERTY HARNESS_PLATFORM "${platform}")
  set_property(GLOBAL PROPERTY HARNESS_PROFILES_JSON "${json_file}")
  message(STATUS "harness: platform ${platform}; profiles: ${selected}; runtime ${runtime_target}")
endfunction()

# The C identifier of a profile name: opencl-mali -> opencl_mali.
function(harness_profile_ident out profile)
  string(REPLACE "-" "_" ident "${profile}")
  set(${out} "${ident}" PARENT_SCOPE)
endfunction()

# The generator command of harness_add_pipeline(): an imported executable <name>.generator.safe, a
# script that runs the real generator through harness_run_generator.sh (stubs on failure).
function(_harness_safe_generator out name)
  set(gen "${name}.generator")
  if (NOT TARGET "${gen}")
    set(gen "${PROJECT_NAME}::halide_generators::${name}.generator")  # cross-compiling: host build's
  endif ()
  set(stub_flags "")
  if (CMAKE_CXX_COMPILER_TARGET)
    list(APPEND stub_flags "--target=${CMAKE_CXX_COMPILER_TARGET}")
  endif ()
  if (CMAKE_SYSROOT)
    list(APPEND stub_flags "--sysroot=${CMAKE_SYSROOT}")
  endif ()
  list(JOIN stub_flags "\" \"" stub_flags)
  if (stub_flags)
    set(stub_flags " \"${stub_flags}\"")
  endif ()
  set(script "${CMAKE_CURRENT_BINARY_DIR}/${name}.generator.safe.sh")
  file(GENERATE OUTPUT "${script}"
       CONTENT "#!/bin/sh\nexec /bin/sh \"${_HARNESS_CMAKE_DIR}/harness_run_generator.sh\" \"$<TARGET_FILE:${gen}>\" \"${CMAKE_CXX_COMPILER}\" \"${CMAKE_AR}\"${stub_flags} -- \"$@\"\n"
       FILE_PERMISSIONS OWNER_READ OWNER_WRITE OWNER_EXECUTE GROUP_READ GROUP_EXECUTE WORLD_READ WORLD_EXECUTE)
  add_executable(${name}.generator.safe IMPORTED)
  set_target_properties(${name}.generator.safe PROPERTIES IMPORTED_LOCATION "${script}")
  set(${out} "${name}.generator.safe" PARENT_SCOPE)
  set(${out}_DEPENDS "${gen}" "${_HARNESS_CMAKE_DIR}/harness_run_generator.sh" PARENT_SCOPE)
endfunction()

function(harness_add_pipeline name)
  cmake_parse_arguments(PARSE_ARGV 1 ARG "" "GENERATOR;SPEC;SUITE" "PROFILES;PARAMS;FEATURES")
  if (NOT ARG_GENERATOR OR NOT ARG_SPEC)
    message(FATAL_ERROR "harness_add_pipeline(${name}): GENERATOR and SPEC are required")
  endif ()
  if (NOT ARG_SUITE)
    set(ARG_SUITE harness_suite)
  endif ()
  if (NOT TARGET ${ARG_SUITE})
    message(FATAL_ERROR "harness_add_pipeline(${name}): create the object library ${ARG_SUITE} first")
  endif ()
  get_property(all_profiles GLOBAL PROPERTY HARNESS_PROFILE_NAMES)
  set(profiles "${ARG_PROFILES}")
  if (NOT profiles)
    set(profiles "${all_profiles}")
  endif ()
  if (NOT "cpu" IN_LIST profiles)
    message(FATAL_ERROR "harness_add_pipeline(${name}): the cpu profile is required (it produces the goldens)")
  endif ()
  foreach (feature IN LISTS ARG_FEATURES)
    if (NOT feature MATCHES "^[a-z0-9_]+$")
      message(FATAL_ERROR "harness_add_pipeline(${name}): FEATURES entry '${feature}' is not a Halide target feature name")
    endif ()
  endforeach ()

  cmake_path(ABSOLUTE_PATH ARG_GENERATOR OUTPUT_VARIABLE gen_src)
  cmake_path(ABSOLUTE_PATH ARG_SPEC OUTPUT_VARIABLE spec_src)
  add_halide_generator(${name}.generator SOURCES "${gen_src}")
  _harness_safe_generator(safe_gen ${name})

  file(SHA256 "${gen_src}" gen_hash)
  set_property(DIRECTORY APPEND PROPERTY CMAKE_CONFIGURE_DEPENDS "${gen_src}")
  set_source_files_properties("${spec_src}" TARGET_DIRECTORY ${ARG_SUITE} PROPERTIES
                              COMPILE_DEFINITIONS "HARNESS_GENERATOR_SHA256=\"${gen_hash}\"")
  target_sources(${ARG_SUITE} PRIVATE "${spec_src}")

  foreach (profile IN LISTS profiles)
    if (NOT profile IN_LIST all_profiles)
      continue ()  # not built for this platform (or not selected)
    endif ()
    get_property(target GLOBAL PROPERTY HARNESS_PROFILE_${profile}_TARGET)
    get_property(schedule GLOBAL PROPERTY HARNESS_PROFILE_${profile}_SCHEDULE)
    get_property(runtime GLOBAL PROPERTY HARNESS_PROFILE_${profile}_RUNTIME)
    if (ARG_FEATURES AND NOT runtime STREQUAL "none")
      list(JOIN ARG_FEATURES "-" feature_str)
      string(APPEND target "-${feature_str}")
    endif ()
    harness_profile_ident(ident "${profile}")
    set(lib "${name}__${ident}")
    add_halide_library(${lib} FROM ${safe_gen}
                       GENERATOR ${name}
                       FUNCTION_NAME ${lib}
                       TARGETS ${target}
                       USE_RUNTIME harness_halide_runtime
                       PARAMS schedule=${schedule} ${ARG_PARAMS}
                       DEPENDS ${safe_gen_DEPENDS}
                       REGISTRATION reg_src)
    cmake_path(ABSOLUTE_PATH reg_src BASE_DIRECTORY "${CMAKE_CURRENT_BINARY_DIR}")
    target_sources(${ARG_SUITE} PRIVATE "${reg_src}")
    target_link_libraries(${ARG_SUITE} PUBLIC ${lib})
  endforeach ()
  set_property(GLOBAL APPEND PROPERTY HARNESS_PIPELINES "${name}")
endfunction()

# harness_discover_cases(<aot-harness target> [TIMEOUT seconds])
#   After <target> is built, asks it (`list --json`) for every pipeline x profile x case and writes
#   one CTest test per combination, named P/T/C, labelled precommit|nightly, the profile and `opencl`
#   for OpenCL profiles, with SKIP_RETURN_CODE 77. Works like gtest_discover_tests().
function(harness_discover_cases target)
  cmake_parse_arguments(PARSE_ARGV 1 ARG "" "TIMEOUT" "")
  if (NOT ARG_TIMEOUT)
    set(ARG_TIMEOUT 120)
  endif ()
  set(out "${CMAKE_CURRENT_BINARY_DIR}/${target}_cases.cmake")
  set(emulator "")
  if (CMAKE_CROSSCOMPILING_EMULATOR)
    set(emulator "${CMAKE_CROSSCOMPILING_EMULATOR}")
  endif ()
  add_custom_command(
    TARGET ${target} POST_BUILD
    COMMAND "${CMAKE_COMMAND}" -D "HARNESS_EXE=$<TARGET_FILE:${target}>" -D "EMULATOR=${emulator}"
            -D "OUT=${out}" -D "TIMEOUT=${ARG_TIMEOUT}"
            -P "${_HARNESS_CMAKE_DIR}/HarnessWriteCaseTests.cmake"
    BYPRODUCTS "${out}"
    VERBATIM)
  set_property(DIRECTORY APPEND PROPERTY TEST_INCLUDE_FILES "${out}")
endfunction()
