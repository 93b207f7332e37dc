// The JSON spec parser (json_spec.h): every key checked, one-line errors naming the file, key and fix.
#include "spec/json_spec.h"

#include <cmath>
#include <set>

#include "base/error.h"
#include "base/json_reader.h"

namespace harness {

void json_spec_error(const std::string &path, const std::string &key, const std::string &problem,
                     const std::string &fix) {
    // One line, whatever the spec's keys and values hold (a key may contain a newline).
    throw Error(one_line(path + ": " + key + ": " + problem + "; " + fix));
}

namespace {

using nlohmann::json;

struct Ctx {
    const std::string &path;
    [[noreturn]] void fail(const std::string &key, const std::string &problem, const std::string &fix) const {
        json_spec_error(path, key, problem, fix);
    }
    // The shared typed getters (json_reader.h), with this spec's key path and their own fixes.
    JsonAt at(const json &v, const std::string &key) const { return JsonAt(v, path, "", key); }
    void only_keys(const json &obj, const std::string &key, std::initializer_list<const char *> allowed) const {
        at(obj, key).only_keys(allowed);
    }
    double number(const json &v, const std::string &key) const { return at(v, key).number(); }
    int64_t integer(const json &v, const std::string &key, int64_t lo, int64_t hi) const {
        return at(v, key).integer(lo, hi);
    }
    std::string string(const json &v, const std::string &key) const { return at(v, key).nonempty_string(); }
    std::vector<int> extents(const json &v, const std::string &key, size_t min_len, size_t max_len) const {
        if (!v.is_array() || v.size() < min_len || v.size() > max_len) {
            fail(key,
                 "is " + json_brief(v) + ", not a list of " + std::to_string(min_len) +
                     (max_len > min_len ? " to " + std::to_string(max_len) : std::string()) + " extents",
                 "write e.g. [64, 48]");
        }
        std::vector<int> out;
        for (size_t i = 0; i < v.size(); i++)
            out.push_back(static_cast<int>(integer(v[i], key + "[" + std::to_string(i) + "]", 1, 1 << 20)));
        return out;
    }
};

JsonRecipe parse_recipe(const Ctx &cx, const json &j, const std::string &key) {
    cx.only_keys(j, key, {"fill", "range", "seed", "cell", "value", "image", "sha256"});
    JsonRecipe r;
    if (j.contains("image")) {
        r.recipe.kind = Recipe::Kind::Image;
        r.recipe.file = cx.string(j["image"], key + ".image");
        if (r.recipe.file.find("..") != std::string::npos || r.recipe.file[0] == '/') {
            cx.fail(key + ".image", "'" + r.recipe.file + "' is not a file name under <golden dir>/inputs/",
                    "put the PNG in golden/inputs/ and give its name");
        }
        if (!j.contains("sha256")) {
            cx.fail(key + ".sha256", "missing",
                    "add the image's sha256 (sha256sum golden/inputs/" + r.recipe.file + ")");
        }
        r.recipe.file_sha256 = cx.string(j["sha256"], key + ".sha256");
        if (r.recipe.file_sha256.size() != 64 ||
            r.recipe.file_sha256.find_first_not_of("0123456789abcdef") != std::string::npos) {
            cx.fail(key + ".sha256", "is not 64 lower-case hex digits", "paste the output of sha256sum");
        }
        for (const char *k : {"fill", "range", "seed", "cell", "value"}) {
            if (j.contains(k))
                cx.fail(key + "." + k, "given with \"image\"", "remove it (an image input is the file's pixels)");
        }
        return r;
    }
    const std::string fill = j.contains("fill") ? cx.string(j["fill"], key + ".fill") : "uniform";
    if (fill == "uniform")
        r.recipe.kind = Recipe::Kind::UniformInt;  // Int or Float by the input's type
    else if (fill == "gradient")
        r.recipe.kind = Recipe::Kind::Gradient;
    else if (fill == "checkerboard")
        r.recipe.kind = Recipe::Kind::Checkerboard;
    else if (fill == "constant")
        r.recipe.kind = Recipe::Kind::Constant;
    else
        cx.fail(key + ".fill", "'" + fill + "' is not a fill",
                "use uniform, gradient, checkerboard, constant (or \"image\")");
    if (j.contains("range")) {
        const json &rg = j["range"];
        if (!rg.is_array() || rg.size() != 2 || !rg[0].is_number() || !rg[1].is_number() ||
            !(rg[0].get<double>() <= rg[1].get<double>())) {
            cx.fail(key + ".range", "is " + json_brief(rg) + ", not [lo, hi] with lo <= hi", "write e.g. [0, 255]");
        }
        r.recipe.lo = rg[0].get<double>();
        r.recipe.hi = rg[1].get<double>();
        r.has_range = true;
        if (fill == "constant") cx.fail(key + ".range", "given for a constant fill", "use \"value\" instead");
    }
    if (j.contains("value")) {
        if (fill != "constant")
            cx.fail(key + ".value", "given for a " + fill + " fill", "use \"range\", or \"fill\": \"constant\"");
        r.recipe.lo = r.recipe.hi = cx.number(j["value"], key + ".value");
        r.has_range = true;
    } else if (fill == "constant") {
        cx.fail(key + ".value", "missing for a constant fill", "add \"value\": 0");
    }
    if (j.contains("seed")) {
        if (fill != "uniform")
            cx.fail(key + ".seed", "given for a " + fill + " fill", "remove it (only uniform fills are random)");
        r.recipe.seed = static_cast<uint64_t>(cx.integer(j["seed"], key + ".seed", 0, INT64_MAX));
        r.has_seed = true;
    }
    if (j.contains("cell")) {
        if (fill != "checkerboard")
            cx.fail(key + ".cell", "given for a " + fill + " fill", "remove it, or use \"fill\": \"checkerboard\"");
        r.recipe.cell = static_cast<int>(cx.integer(j["cell"], key + ".cell", 1, 1 << 16));
    }
    return r;
}

std::map<std::string, JsonRecipe> parse_inputs(const Ctx &cx, const json &j, const std::string &key) {
    if (!j.is_object()) cx.fail(key, "is not an object", "write {\"<input name>\": {\"fill\": ...}}");
    std::map<std::string, JsonRecipe> out;
    for (const auto &[name, r] : j.items())
        out[name] = parse_recipe(cx, r, key + "." + name);
    return out;
}

std::map<std::string, double> parse_scalars(const Ctx &cx, const json &j, const std::string &key) {
    if (!j.is_object()) cx.fail(key, "is not an object", "write {\"<scalar name>\": 1.5}");
    std::map<std::string, double> out;
    for (const auto &[name, v] : j.items()) {
        if (v.is_boolean())
            out[name] = v.get<bool>() ? 1 : 0;
        else
            out[name] = cx.number(v, key + "." + name);
    }
    return out;
}

Tolerance parse_tolerance(const Ctx &cx, const json &j, std::string *reason) {
    const std::string key = "tolerance";
    cx.only_keys(j, key, {"kind", "atol", "rtol", "ulp", "min_db", "max_fraction", "nan_equal", "reason"});
    if (!j.contains("reason"))
        cx.fail(key + ".reason", "missing", "say why this tolerance is right, e.g. \"GPU exp differs by a few ULP\"");
    *reason = cx.string(j["reason"], key + ".reason");
    if (!j.contains("kind")) cx.fail(key + ".kind", "missing", "use exact, absolute, abs_rel, ulp or psnr");
    const std::string kind = cx.string(j["kind"], key + ".kind");
    auto need = [&](const char *k) {
        if (!j.contains(k))
            cx.fail(key + "." + k, "missing for kind " + kind, "add \"" + std::string(k) + "\": <number>");
        const double v = cx.number(j[k], key + "." + k);
        if (!(v >= 0) || std::isinf(v)) cx.fail(key + "." + k, "is negative or not finite", "write a bound >= 0");
        return v;
    };
    Tolerance t;
    if (kind == "exact")
        t = Tolerance::exact();
    else if (kind == "absolute")
        t = Tolerance::absolute(need("atol"));
    else if (kind == "abs_rel")
        t = Tolerance::abs_rel(need("atol"), need("rtol"));
    else if (kind == "ulp")
        t = Tolerance::ulps(static_cast<int64_t>(cx.integer(j.value("ulp", json()), key + ".ulp", 0, 1LL << 40)));
    else if (kind == "psnr")
        t = Tolerance::psnr(need("min_db"));
    else
        cx.fail(key + ".kind", "'" + kind + "' is not a tolerance kind", "use exact, absolute, abs_rel, ulp or psnr");
    for (const char *k : {"atol", "rtol", "ulp", "min_db"}) {
        const bool used = (kind == "absolute" && std::string(k) == "atol") ||
                          (kind == "abs_rel" && (std::string(k) == "atol" || std::string(k) == "rtol")) ||
                          (kind == "ulp" && std::string(k) == "ulp") || (kind == "psnr" && std::string(k) == "min_db");
        if (j.contains(k) && !used)
            cx.fail(key + "." + k, "does not apply to kind " + kind, "remove it or change \"kind\"");
    }
    if (j.contains("nan_equal")) {
        if (!j["nan_equal"].is_boolean()) cx.fail(key + ".nan_equal", "is not true or false", "write true or false");
        t.nan_equal = j["nan_equal"].get<bool>();
    }
    if (j.contains("max_fraction")) {
        const double f = need("max_fraction");
        if (f > 1) cx.fail(key + ".max_fraction", "is above 1", "write a fraction of the elements, e.g. 0.001");
        t = Tolerance::mismatch_fraction(t, f);
    }
    return t;
}

JsonCase parse_case(const Ctx &cx, const json &j, const std::string &key) {
    cx.only_keys(j, key, {"name", "size", "output_shape", "inputs", "scalars", "nightly"});
    JsonCase c;
    if (!j.contains("name")) cx.fail(key + ".name", "missing", "give the case a name, e.g. \"small\"");
    c.name = cx.string(j["name"], key + ".name");
    if (c.name.find_first_not_of("abcdefghijklmnopqrstuvwxyz0123456789_-") != std::string::npos) {
        cx.fail(key + ".name", "'" + c.name + "' has characters other than a-z 0-9 _ -",
                "rename it (it becomes a test and a file name)");
    }
    if (j.contains("size") && j.contains("output_shape"))
        cx.fail(key + ".size", "given with output_shape", "keep one of the two");
    if (j.contains("size")) c.size = cx.extents(j["size"], key + ".size", 1, 2);
    if (j.contains("output_shape")) c.output_shape = cx.extents(j["output_shape"], key + ".output_shape", 0, 8);
    if (j.contains("inputs")) c.inputs = parse_inputs(cx, j["inputs"], key + ".inputs");
    if (j.contains("scalars")) c.scalars = parse_scalars(cx, j["scalars"], key + ".scalars");
    if (j.contains("nightly")) {
        if (!j["nightly"].is_boolean()) cx.fail(key + ".nightly", "is not true or false", "write true or false");
        c.nightly = j["nightly"].get<bool>();
    }
    return c;
}

}  // namespace

JsonSpec parse_json_spec(const std::string &text, const std::string &path) {
    const Ctx cx{path};
    const json j = parse_json(text, path, "fix the syntax");
    cx.only_keys(j, "",
                 {"format", "summary", "tolerance", "required_extensions", "cuda_max_registers", "inputs", "scalars",
                  "cases", "xfail"});
    JsonSpec s;
    s.path = path;
    if (j.contains("format")) cx.integer(j["format"], "format", 1, 1);
    if (j.contains("summary")) s.summary = cx.string(j["summary"], "summary");
    if (j.contains("tolerance")) s.tolerance = parse_tolerance(cx, j["tolerance"], &s.tolerance_reason);
    if (j.contains("required_extensions")) {
        const json &e = j["required_extensions"];
        if (!e.is_array()) cx.fail("required_extensions", "is not a list", "write [\"cl_khr_fp16\"]");
        for (size_t i = 0; i < e.size(); i++) {
            const std::string ext = cx.string(e[i], "required_extensions[" + std::to_string(i) + "]");
            if (ext.rfind("cl_", 0) != 0) {
                cx.fail("required_extensions[" + std::to_string(i) + "]",
                        "'" + ext + "' is not an OpenCL extension name",
                        "write the name clinfo shows, e.g. cl_khr_fp16");
            }
            s.required_extensions.push_back(ext);
        }
    }
    if (j.contains("cuda_max_registers"))
        s.cuda_max_registers = static_cast<int>(cx.integer(j["cuda_max_registers"], "cuda_max_registers", 0, 255));
    if (j.contains("inputs")) s.inputs = parse_inputs(cx, j["inputs"], "inputs");
    if (j.contains("scalars")) s.scalars = parse_scalars(cx, j["scalars"], "scalars");
    if (j.contains("cases")) {
        const json &cs = j["cases"];
        if (!cs.is_array() || cs.empty())
            cx.fail("cases", "is not a non-empty list",
                    "write [{\"name\": \"small\", \"size\": [64, 48]}] or leave it out");
        std::set<std::string> names;
        for (size_t i = 0; i < cs.size(); i++) {
            const std::string key = "cases[" + std::to_string(i) + "]";
            s.cases.push_back(parse_case(cx, cs[i], key));
            if (!names.insert(s.cases.back().name).second)
                cx.fail(key + ".name", "'" + s.cases.back().name + "' appears twice", "give each case its own name");
        }
    }
    if (j.contains("xfail")) {
        const json &x = j["xfail"];
        if (!x.is_array()) cx.fail("xfail", "is not a list", "write [{\"profile\": \"opencl\", \"reason\": \"...\"}]");
        for (size_t i = 0; i < x.size(); i++) {
            const std::string key = "xfail[" + std::to_string(i) + "]";
            cx.only_keys(x[i], key, {"profile", "case", "mode", "platform", "device", "driver", "outcomes", "reason"});
            if (!x[i].contains("reason")) cx.fail(key + ".reason", "missing", "say why this failure is expected");
            s.xfail.push_back(x[i]);
        }
    }
    return s;
}

}  // namespace harness
