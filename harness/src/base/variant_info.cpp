// The build's description of one variant (variant_info.h).
#include "base/variant_info.h"

#include <cstdlib>

#include <nlohmann/json.hpp>

#include "base/error.h"
#include "base/files.h"
#include "base/json_reader.h"

namespace harness {

std::string default_build_dir() {
    if (const char *d = std::getenv("AOT_HARNESS_BUILD_DIR"); d && *d) return d;
    std::string exe = self_exe_path();
    for (int up = 0; up < 2; up++) {
        const size_t slash = exe.rfind('/');
        exe = slash == std::string::npos ? "." : exe.substr(0, slash);
    }
    return exe;
}

VariantInfo load_variant_info(const std::string &build_dir, const std::string &function) {
    const std::string path = build_dir + "/aot-harness-variants/" + function + ".json";
    std::string text;
    if (!read_file_if_exists(path, &text)) {
        throw Error("no build description of " + function + " (" + path +
                    " is missing); run this from the build tree that built it, or pass --build-dir");
    }
    VariantInfo v;
    try {
        const nlohmann::json j = parse_json(text, path, "rebuild the variant");
        const auto s = [&](const char *k) { return j.value(k, std::string()); };
        v.pipeline = s("pipeline");
        v.profile = s("profile");
        v.function = s("function");
        v.target = s("target");
        v.library = s("library");
        v.header = s("header");
        v.registration = s("registration");
        v.device_code = s("device_code");
        v.runtime_library = s("runtime_library");
        v.generator = s("generator");
        v.generator_name = s("generator_name");
        v.autoscheduler = s("autoscheduler");
        v.python_source = s("python_source");
        v.python = s("python");
        v.python_path = s("python_path");
        v.params = j.value("params", std::vector<std::string>());
        v.halide_include = s("halide_include");
        v.halide_version = s("halide_version");
        v.cxx = s("cxx");
    } catch (const nlohmann::json::exception &e) {
        throw Error(path + " is not a variant description (" + e.what() + "); re-run cmake on the build tree");
    }
    if (v.library.empty() || v.registration.empty())
        throw Error(path + " names no library or registration file; re-run cmake on the build tree");
    return v;
}

}  // namespace harness
