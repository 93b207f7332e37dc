# The suite name in `ctest --output-junit` files. ctest takes it from the build tree's
# DartConfiguration.tcl ("BuildName"), which only include(CTest) writes, and otherwise names the
# suite "(empty)". This writes a DartConfiguration.tcl with the build name only: no dashboard
# settings, so ctest behaves as before (no default timeout, no submission).
function(harness_junit_suite_name)
  set(_name "aot-harness ${CMAKE_SYSTEM_PROCESSOR}-${CMAKE_SYSTEM_NAME} ${CMAKE_BUILD_TYPE}")
  if (HARNESS_SANITIZE)
    string(APPEND _name " sanitize=${HARNESS_SANITIZE}")
  endif ()
  if (HARNESS_FUZZ)
    string(APPEND _name " fuzz")
  endif ()
  file(CONFIGURE OUTPUT "${PROJECT_BINARY_DIR}/DartConfiguration.tcl"
       CONTENT "# Written by cmake/HarnessJUnitSuite.cmake: the JUnit suite name of ctest --output-junit.\nBuildName: ${_name}\n")
endfunction()
