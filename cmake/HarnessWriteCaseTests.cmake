# Script mode (cmake -P), run after aot-harness is built: writes OUT with one add_test() per
# pipeline x profile x case reported by `aot-harness list --json`.
#   -D HARNESS_EXE=... -D OUT=... -D TIMEOUT=... [-D EMULATOR=...] [-D LABELS=<the build's profiles...>]
# For a relocatable tree (scripts/device-ctest stages one for a device), also:
#   -D LIST_JSON=<file>     read the `list --json` output from this file instead of running HARNESS_EXE
#   -D GOLDEN_DIR=<dir>     pass --golden-dir <dir> to every run
#   -D RESULTS_DIR=<dir>    pass --json <dir>/<test name with / as __>.json to every run
# HARNESS_EXE and the two directories may then be relative: CTest runs each test in the directory of
# the CTestTestfile.cmake that includes OUT.
# Never an empty suite: a listing that fails or is not the JSON expected is a FATAL_ERROR (OUT removed,
# so that ctest errors out instead of finding no tests), and a pipeline without a single test gets a
# failing test <pipeline>/no-tests that every label selects.
# Never green when nothing ran: every test that runs aot-harness requires a fixture whose setup test,
# aot-harness/ctest-start, empties a state directory that the runs mark (AOT_HARNESS_CTEST_GUARD: a file per
# run, <pid>.ran, or <pid>.skipped holding the skip's reason), and whose cleanup test,
# aot-harness/all-skipped-check, fails when every harness test since that start was SKIP (exit 77, which
# ctest counts as neither pass nor fail). CTest adds both to any selection (-R, -L) of a harness test, runs
# the setup before and the cleanup after all of them (also under -j), and --rerun-failed re-runs the failed
# check against the same state. A mix of passes and skips passes; so does a selection of no harness test.
# Script mode sets no policies: empty list elements (an unset LABELS) are kept, then removed below, without
# the CMP0007 warning in every device-ctest run.
cmake_policy(SET CMP0007 NEW)
set(EMULATOR_TEXT "${EMULATOR}")
separate_arguments(EMULATOR)
set(test_env "HARNESS_EXEC_WRAPPER=${EMULATOR_TEXT}")
# The guard's state: beside OUT in a build tree; relative (to the directory ctest runs the tests in) in a
# relocatable one.
if (LIST_JSON)
  set(guard "ctest-guard")
else ()
  set(guard "${OUT}.guard")
endif ()
set(guard_fixture "aot-harness-ran:${guard}")
list(APPEND test_env "AOT_HARNESS_CTEST_GUARD=${guard}")
file(REMOVE "${OUT}")
if (LIST_JSON)
  set(listing "${LIST_JSON}")
  file(READ "${LIST_JSON}" json)
else ()
  set(listing "'${HARNESS_EXE} list --json'")
  # The shapes that specs derived from metadata settle in a forked child (their GPU variants' bounds
  # queries start the device runtime; spec/shape_query.h) are written by this list into OUT.shapes/,
  # made afresh from this executable every time, and read by the tests' runs (AOT_HARNESS_SHAPE_CACHE)
  # instead of each run forking and starting the GPU runtime again for every case.
  set(shapes "${OUT}.shapes")
  file(REMOVE_RECURSE "${shapes}")
  file(MAKE_DIRECTORY "${shapes}")
  execute_process(COMMAND "${CMAKE_COMMAND}" -E env "AOT_HARNESS_SHAPE_CACHE=${shapes}" ${EMULATOR} "${HARNESS_EXE}" list --json
                  OUTPUT_VARIABLE json RESULT_VARIABLE rc ERROR_VARIABLE err)
  if (NOT rc EQUAL 0)
    string(STRIP "${err}" err)
    string(REGEX REPLACE ".*\n" "" err "${err}")  # its last line says why
    message(FATAL_ERROR "harness: ${listing} failed (exit ${rc}: ${err}), so no test of its pipelines exists; "
                        "fix what it says and run ctest again")
  endif ()
  string(APPEND test_env ";AOT_HARNESS_SHAPE_CACHE=${shapes}")
endif ()
string(JSON npipes ERROR_VARIABLE json_err LENGTH "${json}" pipelines)
if (json_err OR NOT npipes GREATER 0)
  string(STRIP "${json}" head)
  string(REGEX REPLACE "\n.*" "" head "${head}")
  string(SUBSTRING "${head}" 0 120 head)
  if (json_err)
    message(FATAL_ERROR "harness: ${listing}: its stdout is not the listing's JSON (it begins '${head}'), so "
                        "no test of its pipelines exists; something printed there beside the JSON: rebuild "
                        "aot-harness with this package (it keeps stdout for the JSON) and run ctest again")
  endif ()
  message(FATAL_ERROR "harness: ${listing} lists no pipeline, so there is nothing to test; add pipelines "
                      "with aot_harness_add_pipeline() before aot_harness_finalize()")
