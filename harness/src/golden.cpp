#include "harness/golden.h"

#include <dirent.h>
#include <fcntl.h>
#include <sys/stat.h>
#include <unistd.h>

#include <algorithm>
#include <cerrno>
#include <climits>
#include <cstdint>
#include <cstdlib>
#include <cstring>
#include <set>

#include "harness/error.h"
#include "harness/files.h"
#include "harness/npy.h"
#include "harness/sha256.h"

// The golden dir of the build (profiles_embedded.cpp.in).
extern const char *const harness_embedded_golden_dir;

namespace harness {

namespace {

bool is_dir(const std::string &p) {
    struct stat st;
    return stat(p.c_str(), &st) == 0 && S_ISDIR(st.st_mode);
}

std::string restore_hint(const std::string &relpath, const nlohmann::json *entry) {
    std::string hint = "restore it with `git checkout -- golden/" + relpath + "`";
    if (entry && entry->contains("pipeline")) {
        hint += " or re-bless with `aot-harness bless --pipeline " + (*entry)["pipeline"].get<std::string>() +
                " --case " + (*entry)["case"].get<std::string>() + "`";
    }
    return hint;
}

// Files below `root`, relative to it.
void list_files(const std::string &root, const std::string &rel, std::vector<std::string> &out) {
    DIR *d = opendir((root + "/" + rel).c_str());
    if (!d) return;
    while (dirent *e = readdir(d)) {
        const std::string name = e->d_name;
        if (name == "." || name == "..") continue;
        const std::string r = rel.empty() ? name : rel + "/" + name;
        if (is_dir(root + "/" + r)) list_files(root, r, out);
        else out.push_back(r);
    }
    closedir(d);
}

}  // namespace

std::string default_golden_dir() {
    if (const char *env = std::getenv("HARNESS_GOLDEN_DIR"); env && *env) return env;
    const std::string exe = self_exe_path();
    const std::string beside = exe.substr(0, exe.rfind('/')) + "/../../golden";
    if (is_dir(beside)) return beside;
    return harness_embedded_golden_dir;
}

std::string golden_relpath(const std::string &pipeline, const std::string &case_name, const std::string &output,
                           size_t num_outputs) {
    return pipeline + "/" + case_name + (num_outputs > 1 ? "." + output : std::string()) + ".npy";
}

Manifest Manifest::load(const std::string &dir, bool allow_missing) {
    recover_interrupted_bless(dir);
    const std::string path = dir + "/MANIFEST.json";
    if (access(path.c_str(), F_OK) != 0) {
        if (allow_missing) return Manifest();
        throw Error(path + " is missing; restore it with `git checkout -- golden/MANIFEST.json` or bless the pipelines");
    }
    return parse(read_file(path), path);
}

Manifest Manifest::parse(const std::string &json_text, const std::string &path) {
    nlohmann::json doc;
    try {
        doc = nlohmann::json::parse(json_text);
    } catch (const nlohmann::json::exception &e) {
        throw Error(path + " is not valid JSON (" + e.what() + "); restore it with `git checkout -- golden/MANIFEST.json`");
    }
    if (!doc.is_object() || !doc.contains("goldens") || !doc["goldens"].is_array()) {
        throw Error(path + " has no \"goldens\" array; restore it with `git checkout -- golden/MANIFEST.json`");
    }
    const std::string fix = "; restore it with `git checkout -- golden/MANIFEST.json` or re-bless";
    std::set<std::string> files;
    for (const auto &e : doc["goldens"]) {
        for (const char *key : {"file", "pipeline", "case", "output", "dtype", "shape", "sha256"}) {
            if (!e.is_object() || !e.contains(key)) throw Error(path + ": an entry lacks \"" + key + "\"" + fix);
        }
        // Readers take these as strings, the shape as extents and "stored" as a flag (found by
        // harness/fuzz/manifest_fuzz.cpp: a wrong type escaped as a bare nlohmann::json type_error).
        for (const char *key : {"file", "pipeline", "case", "output", "dtype", "sha256"}) {
            if (!e[key].is_string()) throw Error(path + ": an entry's \"" + key + "\" is not a string" + fix);
        }
        const std::string file = e["file"].get<std::string>();
        const std::string where = path + ": entry \"" + file + "\"";
        if (!e["shape"].is_array()) throw Error(where + ": \"shape\" is not a list of extents" + fix);
        for (const auto &extent : e["shape"]) {
            if (!extent.is_number_integer() || extent.get<int64_t>() < 0 || extent.get<int64_t>() > INT_MAX) {
                throw Error(where + ": \"shape\" has " + extent.dump() + ", not an extent from 0 to 2^31-1" + fix);
            }
        }
        if (e.contains("stored") && !e["stored"].is_boolean()) throw Error(where + ": \"stored\" is not true or false" + fix);
        // "file" is read and written below the golden dir: a relative path that does not climb out.
        const bool climbs = file == ".." || file.rfind("../", 0) == 0 || file.find("/../") != std::string::npos ||
                            (file.size() >= 3 && file.compare(file.size() - 3, 3, "/..") == 0);
        if (file.empty() || file[0] == '/' || climbs) {
            throw Error(where + ": \"file\" must be a path inside the golden dir" + fix);
        }
        if (!files.insert(file).second) throw Error(where + " appears twice" + fix);
    }
    Manifest m;
    m.goldens_ = doc["goldens"];
    return m;
}

std::string Manifest::text() const {
    nlohmann::json sorted = goldens_;
    std::sort(sorted.begin(), sorted.end(),
              [](const nlohmann::json &a, const nlohmann::json &b) { return a["file"] < b["file"]; });
    const nlohmann::json doc{{"format", 1}, {"goldens", sorted}};
    return doc.dump(2) + "\n";
}

namespace {

const char *kStaging = ".bless-staging";
const char *kCommit = ".bless-commit";

// rm -rf of a directory tree this module created (files and subdirectories only).
void remove_tree(const std::string &path) {
    if (DIR *d = opendir(path.c_str())) {
        while (dirent *e = readdir(d)) {
            const std::string name = e->d_name;
            if (name == "." || name == "..") continue;
            const std::string p = path + "/" + name;
            if (is_dir(p)) remove_tree(p);
            else unlink(p.c_str());
        }
        closedir(d);
    }
    rmdir(path.c_str());
}

void fsync_dir(const std::string &dir) {
    const int fd = open(dir.c_str(), O_RDONLY | O_DIRECTORY);
    if (fd >= 0) {
        fsync(fd);
        close(fd);
    }
}

// Step 3: moves every committed file into place, the manifest last. Idempotent.
void apply_commit(const std::string &dir) {
    const std::string commit = dir + "/" + kCommit;
    std::vector<std::string> files;
    list_files(commit, "", files);
    std::sort(files.begin(), files.end(), [](const std::string &a, const std::string &b) {
        return (a == "MANIFEST.json") < (b == "MANIFEST.json") || ((a == "MANIFEST.json") == (b == "MANIFEST.json") && a < b);
    });
    for (const auto &f : files) {
        const std::string target = dir + "/" + f;
        make_dirs(target.substr(0, target.rfind('/')));
        if (rename((commit + "/" + f).c_str(), target.c_str()) != 0) {
            throw Error("cannot move " + commit + "/" + f + " to " + target + ": " + std::strerror(errno) +
                        "; make the golden dir writable and run the command again");
        }
    }
    fsync_dir(dir);
    remove_tree(commit);
}

}  // namespace

std::string recover_interrupted_bless(const std::string &dir) {
    std::string what;
    if (is_dir(dir + "/" + kCommit)) {
        apply_commit(dir);
        what = "completed an interrupted bless in " + dir;
    }
    if (is_dir(dir + "/" + kStaging)) {
        remove_tree(dir + "/" + kStaging);
        if (what.empty()) what = "discarded an interrupted bless in " + dir + " (the old goldens stand)";
    }
    return what;
}

void commit_goldens(const std::string &dir, const std::vector<std::pair<std::string, std::string>> &files,
                    const Manifest &manifest) {
    recover_interrupted_bless(dir);
    const std::string staging = dir + "/" + kStaging;
    if (const int e = make_dirs(staging)) {
        throw Error("cannot create " + staging + ": " + std::strerror(e) + "; make the golden dir writable");
    }
    try {
        for (const auto &[rel, bytes] : files) {
            const std::string path = staging + "/" + rel;
            if (const int e = make_dirs(path.substr(0, path.rfind('/')))) {
                throw Error("cannot create a directory for " + path + ": " + std::strerror(e) + "; make the golden dir writable");
            }
            write_file_atomic(path, bytes);
        }
        write_file_atomic(staging + "/MANIFEST.json", manifest.text());
    } catch (const Error &e) {
        remove_tree(staging);
        throw Error(std::string(e.what()) + " (nothing in " + dir + " was changed)");
    }
    fsync_dir(staging);
    if (rename(staging.c_str(), (dir + "/" + kCommit).c_str()) != 0) {
        const std::string why = std::strerror(errno);
        remove_tree(staging);
        throw Error("cannot commit the new goldens in " + dir + ": " + why + " (nothing was changed)");
    }
    fsync_dir(dir);
    apply_commit(dir);
}

const nlohmann::json *Manifest::find(const std::string &relpath) const {
    for (const auto &e : goldens_) {
        if (e["file"] == relpath) return &e;
    }
    return nullptr;
}

void Manifest::upsert(const nlohmann::json &entry) {
    for (auto &e : goldens_) {
        if (e["file"] == entry["file"]) {
            e = entry;
            return;
        }
    }
    goldens_.push_back(entry);
}

bool golden_is_stored(const nlohmann::json &entry) {
    return entry.value("stored", true);
}

Array load_verified_golden(const std::string &dir, const Manifest &manifest, const std::string &relpath,
                           const std::string *reproduced) {
    const nlohmann::json *entry = manifest.find(relpath);
    const std::string path = dir + "/" + relpath;
    if (!entry) {
        throw Error("golden/" + relpath + " has no entry in golden/MANIFEST.json; bless it with `aot-harness bless`");
    }
    std::string bytes;
    if (!golden_is_stored(*entry)) {
        if (!reproduced) {
            throw Error("golden/" + relpath + " is not stored (reproduced at run time by the cpu variant); "
                        "run the case with `aot-harness run` instead of reading the file");
        }
        bytes = *reproduced;
        if (sha256_hex(bytes) != (*entry)["sha256"].get<std::string>()) {
            throw Error("the cpu variant no longer reproduces golden/" + relpath +
                        " (sha256 differs from golden/MANIFEST.json): the cpu profile's result changed; if that is "
                        "intended, re-bless with `aot-harness bless --pipeline " + (*entry)["pipeline"].get<std::string>() +
                        " --case " + (*entry)["case"].get<std::string>() + "`");
        }
    } else {
        if (access(path.c_str(), F_OK) != 0) {
            throw Error("golden/" + relpath + " is missing; " + restore_hint(relpath, entry));
        }
        bytes = read_file(path);
        if (sha256_hex(bytes) != (*entry)["sha256"].get<std::string>()) {
            throw Error("golden/" + relpath + " does not match its sha256 in golden/MANIFEST.json; " +
                        restore_hint(relpath, entry));
        }
    }
    Array a = npy_decode(bytes, "golden/" + relpath);
    if (dtype_name(a.type) != (*entry)["dtype"].get<std::string>() ||
        nlohmann::json(a.shape) != (*entry)["shape"]) {
        throw Error("golden/" + relpath + " has dtype/shape " + dtype_name(a.type) + " " + shape_string(a.shape) +
                    " but the manifest says " + (*entry)["dtype"].get<std::string>() + " " +
                    (*entry)["shape"].dump() + "; " + restore_hint(relpath, entry));
    }
    return a;
}

std::vector<std::string> verify_goldens(const std::string &dir) {
    std::vector<std::string> problems;
    Manifest m;
    try {
        m = Manifest::load(dir);
    } catch (const Error &e) {
        return {e.what()};
    }
    std::set<std::string> in_manifest;
    for (const auto &e : m.entries()) {
        const std::string rel = e["file"].get<std::string>();
        in_manifest.insert(rel);
        if (!golden_is_stored(e)) continue;  // checked when the case runs (the cpu variant reproduces it)
        try {
            load_verified_golden(dir, m, rel);
        } catch (const Error &err) {
            problems.push_back(err.what());
        }
    }
    std::vector<std::string> files;
    list_files(dir, "", files);
    std::sort(files.begin(), files.end());
    for (const auto &f : files) {
        const bool npy = f.size() > 4 && f.compare(f.size() - 4, 4, ".npy") == 0;
        if (npy && !in_manifest.count(f)) {
            problems.push_back("golden/" + f + " is not in golden/MANIFEST.json; delete it or bless its pipeline");
        }
    }
    return problems;
}

}  // namespace harness
