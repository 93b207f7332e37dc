# AotHarnessVariantInfo.cmake: what the build made for each pipeline x profile, for the commands that
# rebuild or repackage a variant outside the build (aot-harness repro, aot-harness bisect).
#
#   _aot_harness_describe_variant(<lib> PIPELINE <p> PROFILE <profile> GENERATOR_TARGET <t> GENERATOR <name>
#                                 TARGET <halide target> HEADER <h> REGISTRATION <cpp> [DEVICE_CODE <file>]
#                                 [PARAMS <k=v>...] [AUTOSCHEDULER <name>])
#       Writes <build>/aot-harness-variants/<lib>.json at generate time: the static library, header,
#       registration file and device code of the variant, the Halide runtime library, the generator
#       executable with the registered name, target and GeneratorParams that made it, Halide's include
#       directory and version, and the C++ compiler. aot-harness finds the directory beside its bin/.
include_guard(GLOBAL)

function(_aot_harness_json_list out)
  set(items "")
  foreach (v IN LISTS ARGN)
    string(REPLACE "\\\\" "\\\\\\\\" v "${v}")
    string(REPLACE "\"" "\\\\\"" v "${v}")
    list(APPEND items "\"${v}\"")
  endforeach ()
  list(JOIN items ", " joined)
  set(${out} "[${joined}]" PARENT_SCOPE)
endfunction()

function(_aot_harness_describe_variant lib)
  cmake_parse_arguments(PARSE_ARGV 1 ARG ""
                        "PIPELINE;PROFILE;GENERATOR_TARGET;GENERATOR;TARGET;HEADER;REGISTRATION;DEVICE_CODE;AUTOSCHEDULER"
                        "PARAMS")
  set(gen "${ARG_GENERATOR_TARGET}")
  if (NOT TARGET "${gen}")
    set(gen "${PROJECT_NAME}::halide_generators::${gen}")
  endif ()
  foreach (f IN ITEMS HEADER REGISTRATION DEVICE_CODE)
    if (ARG_${f})
      cmake_path(ABSOLUTE_PATH ARG_${f} BASE_DIRECTORY "${CMAKE_CURRENT_BINARY_DIR}")
    endif ()
  endforeach ()
  # A C++ generator is an executable; a Python generator (a custom target) is its source, run by bisect
  # with the interpreter and Halide's module its build used.
  set(gen_file "")
  set(py_src "")
  set(python "")
  set(python_path "")
  if (TARGET "${gen}")
    get_target_property(gen_type "${gen}" TYPE)
    get_property(py_src TARGET "${gen}" PROPERTY Halide_PYTHON_GENERATOR_SOURCE)
    if (gen_type STREQUAL "EXECUTABLE")
      set(gen_file "$<TARGET_FILE:${gen}>")
    elseif (py_src AND TARGET Halide::Python AND TARGET Python::Interpreter)
      set(python "$<TARGET_FILE:Python::Interpreter>")
      set(python_path "$<TARGET_FILE_DIR:Halide::Python>/..")
    endif ()
  endif ()
  _aot_harness_json_list(params ${ARG_PARAMS})
  set(halide_include "$<TARGET_PROPERTY:Halide::Runtime,INTERFACE_INCLUDE_DIRECTORIES>")
  set(halide_version "${Halide_VERSION}")
  file(GENERATE OUTPUT "${CMAKE_BINARY_DIR}/aot-harness-variants/${lib}.json" CONTENT "{
  \"format\": 1,
  \"pipeline\": \"${ARG_PIPELINE}\",
  \"profile\": \"${ARG_PROFILE}\",
  \"function\": \"${lib}\",
  \"target\": \"${ARG_TARGET}\",
  \"library\": \"$<TARGET_FILE:${lib}>\",
  \"header\": \"${ARG_HEADER}\",
  \"registration\": \"${ARG_REGISTRATION}\",
  \"device_code\": \"${ARG_DEVICE_CODE}\",
  \"runtime_library\": \"$<TARGET_FILE:harness_halide_runtime>\",
  \"generator\": \"${gen_file}\",
  \"generator_name\": \"${ARG_GENERATOR}\",
  \"params\": ${params},
  \"autoscheduler\": \"${ARG_AUTOSCHEDULER}\",
  \"python_source\": \"${py_src}\",
  \"python\": \"${python}\",
  \"python_path\": \"${python_path}\",
  \"halide_include\": \"$<JOIN:${halide_include},;>\",
  \"halide_version\": \"${halide_version}\",
  \"cxx\": \"${CMAKE_CXX_COMPILER}\"
}
")
endfunction()
