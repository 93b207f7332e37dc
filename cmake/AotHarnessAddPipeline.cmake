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
#   aot_harness_finalize([GOLDEN_DIR <dir>] [TIMEOUT <seconds>]): the `aot-harness` of the pipelines added
#       so far (AotHarnessFinalize.cmake).
include_guard(GLOBAL)
include("${CMAKE_CURRENT_LIST_DIR}/AotHarnessVariantInfo.cmake")
include("${CMAKE_CURRENT_LIST_DIR}/AotHarnessGenerators.cmake")
include("${CMAKE_CURRENT_LIST_DIR}/AotHarnessFinalize.cmake")
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
#include "harness/derived_spec_registrar.h"
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
  set(compile ${guard} compile "${CMAKE_CXX_COMPILER}" "${CMAKE_COMMAND}" ${compile_launcher})
  set(link ${guard} link "${CMAKE_CXX_COMPILER}" "${CMAKE_COMMAND}" ${link_launcher})
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

# The checks that need nothing loaded: no unknown keyword, a name that can name tests and C functions,
# a FROM (reads the caller's ARG_UNPARSED_ARGUMENTS and ARG_FROM).
function(_aot_harness_check_call name)
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
endfunction()

# The generator target that runs each variant's generator through harness_run_generator.sh (one per
# generator, shared by the pipelines made from it; its HARNESS_DEPENDS property: what it runs).
function(_aot_harness_safe_generator_of out name gen_target)
  if (NOT TARGET "${gen_target}" AND NOT TARGET "${PROJECT_NAME}::halide_generators::${gen_target}")
    message(FATAL_ERROR "aot_harness_add_pipeline(${name}): FROM '${gen_target}' is not a target; "
                        "create it first with add_halide_generator(${gen_target} SOURCES ...)")
  endif ()
  _aot_harness_generator_pch("${gen_target}")
  set(safe ${gen_target}.safe)
  if (NOT TARGET ${safe})
    _harness_safe_generator(safe ${gen_target})
  endif ()
  set(${out} "${safe}" PARENT_SCOPE)
endfunction()

# The object library the harness executable links (SUITE, default harness_suite), created on first use.
function(_aot_harness_suite out suite)
  if (NOT suite)
    set(suite harness_suite)
  endif ()
  if (NOT TARGET ${suite} AND NOT HARNESS_OBJECTS_ONLY)
    add_library(${suite} OBJECT)
    target_link_libraries(${suite} PUBLIC harness::harness)
  endif ()
  set(${out} "${suite}" PARENT_SCOPE)
endfunction()

# The profiles to build (PROFILES, default every loaded one), of which cpu must be one, and the feature
# names checked (reads the caller's ARG_PROFILES, ARG_FEATURES and ARG_ALL_FEATURES).
function(_aot_harness_pipeline_profiles out name)
  set(profiles "${ARG_PROFILES}")
  if (NOT profiles)
    get_property(profiles GLOBAL PROPERTY HARNESS_PROFILE_NAMES)
  endif ()
  if (NOT "cpu" IN_LIST profiles AND NOT HARNESS_OBJECTS_ONLY)
    message(FATAL_ERROR "aot_harness_add_pipeline(${name}): the cpu profile is required (it produces the goldens)")
  endif ()
  foreach (feature IN LISTS ARG_FEATURES ARG_ALL_FEATURES)
    if (NOT feature MATCHES "^[a-z0-9_]+$")
      message(FATAL_ERROR "aot_harness_add_pipeline(${name}): feature '${feature}' is not a Halide target feature name")
    endif ()
  endforeach ()
  set(${out} "${profiles}" PARENT_SCOPE)
endfunction()

# PROFILE_PARAMS (<profile> <k=v>... groups, the caller's ARG_PROFILE_PARAMS) as one variable a profile
# in the caller: _params_<profile ident>.
function(_aot_harness_profile_params name)
  set(current "")
  set(idents "")
  foreach (word IN LISTS ARG_PROFILE_PARAMS)
    if (word MATCHES "=")
      if (NOT current)
        message(FATAL_ERROR "aot_harness_add_pipeline(${name}): PROFILE_PARAMS '${word}' has no profile before it; "
                            "write PROFILE_PARAMS <profile> ${word}")
      endif ()
      list(APPEND _params_${current} "${word}")
    else ()
      string(REPLACE "-" "_" current "${word}")
      list(APPEND idents "${current}")
    endif ()
  endforeach ()
  foreach (ident IN LISTS idents)
    set(_params_${ident} "${_params_${ident}}" PARENT_SCOPE)
  endforeach ()
endfunction()

# The spec source compiled into the suite: the C++ SPEC (told its generator's sha), else a registration
# of the JSON SPEC or of the generator's metadata (_aot_harness_derived_spec_source).
function(_aot_harness_add_spec out name spec suite gen_hash)
  set(spec_src "")
  set(json_spec "")
  if (spec)
    cmake_path(ABSOLUTE_PATH spec OUTPUT_VARIABLE spec_src)
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
  set(${out} "${spec_src}" PARENT_SCOPE)