endif ()
# The labels a no-tests test carries: every label a test of a pipeline can have, so that any -L selects it.
set(all_labels "precommit;nightly;modes;opencl;vulkan;${LABELS}")
string(JSON nall ERROR_VARIABLE json_err LENGTH "${json}" profiles)
if (NOT json_err AND nall GREATER 0)
  math(EXPR alast "${nall} - 1")
  foreach (j RANGE ${alast})
    string(JSON prof GET "${json}" profiles ${j} name)
    list(APPEND all_labels "${prof}")
  endforeach ()
endif ()
list(REMOVE_ITEM all_labels "")
list(REMOVE_DUPLICATES all_labels)
set(extra_args "")
if (GOLDEN_DIR)
  set(extra_args " --golden-dir [=[${GOLDEN_DIR}]=]")
endif ()
set(lines "# Generated from `aot-harness list --json`: one test per pipeline x profile x case.\n")
string(APPEND lines
  "add_test([=[aot-harness/ctest-start]=] sh -c [=[rm -rf \"$0\" && mkdir -p \"$0\"]=] [=[${guard}]=])\n"
  "set_tests_properties([=[aot-harness/ctest-start]=] PROPERTIES FIXTURES_SETUP [=[${guard_fixture}]=])\n")
# Known validation errors of the vklayer/* tests (harness/test/vulkan_repro/vklayer_known.txt).
set(_vklayer_known "")
if (EXISTS "${CMAKE_CURRENT_LIST_DIR}/../harness/test/vulkan_repro/vklayer_known.txt")
  file(STRINGS "${CMAKE_CURRENT_LIST_DIR}/../harness/test/vulkan_repro/vklayer_known.txt" _vklayer_known REGEX "^[a-z0-9_]+/[a-z0-9-]+ ")
