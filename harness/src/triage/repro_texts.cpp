// The parts of a repro bundle made from text: the device code as the driver gets it, run.sh and the
// README (repro.h).
#include <cctype>
#include <cstdint>
#include <cstring>

#include "base/error.h"
#include "triage/repro.h"

namespace harness {

std::string shell_quote(const std::string &s) {
    std::string q = "'";
    for (char c : s)
        q += c == '\'' ? std::string("'\\''") : std::string(1, c);
    return q + "'";
}

std::vector<std::string> split_test_id(const std::string &id) {
    std::vector<std::string> parts;
    size_t start = 0;
    for (size_t slash = id.find('/'); slash != std::string::npos; slash = id.find('/', start)) {
        parts.push_back(id.substr(start, slash - start));
        start = slash + 1;
    }
    parts.push_back(id.substr(start));
    for (const auto &p : parts) {
        if (p.empty() || parts.size() != 3)
            throw Error("'" + id + "' is not <pipeline>/<profile>/<case>; see aot-harness list");
    }
    return parts;
}

std::vector<std::pair<std::string, std::string>> driver_device_code(const std::string &runtime,
                                                                    const std::string &device_code) {
    std::string code = device_code;
    if (!code.empty() && code.back() == '\n') code.pop_back();  // Halide's device_code output adds one
    if (code.empty()) return {};
    if (runtime == "opencl") return {{"kernels.cl", code + "\n"}};
    if (runtime == "cuda") return {{"kernels.ptx", code + "\n"}};
    if (runtime != "vulkan") return {{"kernels.txt", code + "\n"}};
    // Vulkan (Halide 21's runtime, vk_compile_kernel_module): [kernel count], per kernel [module bytes]
    // [name words][name], then each kernel's module: Halide's descriptor header (word 0: its length in
    // words) and the SPIR-V module vkCreateShaderModule gets. Halide wrote the blob as text, dropping
    // trailing zero bytes: pad back to whole words.
    while (code.size() % 4)
        code.push_back('\0');
    const auto word = [&](size_t i) {
        uint32_t w = 0;
        if ((i + 1) * 4 <= code.size()) std::memcpy(&w, code.data() + i * 4, 4);
        return w;
    };
    const auto bad = [](const std::string &what) {
        return Error("the Vulkan device code " + what + "; rebuild the variant (its .device_code output may be stale)");
    };
    const uint32_t kernels = word(0);
    size_t w = 1;
    std::vector<std::pair<uint32_t, std::string>> heads;  // module bytes, kernel name
    for (uint32_t k = 0; k < kernels; k++) {
        const uint32_t bytes = word(w++), name_words = word(w++);
        if ((w + name_words) * 4 > code.size()) throw bad("is shorter than its kernel table");
        heads.push_back({bytes, std::string(code.data() + w * 4, strnlen(code.data() + w * 4, name_words * 4))});
        w += name_words;
    }
    std::vector<std::pair<std::string, std::string>> files;
    size_t at = w * 4;
    for (const auto &[bytes, name] : heads) {
        if (at + bytes > code.size() + 4) throw bad("is shorter than its kernel " + name);
        const std::string module = code.substr(at, bytes);
        uint32_t header_words = 0, magic = 0;
        std::memcpy(&header_words, module.data(), 4);
        if (size_t(header_words) * 4 + 4 <= module.size()) std::memcpy(&magic, module.data() + header_words * 4, 4);
        if (magic != 0x07230203u) throw bad("has no SPIR-V module for kernel " + name);
        files.push_back({name + ".spv", module.substr(size_t(header_words) * 4)});
        files.push_back({name + ".halide_header.bin", module.substr(0, size_t(header_words) * 4)});
        at += bytes;
    }
    return files;
}

std::string repro_run_sh(const VariantInfo &v, const std::string &runtime, const std::string &id) {
    std::string define;
    if (runtime != "none") {
        std::string upper = runtime;
        for (char &c : upper)
            c = char(std::toupper(static_cast<unsigned char>(c)));
        define = " -DREPRO_RUNTIME_" + upper;
    }
    return "#!/bin/sh\n"
           "# Reproducer of " +
           id +
           " (made by aot-harness repro). Builds main.cpp against the variant's static library\n"
           "# and runs it once. Exit code = verdict: 0 PASS (matches the golden), 1 FAIL (differs), 2 could not\n"
           "# build or run; a crash exits 128+signal. Arguments go to the program: --no-release skips\n"
           "# halide_device_release before exit.\n"
           "set -u\n"
           "cd \"$(dirname \"$0\")\" || exit 2\n"
           "mkdir -p build output\n"
           "CXX=${CXX:-c++}\n"
           "if command -v \"$CXX\" >/dev/null 2>&1; then\n"
           "  \"$CXX\" -std=c++17 -O1 -I include" +
           define + " main.cpp pipeline/" + v.function + ".registration.cpp pipeline/lib" + v.function +
           ".a \\\n"
           "    pipeline/libharness_halide_runtime.a -ldl -lpthread -lm -o build/repro ||\n"
           "    { echo \"run.sh: building the reproducer failed (see above)\" >&2; exit 2; }\n"
           "  exe=build/repro\n"
           "  [ \"${REPRO_BUILD_ONLY:-}\" = 1 ] && exit 0\n"
           "elif [ -x bin/repro ]; then\n"
           "  echo \"run.sh: no C++ compiler ($CXX); running bin/repro, built where the bundle was made\"\n"
           "  exe=bin/repro\n"
           "else\n"
           "  echo \"run.sh: no C++ compiler ($CXX) and no bin/repro; set CXX\" >&2\n"
           "  exit 2\n"
           "fi\n"
           "\"./$exe\" case.txt \"$@\"\n";
}

std::string repro_readme(const VariantInfo &v, const std::string &runtime, const std::string &id,
                         const std::string &harness_run, const std::string &device_line,
                         const std::vector<std::string> &device_files, bool prebuilt) {
    std::string params;
    for (const auto &p : v.params)
        params += (params.empty() ? "" : " ") + p;
    std::string dev;
    for (const auto &f : device_files)
        dev += "  - `device/" + f + "`\n";
    if (dev.empty()) dev = "  - (none: this variant runs no GPU kernel)\n";
    return "# Reproducer: " + id +
           "\n\n"
           "A Halide pipeline (AOT-compiled, Halide " +
           v.halide_version + ", target `" + v.target +
           "`) that computes a wrong result (or crashes) on this device.\n"
           "It needs no Halide compiler and no test harness: a C++17 compiler and the GPU driver.\n\n"
           "## Run it\n\n"
           "```sh\n./run.sh            # builds build/repro from main.cpp and the static libraries, runs it once\n"
           "echo $?             # 0: matches the golden, 1: differs (the bug), 2: could not build or run\n```\n\n"
           "It prints one line per output (elements outside the tolerance, the worst one with its coordinates,\n"
           "expected and actual value) and writes what it got to `output/<name>.repro.npy`.\n" +
           (prebuilt ? "Without a compiler (`CXX`), run.sh runs `bin/repro`, built where this bundle was made.\n" :
                       "") +
           "`./run.sh --no-release` exits without `halide_device_release()`, for drivers that crash at exit.\n\n"
           "## What the test harness saw\n\n" +
           harness_run + "\n\nDevice: " + device_line +
           "\n\n"
           "## Files\n\n"
           "- `main.cpp`: loads the inputs, calls the pipeline once, copies the outputs back, compares with the\n"
           "  goldens under the tolerance in `case.txt`, releases the device, exits with the verdict\n"
           "- `case.txt`: the inputs, scalar values, goldens and tolerances (one line each)\n"
           "- `pipeline/lib" +
           v.function + ".a`, `pipeline/" + v.function + ".h`, `pipeline/" + v.function +
           ".registration.cpp`: the pipeline\n"
           "  as the generator made it; `pipeline/libharness_halide_runtime.a`: Halide's runtime (" +
           runtime +
           ")\n"
           "- `include/HalideRuntime.h`: Halide's runtime header\n"
           "- `inputs/*.npy`, `golden/*.npy` (the cpu result), `output/*.harness.npy` (what the harness got here):\n"
           "  NumPy files, shape in C order (numpy `a[y, x]`)\n"
           "- the device code as the driver receives it:\n" +
           dev + "- `environment.json`: Halide version, target, generator and GeneratorParams (`" + params +
           "`),\n"
           "  harness version, the OS, CPU, every OpenCL/Vulkan/CUDA device and driver found where it was made\n\n"
           "The generator was `" +
           v.generator_name + "` with `target=" + v.target + (params.empty() ? "" : " " + params) + "`.\n";
}

}  // namespace harness
