// aot-harness repro <pipeline>/<profile>/<case>: a .tar.gz a driver vendor can build and run with no
// harness and no Halide compiler. It holds the variant's static library, header and registration
// file, the Halide runtime library and HalideRuntime.h, a small main (harness/repro/repro_main.cpp)
// that loads the inputs and compares with the golden under the pipeline's tolerance, the inputs,
// goldens and the output the harness got as .npy, the device code as the driver gets it (OpenCL C,
// PTX, SPIR-V), the environment (Halide version, target, GeneratorParams, driver and device), a
// run.sh whose exit code is the verdict (0 matches, 1 differs, 2 could not build or run) and a README.
#pragma once
#include <string>
#include <vector>

#include "harness/spec.h"
#include "base/variant_info.h"

namespace harness {

struct ReproRequest {
    std::string pipeline, profile, case_name;
    std::string out;         // the .tar.gz to write ("" = repro-<pipeline>-<profile>-<case>.tar.gz here)
    std::string golden_dir;  // where the goldens are
    std::string build_dir;   // the build tree that made the variant (variant_info.h)
    bool prebuilt = true;    // also put a binary built here into bin/ (for a machine without a compiler)
};

struct ReproBundle {
    std::string path;         // the .tar.gz written
    std::string harness_run;  // what the harness saw running the case once here, one line
};

// Makes the bundle. Throws Error naming the problem and the fix (unknown pipeline/profile/case, a
// variant that failed to compile, a build tree without its description, an unwritable output).
ReproBundle make_repro_bundle(const ReproRequest &req);

// Writes the case as the bundle's main reads it: dir/inputs/<name>.npy (the harness's deterministic
// inputs), dir/golden/<output>.npy (verified against the manifest; a nightly-size golden is reproduced
// by the cpu variant) and dir/case.txt (inputs, scalars, goldens with their tolerances). Returns the
// arrays through `inputs` and `goldens`. Throws Error for a missing or corrupt golden.
void write_repro_case(const std::string &dir, const PipelineSpec &spec, const CaseSpec &c,
                      const std::string &golden_dir, std::vector<Array> *inputs, std::vector<Array> *goldens);

// `s` quoted for sh (single quotes).
std::string shell_quote(const std::string &s);

// "<pipeline>/<profile>/<case>" split into its three names; throws Error on another form.
std::vector<std::string> split_test_id(const std::string &id);

// The device code of a GPU variant as the driver gets it, from the generator's device_code output
// (Halide strips trailing NULs and adds a newline): {file name, bytes} pairs. OpenCL -> kernels.cl,
// CUDA -> kernels.ptx, Vulkan -> <kernel>.spv per kernel (the SPIR-V module vkCreateShaderModule gets)
// and <kernel>.halide_header.bin (the descriptor table Halide's runtime reads first). Empty for no
// kernels. Throws Error for a Vulkan blob whose kernel table or SPIR-V modules do not add up.
std::vector<std::pair<std::string, std::string>> driver_device_code(const std::string &runtime,
                                                                    const std::string &device_code);

// The embedded texts of a bundle: the main, and the README and run.sh made for one variant.
const char *repro_main_source();
std::string repro_run_sh(const VariantInfo &v, const std::string &runtime, const std::string &id);
std::string repro_readme(const VariantInfo &v, const std::string &runtime, const std::string &id,
                         const std::string &harness_run, const std::string &device_line,
                         const std::vector<std::string> &device_files, bool prebuilt);

}  // namespace harness
