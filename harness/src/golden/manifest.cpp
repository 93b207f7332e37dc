// golden/MANIFEST.json and its typed entries (manifest.h).
#include "golden/manifest.h"

#include <algorithm>
#include <climits>
#include <set>

#include "base/error.h"
#include "base/files.h"

namespace harness {

namespace {

const char *kFix = "; restore it with `git checkout -- golden/MANIFEST.json` or re-bless";

std::string string_field(const nlohmann::json &e, const char *key, const std::string &where, bool required) {
    const auto it = e.find(key);
    if (it == e.end() || (!required && it->is_null())) {
        if (required) throw Error(where + " lacks \"" + key + "\"" + kFix);
        return "";
    }
    // Readers take these as strings (found by harness/fuzz/manifest_fuzz.cpp: a wrong type escaped as
    // a bare nlohmann::json type_error).
    if (!it->is_string()) throw Error(where + ": an entry's \"" + key + "\" is not a string" + kFix);
    return it->get<std::string>();
}

}  // namespace

nlohmann::json GoldenEntry::to_json() const {
    nlohmann::json j{{"file", file},   {"pipeline", pipeline}, {"case", case_name}, {"output", output},
                     {"dtype", dtype}, {"shape", shape},       {"sha256", sha256}};
    if (!stored) j["stored"] = false;
    const std::pair<const char *, const std::string *> provenance[] = {{"profile", &profile},
                                                                       {"target", &target},
                                                                       {"halide_version", &halide_version},
                                                                       {"generator_sha256", &generator_sha256},
                                                                       {"input_recipe", &input_recipe}};
    for (const auto &[key, value] : provenance) {
        if (!value->empty()) j[key] = *value;
    }
    if (!reference_check.is_null()) j["reference_check"] = reference_check;
    return j;
}

GoldenEntry GoldenEntry::from_json(const nlohmann::json &e, const std::string &path) {
    if (!e.is_object()) throw Error(path + ": an entry is not an object" + kFix);
    const std::string an_entry = path + ": an entry";
    GoldenEntry g;
    // Presence first, so that a missing field is named before a mistyped one.
    for (const char *key : {"file", "pipeline", "case", "output", "dtype", "shape", "sha256"}) {
        if (!e.contains(key)) throw Error(an_entry + " lacks \"" + key + "\"" + kFix);
    }
    g.file = string_field(e, "file", path, true);
    g.pipeline = string_field(e, "pipeline", path, true);
    g.case_name = string_field(e, "case", path, true);
    g.output = string_field(e, "output", path, true);
    g.dtype = string_field(e, "dtype", path, true);
    g.sha256 = string_field(e, "sha256", path, true);
    const std::string where = path + ": entry \"" + g.file + "\"";
    if (!e["shape"].is_array()) throw Error(where + ": \"shape\" is not a list of extents" + kFix);
    for (const auto &extent : e["shape"]) {
        if (!extent.is_number_integer() || extent.get<int64_t>() < 0 || extent.get<int64_t>() > INT_MAX) {
            throw Error(where + ": \"shape\" has " + extent.dump() + ", not an extent from 0 to 2^31-1" + kFix);
        }
        g.shape.push_back(extent.get<int64_t>());
    }
    if (e.contains("stored")) {
        if (!e["stored"].is_boolean()) throw Error(where + ": \"stored\" is not true or false" + kFix);
        g.stored = e["stored"].get<bool>();
    }
    g.profile = string_field(e, "profile", where, false);
    g.target = string_field(e, "target", where, false);
    g.halide_version = string_field(e, "halide_version", where, false);
    g.generator_sha256 = string_field(e, "generator_sha256", where, false);
    g.input_recipe = string_field(e, "input_recipe", where, false);
    if (e.contains("reference_check") && !e["reference_check"].is_null()) {
        if (!e["reference_check"].is_object()) throw Error(where + ": \"reference_check\" is not an object" + kFix);
        g.reference_check = e["reference_check"];
    }
    // "file" is read and written below the golden dir: a relative path that does not climb out.
    const std::string &file = g.file;
    const bool climbs = file == ".." || file.rfind("../", 0) == 0 || file.find("/../") != std::string::npos ||
                        (file.size() >= 3 && file.compare(file.size() - 3, 3, "/..") == 0);
    if (file.empty() || file[0] == '/' || climbs) {
        throw Error(where + ": \"file\" must be a path inside the golden dir" + kFix);
    }
    return g;
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
    nlohmann::json doc;
    try {
        doc = nlohmann::json::parse(json_text);
    } catch (const nlohmann::json::exception &e) {
        throw Error(path + " is not valid JSON (" + e.what() +
                    "); restore it with `git checkout -- golden/MANIFEST.json`");
    }
    if (!doc.is_object() || !doc.contains("goldens") || !doc["goldens"].is_array()) {
        throw Error(path + " has no \"goldens\" array; restore it with `git checkout -- golden/MANIFEST.json`");
    }
    Manifest m;
    std::set<std::string> files;
    for (const auto &e : doc["goldens"]) {
        m.goldens_.push_back(GoldenEntry::from_json(e, path));
        const std::string &file = m.goldens_.back().file;
        if (!files.insert(file).second) throw Error(path + ": entry \"" + file + "\" appears twice" + kFix);
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
