# cmake -DBENCH=<exe> -DARGS=<;-list> -DEXPECT_RC=<n> -DEXPECT_OUTPUT=<regex> -P expect_run.cmake
# Runs BENCH with ARGS; fails unless it exits with EXPECT_RC and its stdout (then stderr) matches EXPECT_OUTPUT.
cmake_minimum_required(VERSION 3.28)
execute_process(COMMAND "${BENCH}" ${ARGS} RESULT_VARIABLE rc OUTPUT_VARIABLE out ERROR_VARIABLE err)
message("${out}${err}")
if (NOT rc STREQUAL "${EXPECT_RC}")
  message(FATAL_ERROR "expected exit ${EXPECT_RC}, got '${rc}'")
endif ()
if (NOT "${out}${err}" MATCHES "${EXPECT_OUTPUT}")
  message(FATAL_ERROR "output does not match '${EXPECT_OUTPUT}'")
endif ()
