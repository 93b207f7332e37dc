# AotHarnessAddPipeline.cmake: any Halide generator, used as it is, into the harness.
# Included by HarnessPipeline.cmake (in this repository and in the installed AotHarness package).
#
#   aot_harness_add_pipeline(<name> FROM <generator target> [GENERATOR <registered name>]
#                            [SPEC <spec.cpp | spec.json>] [PROFILES <profile>...]
#                            [PARAMS <param=value>...] [PROFILE_PARAMS <profile> <param=value>... ...]
#                            [AUTOSCHEDULER <name>] [FEATURES <feature>...] [ALL_FEATURES <feature>...]
#                            [LINK_LIBRARIES <target>...] [SUITE <object library>] [FUNC_PROFILE <profile>...])
#       Like add_halide_library(... FROM ...): one static library per pipeline x profile, named
#       <name>__<profile with '-' as '_'>, from the generator target (add_halide_generator()) with the
#       profile's Halide target. The generator is used as it is: the harness passes a GeneratorParam
#       only where PARAMS (every profile) or PROFILE_PARAMS (that profile; a word without '=' names
#       the profile the following params belong to) map one. GENERATOR: the name the generator is
#       registered under (default <name>). AUTOSCHEDULER: as add_halide_library's (e.g.
#       Halide::Mullapudi2016; the plugin must be loaded). SPEC: a C++ spec (HARNESS_REGISTER_SPEC,
#       with an independent reference), a JSON spec (harness/json_spec.h), or none: cases and
#       tolerances then come from the generator's metadata (harness/metadata_spec.h).
#       FEATURES are appended to the target of every GPU profile (cl_* only to OpenCL, vk_* only to
#       Vulkan profiles), ALL_FEATURES to every profile's.
#       LINK_LIBRARIES: code the compiled pipeline calls (a generator's extern stages or C++
#       externs), linked into the harness executable.
#       Generators run under a memory and time limit: AOT_HARNESS_GENERATOR_MEMORY_MB (default 6144)
#       and AOT_HARNESS_GENERATOR_TIMEOUT (seconds, default 600); 0 = none. A generator that does not
#       compile, link or run becomes stub variants whose runs report ERROR with its message.
#       Without a C++ spec, an estimates probe (the cpu variant built once more with the harness's
#       EstimatesOnly autoscheduler, harness_estimates_probe.cpp, never run; AOT_HARNESS_NO_ESTIMATES_PROBE=ON
#       turns it off) supplies the estimates that many generators state only when autoscheduled.
#       SUITE: the object library the harness executable links (default harness_suite, created on
#       first use). PROFILES defaults to every loaded profile; cpu is required (it makes the goldens).
#       FUNC_PROFILE <profile>...: CPU profiles whose variant also gets a profiled twin for Halide's per-Func
#       profile in `bench --kernels` (as AOT_HARNESS_FUNC_PROFILE does for every pipeline; AotHarnessFuncProfile.cmake).
#       AOT_HARNESS_PIPELINES (;-separated names, a cache value): only these pipelines are made, the
#       others' calls do nothing (aot-harness bisect-commit builds one pipeline per commit so).
#
#   aot_harness_finalize([GOLDEN_DIR <dir>] [TIMEOUT <seconds>])
#       Outside projects (the installed package): the `aot-harness` executable in the build tree's
#       bin/, built from the pipelines added so far (with `bench` and the tools: nightly, compare, ...),
#       one CTest test per pipeline x profile x case, and the targets `aot-harness bisect` builds on
#       first use (AotHarnessBisect.cmake).
#       GOLDEN_DIR defaults to golden/ beside the CMakeLists.txt of the first aot_harness_add_pipeline().
#       The build checks every spec (a bad JSON spec fails it with one line naming file, key and fix).
include_guard(GLOBAL)
include("${CMAKE_CURRENT_LIST_DIR}/AotHarnessVariantInfo.cmake")
include("${CMAKE_CURRENT_LIST_DIR}/AotHarnessGenerators.cmake")
include("${CMAKE_CURRENT_LIST_DIR}/AotHarnessFuncProfile.cmake")