endfunction()

# A profile's Halide target with the pipeline's features: FEATURES on GPU profiles (cl_* only on OpenCL,
# vk_* only on Vulkan), ALL_FEATURES on every profile (reads the caller's ARG_FEATURES, ARG_ALL_FEATURES).
function(_aot_harness_profile_target out profile)
  get_property(target GLOBAL PROPERTY HARNESS_PROFILE_${profile}_TARGET)
  get_property(runtime GLOBAL PROPERTY HARNESS_PROFILE_${profile}_RUNTIME)
  set(gpu_features "")
  foreach (feature IN LISTS ARG_FEATURES)
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
  set(${out} "${target}" PARENT_SCOPE)
endfunction()

# add_halide_library(<lib>) from the safe generator for one target, on the harness's shared Halide runtime;
# the other arguments (PARAMS, AUTOSCHEDULER, DEVICE_CODE dev_src) go to it as they are. Sets reg_src (the
# registration source) and dev_src (the device code, with DEVICE_CODE) in the caller.
function(_aot_harness_halide_library lib safe_gen gen_name target)
  get_property(depends TARGET ${safe_gen} PROPERTY HARNESS_DEPENDS)
  set(dev_src "")
  add_halide_library(${lib} FROM ${safe_gen} GENERATOR ${gen_name} FUNCTION_NAME ${lib} TARGETS ${target}
                     USE_RUNTIME harness_halide_runtime DEPENDS ${depends} REGISTRATION reg_src ${ARGN})
  set(reg_src "${reg_src}" PARENT_SCOPE)
  set(dev_src "${dev_src}" PARENT_SCOPE)
endfunction()

# A Halide library into the suite: its registration compiled into it, the library linked to it.
function(_aot_harness_link_into_suite suite lib reg_src)
  cmake_path(ABSOLUTE_PATH reg_src BASE_DIRECTORY "${CMAKE_CURRENT_BINARY_DIR}")
  target_sources(${suite} PRIVATE "${reg_src}")
  target_link_libraries(${suite} PUBLIC ${lib})
endfunction()

# One variant: the static library <name>__<profile ident> from the generator with the profile's target,
# described for `aot-harness list` (AotHarnessVariantInfo.cmake) and linked into the suite (reads the
# caller's ARG_PARAMS, ARG_AUTOSCHEDULER, ARG_FEATURES, ARG_ALL_FEATURES and _params_<profile ident>).
function(_aot_harness_add_variant name profile suite gen_target gen_name safe_gen)
  _aot_harness_profile_target(target "${profile}")
  get_property(runtime GLOBAL PROPERTY HARNESS_PROFILE_${profile}_RUNTIME)
  harness_profile_ident(ident "${profile}")
  set(lib "${name}__${ident}")
  set(device_code "")
  if (NOT runtime STREQUAL "none")
    set(device_code DEVICE_CODE dev_src)  # the kernels as the driver gets them (aot-harness repro)
  endif ()
  set(autoscheduler "")
  if (ARG_AUTOSCHEDULER)
    set(autoscheduler AUTOSCHEDULER "${ARG_AUTOSCHEDULER}")
  endif ()
  _aot_harness_halide_library(${lib} ${safe_gen} ${gen_name} ${target} PARAMS ${ARG_PARAMS} ${_params_${ident}}
                              ${autoscheduler} ${device_code})
  string(REGEX REPLACE "\\.registration\\.cpp$" ".h" header_src "${reg_src}")  # add_halide_library's HEADER var is unset
  set(optional "")
  if (dev_src)
    list(APPEND optional DEVICE_CODE "${dev_src}")
  endif ()
  if (ARG_AUTOSCHEDULER)
    list(APPEND optional AUTOSCHEDULER "${ARG_AUTOSCHEDULER}")
  endif ()
  _aot_harness_describe_variant(${lib} PIPELINE ${name} PROFILE ${profile} GENERATOR_TARGET ${gen_target}
                                GENERATOR ${gen_name} TARGET ${target} HEADER "${header_src}"
                                REGISTRATION "${reg_src}" PARAMS ${ARG_PARAMS} ${_params_${ident}} ${optional})
  if (HARNESS_OBJECTS_ONLY)
    set_property(GLOBAL APPEND PROPERTY HARNESS_OBJECT_LIBS "${lib}")
  else ()
    _aot_harness_link_into_suite(${suite} ${lib} "${reg_src}")
  endif ()
endfunction()

