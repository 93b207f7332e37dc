// What the build made for one pipeline x profile (cmake/AotHarnessVariantInfo.cmake writes it as
// <build>/aot-harness-variants/<function>.json): the files `aot-harness repro` packs and the generator
// invocation `aot-harness bisect` repeats.
#pragma once
#include <string>
#include <vector>

namespace harness {

struct VariantInfo {
    std::string pipeline, profile, function, target;
    std::string library, header, registration, device_code, runtime_library;
    std::string generator, generator_name, autoscheduler;
    // A Python generator (generator is ""): its source, the interpreter and the PYTHONPATH entry of
    // Halide's module that its build used.
    std::string python_source, python, python_path;
    std::vector<std::string> params;  // GeneratorParams as k=v, as the build passed them
    std::string halide_include, halide_version, cxx;
};

// The build directory that made this executable: $AOT_HARNESS_BUILD_DIR, else the parent of the
// directory holding it (bin/aot-harness lives in <build>/bin).
std::string default_build_dir();

// Loads <build_dir>/aot-harness-variants/<function>.json. Throws Error naming the file and the fix
// (run from the build tree that built the variant, or pass --build-dir) when it is missing or bad.
VariantInfo load_variant_info(const std::string &build_dir, const std::string &function);

}  // namespace harness