# Loads the default profiles.json (the package's, or AOT_HARNESS_PROFILES_JSON) unless loaded.
function(_aot_harness_ensure_profiles)
  get_property(loaded GLOBAL PROPERTY HARNESS_PROFILES_JSON)
  if (loaded)
    return ()
  endif ()
  set(json "${AOT_HARNESS_PROFILES_JSON}")
  if (NOT json)
    set(json "${_HARNESS_CMAKE_DIR}/profiles.json")
  endif ()
  harness_load_profiles("${json}")
endfunction()

# "cpu schedule=portable host schedule=host ...": every loaded profile's `schedule` field as the value
# of GeneratorParam <param>, for PROFILE_PARAMS (this repository's generators have such a param).
function(aot_harness_profile_param_map out param)
  _aot_harness_ensure_profiles()
  get_property(names GLOBAL PROPERTY HARNESS_PROFILE_NAMES)
  set(words "")
  foreach (profile IN LISTS names)
    get_property(schedule GLOBAL PROPERTY HARNESS_PROFILE_${profile}_SCHEDULE)
    list(APPEND words "${profile}" "${param}=${schedule}")
  endforeach ()
  set(${out} "${words}" PARENT_SCOPE)
endfunction()

# The C++ file that registers a pipeline without a C++ spec (metadata, or the JSON spec embedded).
function(_aot_harness_derived_spec_source out name spec_file sha)
  set(json_text "")
  set(json_path "")
  if (spec_file)
    file(READ "${spec_file}" json_text)
    set(json_path "${spec_file}")
    cmake_path(RELATIVE_PATH json_path BASE_DIRECTORY "${CMAKE_SOURCE_DIR}")
    set_property(DIRECTORY APPEND PROPERTY CMAKE_CONFIGURE_DEPENDS "${spec_file}")
    if (json_text MATCHES "\\)harness_json\"")
      message(FATAL_ERROR "aot_harness_add_pipeline(${name}): ${spec_file} contains ')harness_json\"'; remove it")
    endif ()
  endif ()
  string(MAKE_C_IDENTIFIER "${name}" ident)
  set(file "${CMAKE_CURRENT_BINARY_DIR}/${name}.derived_spec.cpp")
  file(CONFIGURE OUTPUT "${file}" CONTENT [=[
// Generated by aot_harness_add_pipeline(@name@): a spec from the generator's metadata@json_note@.
#include "harness/metadata_spec.h"
HARNESS_REGISTER_DERIVED_SPEC(@ident@, "@name@", R"harness_json(@json_text@)harness_json", "@json_path@", "@sha@");
]=] @ONLY)
  set(${out} "${file}" PARENT_SCOPE)
endfunction()

# A generator target's compiler and linker launchers: harness_generator_guard.sh, so that a generator
# whose source does not compile or link becomes a stub generator (its pipelines' runs report ERROR)
# instead of stopping the build of the others. Launchers already set (ccache) run under it.
function(_aot_harness_guard_generator gen)
  if (NOT TARGET "${gen}")
    return ()
  endif ()
  get_target_property(imported "${gen}" IMPORTED)
  get_target_property(type "${gen}" TYPE)
  get_target_property(done "${gen}" HARNESS_GUARDED)
  if (imported OR done OR NOT type STREQUAL "EXECUTABLE")
    return ()
  endif ()
  set(guard sh "${_HARNESS_CMAKE_DIR}/harness_generator_guard.sh")
  get_target_property(compile_launcher "${gen}" CXX_COMPILER_LAUNCHER)
  get_target_property(link_launcher "${gen}" CXX_LINKER_LAUNCHER)
  foreach (v IN ITEMS compile_launcher link_launcher)
    if (NOT ${v})
      set(${v} "")
    endif ()
  endforeach ()
  set(compile ${guard} compile "${CMAKE_CXX_COMPILER}" ${compile_launcher})
  set(link ${guard} link "${CMAKE_CXX_COMPILER}" ${link_launcher})
  set_target_properties("${gen}" PROPERTIES CXX_COMPILER_LAUNCHER "${compile}" CXX_LINKER_LAUNCHER "${link}"
                        HARNESS_GUARDED TRUE)
endfunction()

