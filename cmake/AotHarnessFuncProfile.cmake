# AotHarnessFuncProfile.cmake: the opt-in profiled twin of a CPU variant, for Halide's own per-Func profile
# (`aot-harness bench --kernels` on a CPU profile). Included by AotHarnessAddPipeline.cmake.
#
#   AOT_HARNESS_FUNC_PROFILE (a cache value, ;-separated CPU profile names, e.g. `host`; default empty)
#       Each pipeline's variant of these profiles is built once more with Halide's `profile` target feature, as
#       <pipeline>__<profile ident>__profiled (same generator, params and autoscheduler). It is not a profile of
#       the matrix: the registry keeps it beside its variant (Registry::profiled), and `bench --kernels` calls
#       it after the timed loop to read Halide's profiler per Func. Off by default: it costs one more generator
#       run and compile per pipeline and profile, which a test build does not need.
#   aot_harness_add_pipeline(... FUNC_PROFILE <profile>...): the same for one pipeline.
#
# The twin uses the same shared runtime (harness_halide_runtime): Halide's profiler functions
# (halide_profiler_instance_start, ..._get_state, ..._reset) are part of every Halide 21 runtime, and Halide's
# add_halide_library() drops `profile` from the targets it adds to a runtime, so they are there exactly once.
include_guard(GLOBAL)
set(AOT_HARNESS_FUNC_PROFILE "" CACHE STRING
    "CPU profiles whose variants get a profiled twin for Halide's per-Func profile (bench --kernels), e.g. host")

# Checks the profiles named for twins: each without a GPU runtime and, for AOT_HARNESS_FUNC_PROFILE (`strict`), a
# profile this build makes; a pipeline's FUNC_PROFILE may name one this build does not make (HARNESS_PROFILES, the
# platform), as PROFILES may. `what` names where they were given.
function(_aot_harness_func_profile_check what strict)
  get_property(names GLOBAL PROPERTY HARNESS_PROFILE_NAMES)
  foreach (profile IN LISTS ARGN)
    if (NOT profile IN_LIST names AND NOT strict)
      continue ()
    elseif (NOT profile IN_LIST names)
      message(FATAL_ERROR "harness: ${what} names '${profile}', which this build does not make "
                          "(profiles: ${names}); give CPU profiles of that list, e.g. host")
    endif ()
    get_property(runtime GLOBAL PROPERTY HARNESS_PROFILE_${profile}_RUNTIME)
    if (NOT runtime STREQUAL "none")
      message(FATAL_ERROR "harness: ${what} names '${profile}', whose runtime is ${runtime}; Halide's profiler times "
                          "Funcs on the CPU only (GPU profiles have kernel times in `bench --kernels`): give "
                          "profiles without a GPU runtime, e.g. host")
    endif ()
  endforeach ()
endfunction()

# _aot_harness_add_profiled_twin(<pipeline> <profile> <suite> <generator name> <safe generator>)
#   <pipeline>__<profile ident>__profiled from the same generator, params and autoscheduler with the variant's
#   target + `-profile`, linked into <suite>, when <profile> is one of AOT_HARNESS_FUNC_PROFILE or of the
#   pipeline's FUNC_PROFILE (reads the caller's ARG_FUNC_PROFILE, ARG_PARAMS, ARG_AUTOSCHEDULER, ARG_FEATURES,
#   ARG_ALL_FEATURES and _params_<profile ident>, as _aot_harness_add_variant does). A generator that fails for
#   it becomes a stub (harness_run_generator.sh) whose message `bench --kernels` reports.
function(_aot_harness_add_profiled_twin pipeline profile suite gen_name safe_gen)
  get_property(checked GLOBAL PROPERTY _AOT_HARNESS_FUNC_PROFILE_CHECKED)
  if (NOT checked AND AOT_HARNESS_FUNC_PROFILE)
    set_property(GLOBAL PROPERTY _AOT_HARNESS_FUNC_PROFILE_CHECKED TRUE)
    _aot_harness_func_profile_check(AOT_HARNESS_FUNC_PROFILE TRUE ${AOT_HARNESS_FUNC_PROFILE})
    message(STATUS "harness: profiled twins (Halide's per-Func profile) of profiles: ${AOT_HARNESS_FUNC_PROFILE}")
  endif ()
  _aot_harness_func_profile_check("aot_harness_add_pipeline(${pipeline} FUNC_PROFILE)" FALSE ${ARG_FUNC_PROFILE})
  if (NOT profile IN_LIST AOT_HARNESS_FUNC_PROFILE AND NOT profile IN_LIST ARG_FUNC_PROFILE)
    return ()
  endif ()
  if (HARNESS_OBJECTS_ONLY)
    return ()
  endif ()
  _aot_harness_profile_target(target "${profile}")
  harness_profile_ident(ident "${profile}")
  set(autoscheduler "")
  if (ARG_AUTOSCHEDULER)
    set(autoscheduler AUTOSCHEDULER "${ARG_AUTOSCHEDULER}")
  endif ()
  set(lib "${pipeline}__${ident}__profiled")
  _aot_harness_halide_library(${lib} ${safe_gen} ${gen_name} ${target}-profile
                              PARAMS ${ARG_PARAMS} ${_params_${ident}} ${autoscheduler})
  _aot_harness_link_into_suite(${suite} ${lib} "${reg_src}")
endfunction()
