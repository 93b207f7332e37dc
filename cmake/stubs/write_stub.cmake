# cmake -DTEMPLATE=<file.in> -DOUTPUT=<file> [-DMODE=APPEND] [-DMESSAGE_FILE=<text file>] [-D<NAME>=<value>...]
#       -P write_stub.cmake
# The one way the build's launchers (harness_run_generator.sh, harness_generator_guard.sh,
# harness_link_guard.sh) write the C++ of a stub when a generator or a link fails: one of the templates
# beside this file with each @NAME@ replaced by the value given and @MESSAGE@ by the text of MESSAGE_FILE
# as one C++ string literal (any bytes: quotes, backslashes and new lines escaped). MODE=APPEND adds to
# OUTPUT (the link guard's stubs, one template a variant, share one file) instead of replacing it.
cmake_minimum_required(VERSION 3.20)
foreach (v IN ITEMS TEMPLATE OUTPUT)
  if (NOT DEFINED ${v})
    message(FATAL_ERROR "write_stub.cmake: -D${v}=... is required")
  endif ()
endforeach ()
set(MESSAGE "\"\"")
if (DEFINED MESSAGE_FILE)
  file(READ "${MESSAGE_FILE}" text)
  string(REPLACE "\\" "\\\\" text "${text}")
  string(REPLACE "\"" "\\\"" text "${text}")
  string(REPLACE "?" "\\?" text "${text}")  # no trigraph under -std=c++14 and older
  string(REPLACE "\r" "\\r" text "${text}")
  string(REPLACE "\n" "\\n" text "${text}")
  set(MESSAGE "\"${text}\"")
endif ()
file(READ "${TEMPLATE}" template)
string(CONFIGURE "${template}" content @ONLY)
if (MODE STREQUAL "APPEND")
  file(APPEND "${OUTPUT}" "${content}")
else ()
  file(WRITE "${OUTPUT}" "${content}")
endif ()
