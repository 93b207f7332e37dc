// golden/MANIFEST.json and its typed entries (manifest.h).
#include "golden/manifest.h"

#include <algorithm>
#include <climits>
#include <set>

#include "base/error.h"
#include "base/files.h"
#include "base/json_reader.h"

namespace harness {

namespace {

const char *kFix = "restore it with `git checkout -- golden/MANIFEST.json` or re-bless";

// One entry of "goldens" (`at` says where it is); every field typed, as readers take them.
GoldenEntry entry_from(const JsonAt &at) {
    at.object();
    GoldenEntry g;
    // Presence first, so that a missing field is named before a mistyped one.
    for (const char *key : {"file", "pipeline", "case", "output", "dtype", "shape", "sha256"})
        at.get(key);
    g.file = at.get("file").string();
    // From here on the entry is named by its file, which a reader finds in the manifest more easily.
    const JsonAt named = at.renamed("entry \"" + g.file + "\"");
    g.pipeline = named.get("pipeline").string();
    g.case_name = named.get("case").string();
    g.output = named.get("output").string();
    g.dtype = named.get("dtype").string();
    g.sha256 = named.get("sha256").string();
    for (const JsonAt &extent : named.get("shape").items())
        g.shape.push_back(extent.integer(0, INT_MAX));
    if (named.has("stored")) g.stored = named.get("stored").boolean();
    if (named.has("platform_sha256")) {
        for (const auto &[target, hash] : named.get("platform_sha256").members())
            g.platform_sha256[target] = hash.string();
        if (g.stored) named.get("platform_sha256").fail("is only for goldens that are not stored (\"stored\": false)");
    }
    g.profile = named.string_or("profile", "");
    g.target = named.string_or("target", "");
    g.halide_version = named.string_or("halide_version", "");
    g.generator_sha256 = named.string_or("generator_sha256", "");
    g.input_recipe = named.string_or("input_recipe", "");
    g.nondeterministic = named.string_or("nondeterministic", "");
    if (named.has("reference_check") && !at.json()["reference_check"].is_null())
        g.reference_check = named.get("reference_check").object().json();
    // "file" is read and written below the golden dir: a relative path that does not climb out.
    const std::string &file = g.file;
    const bool climbs = file == ".." || file.rfind("../", 0) == 0 || file.find("/../") != std::string::npos ||
                        (file.size() >= 3 && file.compare(file.size() - 3, 3, "/..") == 0);
    if (file.empty() || file[0] == '/' || climbs) named.get("file").fail("must be a path inside the golden dir");
    return g;
}

}  // namespace

nlohmann::json GoldenEntry::to_json() const {
    nlohmann::json j{{"file", file},   {"pipeline", pipeline}, {"case", case_name}, {"output", output},
                     {"dtype", dtype}, {"shape", shape},       {"sha256", sha256}};
    if (!stored) j["stored"] = false;
    if (!platform_sha256.empty()) j["platform_sha256"] = platform_sha256;
    const std::pair<const char *, const std::string *> provenance[] = {{"profile", &profile},
                                                                       {"target", &target},
                                                                       {"halide_version", &halide_version},
                                                                       {"generator_sha256", &generator_sha256},
                                                                       {"input_recipe", &input_recipe},
                                                                       {"nondeterministic", &nondeterministic}};
    for (const auto &[key, value] : provenance) {
        if (!value->empty()) j[key] = *value;
    }
    if (!reference_check.is_null()) j["reference_check"] = reference_check;
    return j;
}

const std::string &GoldenEntry::sha256_for(const std::string &cpu_target) const {
    const auto it = platform_sha256.find(cpu_target);
    return it == platform_sha256.end() ? sha256 : it->second;
}

GoldenEntry GoldenEntry::from_json(const nlohmann::json &e, const std::string &path) {
    return entry_from(JsonAt(e, path, kFix, "entry"));
}

bool read_golden_file(const std::string &dir, const std::string &rel, std::string *bytes) {
    // A committed bless moves its files out of the commit dir one by one: a file that is gone from
    // there has reached the golden dir already.
    if (read_file_if_exists(dir + "/" + kBlessCommitDir + "/" + rel, bytes)) return true;
    return read_file_if_exists(dir + "/" + rel, bytes);
}

Manifest Manifest::load(const std::string &dir, bool allow_missing) {
    const std::string path = dir + "/MANIFEST.json";
    std::string text;
    if (!read_golden_file(dir, "MANIFEST.json", &text)) {
        if (allow_missing) return Manifest();
        throw Error(path +
                    " is missing; restore it with `git checkout -- golden/MANIFEST.json` or bless the pipelines");
    }
    return parse(text, path);
}

Manifest Manifest::parse(const std::string &json_text, const std::string &path) {
    const nlohmann::json doc = parse_json(json_text, path, kFix);
    const JsonAt top(doc, path, kFix);
    Manifest m;
    std::set<std::string> files;
    for (const JsonAt &e : top.get("goldens").items()) {
        m.goldens_.push_back(entry_from(e));
        const std::string &file = m.goldens_.back().file;
        if (!files.insert(file).second) e.fail("\"" + file + "\" appears twice");
    }
    return m;
}

std::string Manifest::text() const {
    std::vector<GoldenEntry> sorted = goldens_;
    std::sort(sorted.begin(), sorted.end(), [](const GoldenEntry &a, const GoldenEntry &b) { return a.file < b.file; });
    nlohmann::json goldens = nlohmann::json::array();
    for (const auto &e : sorted)
        goldens.push_back(e.to_json());
    const nlohmann::json doc{{"format", 1}, {"goldens", goldens}};
    return doc.dump(2) + "\n";
}

const GoldenEntry *Manifest::find(const std::string &relpath) const {
    for (const auto &e : goldens_) {
        if (e.file == relpath) return &e;
    }
    return nullptr;
}

void Manifest::upsert(const GoldenEntry &entry) {
    for (auto &e : goldens_) {
        if (e.file == entry.file) {
            e = entry;
            return;
        }
    }
    goldens_.push_back(entry);
}

}  // namespace harness