# The estimates probe's autoscheduler plugin (harness_estimates_probe.cpp), made once per project:
# AotHarnessProbe::EstimatesOnly. FALSE where it cannot be built (cross-compiling, no Halide compiler).
function(_aot_harness_estimates_probe_target out)
  set(${out} FALSE PARENT_SCOPE)
  if (TARGET AotHarnessProbe::EstimatesOnly)
    set(${out} TRUE PARENT_SCOPE)
  elseif (NOT CMAKE_CROSSCOMPILING AND TARGET Halide::Halide AND EXISTS "${_HARNESS_CMAKE_DIR}/harness_estimates_probe.cpp")
    add_library(harness_estimates_probe MODULE "${_HARNESS_CMAKE_DIR}/harness_estimates_probe.cpp")
    target_link_libraries(harness_estimates_probe PRIVATE Halide::Halide)
    # -O0: it runs for microseconds per probe; Halide.h is what its compile costs.
    target_compile_options(harness_estimates_probe PRIVATE -O0)
    add_library(AotHarnessProbe::EstimatesOnly ALIAS harness_estimates_probe)
    set(${out} TRUE PARENT_SCOPE)
  endif ()
endfunction()

function(aot_harness_add_pipeline name)
  cmake_parse_arguments(PARSE_ARGV 1 ARG "" "FROM;GENERATOR;SPEC;AUTOSCHEDULER;SUITE"
                        "PROFILES;PARAMS;PROFILE_PARAMS;FEATURES;ALL_FEATURES;LINK_LIBRARIES;FUNC_PROFILE")
  if (ARG_UNPARSED_ARGUMENTS)
    message(FATAL_ERROR "aot_harness_add_pipeline(${name}): unknown arguments '${ARG_UNPARSED_ARGUMENTS}'; "
                        "see the keywords at the top of AotHarnessAddPipeline.cmake")
  endif ()
  if (NOT name MATCHES "^[a-z][a-z0-9_]*$" OR name MATCHES "__")
    message(FATAL_ERROR "aot_harness_add_pipeline(${name}): the name must match [a-z][a-z0-9_]* without '__' "
                        "(it names tests, goldens and C functions); rename it")
  endif ()
  if (NOT ARG_FROM)
    message(FATAL_ERROR "aot_harness_add_pipeline(${name}): FROM <generator target> is required "
                        "(the target of add_halide_generator())")
  endif ()
  if (AOT_HARNESS_PIPELINES AND NOT name IN_LIST AOT_HARNESS_PIPELINES)
    return ()  # a build of some pipelines only (aot-harness bisect-commit builds the one it bisects)
  endif ()
  _aot_harness_ensure_profiles()
  set(gen_target "${ARG_FROM}")
  if (NOT TARGET "${gen_target}" AND NOT TARGET "${PROJECT_NAME}::halide_generators::${gen_target}")
    message(FATAL_ERROR "aot_harness_add_pipeline(${name}): FROM '${gen_target}' is not a target; "
                        "create it first with add_halide_generator(${gen_target} SOURCES ...)")
  endif ()
  set(gen_name "${ARG_GENERATOR}")
  if (NOT gen_name)
    set(gen_name "${name}")
  endif ()
  set(suite "${ARG_SUITE}")
  if (NOT suite)
    set(suite harness_suite)
  endif ()
  if (NOT TARGET ${suite} AND NOT HARNESS_OBJECTS_ONLY)
    add_library(${suite} OBJECT)
    target_link_libraries(${suite} PUBLIC harness::harness)
  endif ()
  get_property(all_profiles GLOBAL PROPERTY HARNESS_PROFILE_NAMES)
  set(profiles "${ARG_PROFILES}")
  if (NOT profiles)
    set(profiles "${all_profiles}")
  endif ()
  if (NOT "cpu" IN_LIST profiles AND NOT HARNESS_OBJECTS_ONLY)
    message(FATAL_ERROR "aot_harness_add_pipeline(${name}): the cpu profile is required (it produces the goldens)")
  endif ()
  foreach (feature IN LISTS ARG_FEATURES ARG_ALL_FEATURES)
    if (NOT feature MATCHES "^[a-z0-9_]+$")
      message(FATAL_ERROR "aot_harness_add_pipeline(${name}): feature '${feature}' is not a Halide target feature name")
    endif ()
  endforeach ()
  # PROFILE_PARAMS: <profile> <k=v>... groups.
  set(current "")
  foreach (word IN LISTS ARG_PROFILE_PARAMS)
    if (word MATCHES "=")
      if (NOT current)
        message(FATAL_ERROR "aot_harness_add_pipeline(${name}): PROFILE_PARAMS '${word}' has no profile before it; "
                            "write PROFILE_PARAMS <profile> ${word}")
      endif ()
      list(APPEND _params_${current} "${word}")
    else ()
      string(REPLACE "-" "_" current "${word}")
      set(_known_${current} "${word}")
    endif ()
  endforeach ()

  if (NOT TARGET ${gen_target}.safe)
    _harness_safe_generator(safe_gen ${gen_target})
  else ()
    set(safe_gen ${gen_target}.safe)
    get_property(safe_gen_DEPENDS TARGET ${gen_target}.safe PROPERTY HARNESS_DEPENDS)
  endif ()
  _aot_harness_generator_sha(gen_hash ${gen_target})
  _aot_harness_guard_generator(${gen_target})

  if (NOT HARNESS_OBJECTS_ONLY)
    set(spec_src "")
    set(json_spec "")
    if (ARG_SPEC)
      cmake_path(ABSOLUTE_PATH ARG_SPEC OUTPUT_VARIABLE spec_src)
      if (NOT EXISTS "${spec_src}")
        message(FATAL_ERROR "aot_harness_add_pipeline(${name}): SPEC ${spec_src} does not exist; fix the path")
      endif ()
      if (spec_src MATCHES "\\.json$")
        set(json_spec "${spec_src}")
        set(spec_src "")
      endif ()
    endif ()
    if (spec_src)
      set_source_files_properties("${spec_src}" TARGET_DIRECTORY ${suite} PROPERTIES
                                  COMPILE_DEFINITIONS "HARNESS_GENERATOR_SHA256=\"${gen_hash}\"")
    else ()
      _aot_harness_derived_spec_source(spec_src ${name} "${json_spec}" "${gen_hash}")
    endif ()
    target_sources(${suite} PRIVATE "${spec_src}")
  endif ()

  set(autoscheduler "")
  if (ARG_AUTOSCHEDULER)
    set(autoscheduler AUTOSCHEDULER "${ARG_AUTOSCHEDULER}")
  endif ()
  foreach (profile IN LISTS profiles)
    if (NOT profile IN_LIST all_profiles)
      continue ()  # not built for this platform (or not selected)
    endif ()
    get_property(target GLOBAL PROPERTY HARNESS_PROFILE_${profile}_TARGET)
    get_property(runtime GLOBAL PROPERTY HARNESS_PROFILE_${profile}_RUNTIME)
    set(gpu_features "")
    foreach (feature IN LISTS ARG_FEATURES)
      # cl_* features only on OpenCL targets, vk_* only on Vulkan targets, the rest on every GPU target.
      if (NOT (feature MATCHES "^cl_" AND NOT runtime STREQUAL "opencl") AND NOT (feature MATCHES "^vk_" AND NOT runtime STREQUAL "vulkan"))
        list(APPEND gpu_features "${feature}")
      endif ()
    endforeach ()
    if (gpu_features AND NOT runtime STREQUAL "none")
      list(JOIN gpu_features "-" feature_str)
      string(APPEND target "-${feature_str}")
    endif ()
    if (ARG_ALL_FEATURES)
      list(JOIN ARG_ALL_FEATURES "-" feature_str)
      string(APPEND target "-${feature_str}")
    endif ()
    harness_profile_ident(ident "${profile}")
    set(lib "${name}__${ident}")
    set(device_code "")
    if (NOT runtime STREQUAL "none")
      set(device_code DEVICE_CODE dev_src)  # the kernels as the driver gets them (aot-harness repro)
    endif ()
    set(dev_src "")
    add_halide_library(${lib} FROM ${safe_gen}
                       GENERATOR ${gen_name}
                       FUNCTION_NAME ${lib}
                       TARGETS ${target}
                       USE_RUNTIME harness_halide_runtime
                       PARAMS ${ARG_PARAMS} ${_params_${ident}}
                       ${autoscheduler}
                       DEPENDS ${safe_gen_DEPENDS}
                       ${device_code}
                       REGISTRATION reg_src)
    string(REGEX REPLACE "\\.registration\\.cpp$" ".h" header_src "${reg_src}")  # add_halide_library's HEADER var is unset
    set(optional "")
    foreach (kw IN ITEMS DEVICE_CODE AUTOSCHEDULER)
      set(value "${dev_src}")
      if (kw STREQUAL "AUTOSCHEDULER")
        set(value "${ARG_AUTOSCHEDULER}")
      endif ()
      if (value)
        list(APPEND optional ${kw} "${value}")
      endif ()
    endforeach ()
    _aot_harness_describe_variant(${lib} PIPELINE ${name} PROFILE ${profile} GENERATOR_TARGET ${gen_target}
                                  GENERATOR ${gen_name} TARGET ${target} HEADER "${header_src}"
                                  REGISTRATION "${reg_src}" PARAMS ${ARG_PARAMS} ${_params_${ident}} ${optional})
    if (HARNESS_OBJECTS_ONLY)
      set_property(GLOBAL APPEND PROPERTY HARNESS_OBJECT_LIBS "${lib}")
      continue ()
    endif ()
    cmake_path(ABSOLUTE_PATH reg_src BASE_DIRECTORY "${CMAKE_CURRENT_BINARY_DIR}")
    target_sources(${suite} PRIVATE "${reg_src}")
    target_link_libraries(${suite} PUBLIC ${lib})
    _aot_harness_add_profiled_twin(${name} ${profile} ${lib} "${target}" ${suite} ${safe_gen} ${gen_name}  # opt-in
                                   FUNC_PROFILE ${ARG_FUNC_PROFILE} DEPENDS ${safe_gen_DEPENDS}
                                   PARAMS ${ARG_PARAMS} ${_params_${ident}} ${autoscheduler})
  endforeach ()
  set(probe FALSE)
  if (spec_src MATCHES "\\.derived_spec\\.cpp$" AND NOT HARNESS_OBJECTS_ONLY AND NOT ARG_AUTOSCHEDULER AND
      "cpu" IN_LIST profiles AND NOT AOT_HARNESS_NO_ESTIMATES_PROBE)
    _aot_harness_estimates_probe_target(probe)
  endif ()
  if (NOT probe)
    # A C++ spec states its cases; an autoscheduled pipeline's own variants carry the estimates.
  else ()
    # The estimates probe: many generators state their estimates (input and output sizes, typical
    # scalar values) only `if (using_autoscheduler())`. One extra build of the cpu variant with an
    # autoscheduler records them in its metadata; metadata_spec.h reads them from there when the plain
    # variants have none. Never run; a probe that fails to build is only a note. The autoscheduler is
    # EstimatesOnly (harness_estimates_probe.cpp), which needs no estimate: Mullapudi2016 failed the
    # probe of any generator that leaves one input or scalar without, losing the estimates it did state.
    get_property(target GLOBAL PROPERTY HARNESS_PROFILE_cpu_TARGET)
    set(lib "${name}__estimates")
    add_halide_library(${lib} FROM ${safe_gen}
                       GENERATOR ${gen_name}
                       FUNCTION_NAME ${lib}
                       TARGETS ${target}
                       USE_RUNTIME harness_halide_runtime
                       PARAMS ${ARG_PARAMS} ${_params_cpu}
                       AUTOSCHEDULER AotHarnessProbe::EstimatesOnly
                       DEPENDS ${safe_gen_DEPENDS}
                       REGISTRATION reg_src)
    cmake_path(ABSOLUTE_PATH reg_src BASE_DIRECTORY "${CMAKE_CURRENT_BINARY_DIR}")
    target_sources(${suite} PRIVATE "${reg_src}")
    target_link_libraries(${suite} PUBLIC ${lib})
  endif ()
  if (ARG_LINK_LIBRARIES AND NOT HARNESS_OBJECTS_ONLY)
    # After the variant libraries that call it: a static library is searched once, in link order.
    target_link_libraries(${suite} PUBLIC ${ARG_LINK_LIBRARIES})
  endif ()
  get_property(golden_default GLOBAL PROPERTY HARNESS_DEFAULT_GOLDEN_DIR)
  if (NOT golden_default)
    set_property(GLOBAL PROPERTY HARNESS_DEFAULT_GOLDEN_DIR "${CMAKE_CURRENT_SOURCE_DIR}/golden")
  endif ()
  set_property(GLOBAL APPEND PROPERTY HARNESS_PIPELINES "${name}")
endfunction()

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
  set(guard sh "${_HARNESS_CMAKE_DIR}/harness_link_guard.sh" "${CMAKE_CXX_COMPILER}" "${AOT_HARNESS_NM}" ${link_launcher})
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