endif ()
math(EXPR plast "${npipes} - 1")
foreach (i RANGE ${plast})
  string(JSON pname GET "${json}" pipelines ${i} name)
  # A pipeline without profiles or cases has null there; it gets one failing test instead of none.
  string(JSON nprof ERROR_VARIABLE json_err LENGTH "${json}" pipelines ${i} profiles)
  if (json_err)
    set(nprof 0)
  endif ()
  string(JSON ncase ERROR_VARIABLE json_err LENGTH "${json}" pipelines ${i} cases)
  if (json_err)
    set(ncase 0)
  endif ()
  if (nprof EQUAL 0 OR ncase EQUAL 0)
    set(name "${pname}/no-tests")
    string(APPEND lines
      "add_test([=[${name}]=] sh -c [=[echo \"harness: pipeline ${pname} has ${nprof} profile(s) and ${ncase} case(s), so no test; give it a case (aot-harness describe ${pname} says why it has none)\" >&2; exit 1]=])\n"
      "set_tests_properties([=[${name}]=] PROPERTIES LABELS [=[${all_labels}]=])\n")
    continue ()
  endif ()
  math(EXPR rlast "${nprof} - 1")
  math(EXPR clast "${ncase} - 1")
  foreach (j RANGE ${rlast})
    string(JSON prof GET "${json}" pipelines ${i} profiles ${j} name)
    string(JSON runtime GET "${json}" pipelines ${i} profiles ${j} runtime)
    # A profile that emulates a device personality (profiles.json `device`): its tests carry device:<name>.
    string(JSON personality ERROR_VARIABLE _no_personality GET "${json}" pipelines ${i} profiles ${j} personality)
    if (_no_personality)
      set(personality "")
    endif ()
    foreach (k RANGE ${clast})
      string(JSON cname GET "${json}" pipelines ${i} cases ${k} name)
      string(JSON nightly GET "${json}" pipelines ${i} cases ${k} nightly)
      # Vulkan on lavapipe is slow on a small CI machine: only each vulkan variant's first case is
      # precommit (vulkan-mali's none); the rest, the other buffer modes and the validation-layer runs nightly.
      if (runtime STREQUAL "vulkan" AND (k GREATER 0 OR NOT prof STREQUAL "vulkan"))
        set(nightly ON)
      endif ()
      if (nightly)
        set(labels "nightly;${prof}")
      else ()
        set(labels "precommit;${prof}")
      endif ()
      if (personality)
        string(APPEND labels ";device:${personality}")
      endif ()
      if (runtime STREQUAL "opencl" AND NOT prof STREQUAL "opencl")
        string(APPEND labels ";opencl")
      elseif (runtime STREQUAL "vulkan" AND NOT prof STREQUAL "vulkan")
        string(APPEND labels ";vulkan")
      endif ()
      # host mode for every profile; the other buffer modes for GPU profiles' precommit cases.
      set(modes host)
      if (NOT nightly AND runtime STREQUAL "opencl")
        list(APPEND modes device wrapped-host-visible wrapped-device-only)
      elseif (NOT nightly AND runtime STREQUAL "cuda")
        list(APPEND modes device)
      elseif (runtime STREQUAL "vulkan" AND k EQUAL 0)
        list(APPEND modes device wrapped-host-visible wrapped-device-only)
      endif ()
      # Every Vulkan variant's first case under the Khronos validation layer (nightly): a child that
      # prints a validation message fails the run (--fail-on-output).
      if (runtime STREQUAL "vulkan" AND k EQUAL 0)
        set(name "vklayer/${pname}/${prof}/${cname}")
        string(APPEND lines
          "add_test([=[${name}]=] ${EMULATOR} [=[${HARNESS_EXE}]=] run --pipeline ${pname} --profile ${prof} --case ${cname} --timeout 600 --fail-on-output [=[Validation Error]=]${extra_args})\n"
          "set_tests_properties([=[${name}]=] PROPERTIES LABELS [=[vklayer;nightly;${prof}]=] SKIP_RETURN_CODE 77 TIMEOUT 600 RESOURCE_LOCK ${prof} ENVIRONMENT [=[VK_INSTANCE_LAYERS=VK_LAYER_KHRONOS_validation;AOT_HARNESS_CTEST_GUARD=${guard}]=] FIXTURES_REQUIRED [=[${guard_fixture}]=])\n")
        foreach (known IN LISTS _vklayer_known)
          string(FIND "${known}" " " sp)
          string(SUBSTRING "${known}" 0 ${sp} known_variant)
          if (known_variant STREQUAL "${pname}/${prof}")
            math(EXPR sp "${sp} + 1")
            string(SUBSTRING "${known}" ${sp} -1 known_regex)
            string(APPEND lines "set_tests_properties([=[${name}]=] PROPERTIES PASS_REGULAR_EXPRESSION [=[${known_regex}]=])\n")
          endif ()
        endforeach ()
      endif ()
      # Every OpenCL variant's first precommit case under oclgrind (nightly: it is slow).
      if (runtime STREQUAL "opencl" AND k EQUAL 0 AND OCLGRIND_SCRIPT)
        set(name "oclgrind/${pname}/${prof}/${cname}")
        string(APPEND lines
          "add_test([=[${name}]=] sh [=[${OCLGRIND_SCRIPT}]=] [=[${HARNESS_EXE}]=] ${pname} ${prof} ${cname})\n"
          "set_tests_properties([=[${name}]=] PROPERTIES LABELS [=[oclgrind;nightly;${prof}]=] SKIP_RETURN_CODE 77 TIMEOUT 600 RESOURCE_LOCK ${prof} ENVIRONMENT [=[AOT_HARNESS_CTEST_GUARD=${guard}]=] FIXTURES_REQUIRED [=[${guard_fixture}]=])\n")
      endif ()
      foreach (mode IN LISTS modes)
        set(name "${pname}/${prof}/${cname}")
        set(mode_labels "${labels}")
        if (NOT mode STREQUAL "host")
          string(APPEND name "/${mode}")
          string(APPEND mode_labels ";modes")
          if (runtime STREQUAL "vulkan")
            string(REPLACE "precommit;" "nightly;" mode_labels "${mode_labels}")
          endif ()
        endif ()
        set(args "${extra_args}")
        if (RESULTS_DIR)
          string(REPLACE "/" "__" file_name "${name}")
          string(APPEND args " --json [=[${RESULTS_DIR}/${file_name}.json]=]")
        endif ()
        string(APPEND lines
          "add_test([=[${name}]=] ${EMULATOR} [=[${HARNESS_EXE}]=] run --pipeline ${pname} --profile ${prof} --case ${cname} --mode ${mode} --timeout ${TIMEOUT}${args})\n"
          "set_tests_properties([=[${name}]=] PROPERTIES LABELS [=[${mode_labels}]=] SKIP_RETURN_CODE 77 TIMEOUT ${TIMEOUT} RESOURCE_LOCK ${prof} ENVIRONMENT [=[${test_env}]=] FIXTURES_REQUIRED [=[${guard_fixture}]=])\n")
      endforeach ()
    endforeach ()
  endforeach ()
endforeach ()
# The check: one line naming the cause (a skip's reason) and the fix when nothing but skips ran.
set(check [=[ran=0 skipped=0 why=""
for f in "$0"/*.ran; do [ -e "$f" ] && ran=$((ran + 1)); done
for f in "$0"/*.skipped; do
  [ -e "$f" ] || continue
  skipped=$((skipped + 1))
  [ -n "$why" ] || why=$(head -n 1 "$f")
done
if [ "$ran" = 0 ] && [ "$skipped" -gt 0 ]; then
  echo "harness: all $skipped harness test(s) of this ctest were SKIP, so nothing was tested (e.g. $why); give them what the reason names, or select tests that run here (ctest -L cpu)" >&2
  exit 1
fi
echo "harness: $ran harness test(s) ran, $skipped skipped"]=])
string(APPEND lines
  "add_test([=[aot-harness/all-skipped-check]=] sh -c [==[${check}]==] [=[${guard}]=])\n"
  "set_tests_properties([=[aot-harness/all-skipped-check]=] PROPERTIES FIXTURES_CLEANUP [=[${guard_fixture}]=])\n")
file(WRITE "${OUT}.tmp" "${lines}")
file(RENAME "${OUT}.tmp" "${OUT}")