# The estimates probe: many generators state their estimates (input and output sizes, typical scalar
# values) only `if (using_autoscheduler())`. One extra build of the cpu variant with an autoscheduler
# records them in its metadata; metadata_spec.h reads them from there when the plain variants have none.
# Never run; a probe that fails to build is only a note. The autoscheduler is EstimatesOnly
# (harness_estimates_probe.cpp), which needs no estimate: Mullapudi2016 failed the probe of any generator
# that leaves one input or scalar without, losing the estimates it did state. Only for a pipeline without
# a C++ spec (which states its cases) and not autoscheduled (its own variants carry the estimates); reads
# the caller's ARG_PARAMS and _params_cpu.
function(_aot_harness_add_estimates_probe name suite gen_name safe_gen spec_src profiles)
  if (NOT spec_src MATCHES "\\.derived_spec\\.cpp$" OR HARNESS_OBJECTS_ONLY OR ARG_AUTOSCHEDULER OR
      NOT "cpu" IN_LIST profiles OR AOT_HARNESS_NO_ESTIMATES_PROBE)
    return ()
  endif ()
  _aot_harness_estimates_probe_target(probe)
  if (NOT probe)
    return ()
  endif ()
  get_property(target GLOBAL PROPERTY HARNESS_PROFILE_cpu_TARGET)
  # Without assertions and bounds queries: the probe is never run, and its metadata does not depend on them,
  # while with every stage at the root they are most of LLVM's work (resnet50 of Halide's apps: 380 s -> 12 s).
  foreach (feature IN ITEMS no_asserts no_bounds_query)
    if (NOT target MATCHES "(^|-)${feature}(-|$)")
      string(APPEND target "-${feature}")
    endif ()
  endforeach ()
  set(lib "${name}__estimates")
  _aot_harness_halide_library(${lib} ${safe_gen} ${gen_name} ${target} PARAMS ${ARG_PARAMS} ${_params_cpu}
                              AUTOSCHEDULER AotHarnessProbe::EstimatesOnly)
  _aot_harness_link_into_suite(${suite} ${lib} "${reg_src}")
endfunction()

# The pipeline in the project's list (aot_harness_finalize), and the default golden dir: golden/ beside
# the first pipeline's CMakeLists.txt.
function(_aot_harness_record_pipeline name)
  get_property(golden_default GLOBAL PROPERTY HARNESS_DEFAULT_GOLDEN_DIR)
  if (NOT golden_default)
    set_property(GLOBAL PROPERTY HARNESS_DEFAULT_GOLDEN_DIR "${CMAKE_CURRENT_SOURCE_DIR}/golden")
  endif ()
  set_property(GLOBAL APPEND PROPERTY HARNESS_PIPELINES "${name}")
endfunction()

function(aot_harness_add_pipeline name)
  cmake_parse_arguments(PARSE_ARGV 1 ARG "" "FROM;GENERATOR;SPEC;AUTOSCHEDULER;SUITE"
                        "PROFILES;PARAMS;PROFILE_PARAMS;FEATURES;ALL_FEATURES;LINK_LIBRARIES;FUNC_PROFILE")
  _aot_harness_check_call("${name}")
  if (AOT_HARNESS_PIPELINES AND NOT name IN_LIST AOT_HARNESS_PIPELINES)
    return ()  # a build of some pipelines only (aot-harness bisect-commit builds the one it bisects)
  endif ()
  _aot_harness_ensure_profiles()
  set(gen_target "${ARG_FROM}")
  _aot_harness_safe_generator_of(safe_gen ${name} ${gen_target})
  set(gen_name "${ARG_GENERATOR}")
  if (NOT gen_name)
    set(gen_name "${name}")
  endif ()
  _aot_harness_suite(suite "${ARG_SUITE}")
  _aot_harness_pipeline_profiles(profiles ${name})
  _aot_harness_profile_params(${name})
  _aot_harness_generator_sha(gen_hash ${gen_target})
  _aot_harness_guard_generator(${gen_target})
  set(spec_src "")
  if (NOT HARNESS_OBJECTS_ONLY)
    _aot_harness_add_spec(spec_src ${name} "${ARG_SPEC}" ${suite} "${gen_hash}")
  endif ()
  get_property(all_profiles GLOBAL PROPERTY HARNESS_PROFILE_NAMES)
  foreach (profile IN LISTS profiles)
    if (profile IN_LIST all_profiles)  # else not built for this platform (or not selected)
      _aot_harness_add_variant(${name} ${profile} ${suite} ${gen_target} ${gen_name} ${safe_gen})
      _aot_harness_add_profiled_twin(${name} ${profile} ${suite} ${gen_name} ${safe_gen})  # opt-in
    endif ()
  endforeach ()
  _aot_harness_add_estimates_probe(${name} ${suite} ${gen_name} ${safe_gen} "${spec_src}" "${profiles}")
  if (ARG_LINK_LIBRARIES AND NOT HARNESS_OBJECTS_ONLY)
    # After the variant libraries that call it: a static library is searched once, in link order.
    target_link_libraries(${suite} PUBLIC ${ARG_LINK_LIBRARIES})
  endif ()
  _aot_harness_record_pipeline(${name})
endfunction()
