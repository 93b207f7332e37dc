// Reading goldens (golden.h): the default golden dir, golden paths, verified loads and `golden verify`.
#include "golden/golden.h"

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

#include "base/error.h"
#include "base/files.h"
#include "values/npy.h"
#include "base/sha256.h"

// The golden dir of the build (profiles_embedded.cpp.in).
extern const char *const harness_embedded_golden_dir;

namespace harness {

namespace {

std::string restore_hint(const std::string &relpath, const GoldenEntry *entry) {
    std::string hint = "restore it with `git checkout -- golden/" + relpath + "`";
    if (entry)
        hint +=
            " or re-bless with `aot-harness bless --pipeline " + entry->pipeline + " --case " + entry->case_name + "`";
    return hint;
}

}  // namespace

std::string default_golden_dir() {
    if (const char *env = std::getenv("AOT_HARNESS_GOLDEN_DIR"); env && *env) return env;
    // One name, the one the tools are given too (cli_tools.cpp): the old one stops instead of being ignored.
    if (const char *old = std::getenv("HARNESS_GOLDEN_DIR"); old && *old)
        throw Error("HARNESS_GOLDEN_DIR is now AOT_HARNESS_GOLDEN_DIR; rename it in your environment");
    const std::string exe = self_exe_path();
    const std::string beside = exe.substr(0, exe.rfind('/')) + "/../../golden";
    if (is_dir(beside)) return beside;
    return harness_embedded_golden_dir;
}

void check_golden_dir(const std::string &dir) {
    struct stat st {};
    if (stat(dir.c_str(), &st) == 0 && !S_ISDIR(st.st_mode)) {
        throw Error("the golden dir " + dir +
                    " is not a directory; pass --golden-dir DIR (or AOT_HARNESS_GOLDEN_DIR) " +
                    "naming the directory that holds MANIFEST.json");
    }
}

std::string golden_relpath(const std::string &pipeline, const std::string &case_name, const std::string &output,
                           size_t num_outputs) {
    return pipeline + "/" + case_name + (num_outputs > 1 ? "." + output : std::string()) + ".npy";
}

Array load_verified_golden(const std::string &dir, const Manifest &manifest, const std::string &relpath,
                           const std::string *reproduced, const std::string &cpu_target) {
    const GoldenEntry *entry = manifest.find(relpath);
    if (!entry) {
        throw Error("golden/" + relpath + " has no entry in golden/MANIFEST.json; bless it with `aot-harness bless`");
    }
    std::string bytes;
    if (!entry->stored) {
        if (!reproduced) {
            throw Error("golden/" + relpath +
                        " is not stored (reproduced at run time by the cpu variant); "
                        "run the case with `aot-harness run` instead of reading the file");
        }
        bytes = *reproduced;
        if (sha256_hex(bytes) != entry->sha256_for(cpu_target)) {
            const std::string which = "--pipeline " + entry->pipeline + " --case " + entry->case_name;
            if (cpu_target.empty() || cpu_target == entry->target) {
                throw Error("the cpu variant no longer reproduces golden/" + relpath +
                            " (sha256 differs from golden/MANIFEST.json): the cpu profile's result changed; if that "
                            "is intended, re-bless with `aot-harness bless " +
                            which + "`");
            }
            if (entry->platform_sha256.count(cpu_target)) {
                throw Error("the cpu variant of " + cpu_target + " no longer reproduces golden/" + relpath +
                            " (sha256 differs from the " + cpu_target +
                            " hash in golden/MANIFEST.json's platform_sha256): its result on this platform changed; "
                            "if that is intended, record it again on this platform with `aot-harness bless "
                            "--platform-hash " +
                            which + "`");
            }
            throw Error("the cpu variant of " + cpu_target + " does not reproduce golden/" + relpath +
                        ": golden/MANIFEST.json holds the hash of " + entry->target +
                        ", where it was blessed, and none for " + cpu_target +
                        " (this platform's float results may differ in bits); check it and record this platform's "
                        "hash with `aot-harness bless --platform-hash " +
                        which + "` run here (it checks the result against the reference first)");
        }
    } else {
        if (!read_golden_file(dir, relpath, &bytes)) {
            throw Error("golden/" + relpath + " is missing; " + restore_hint(relpath, entry));
        }
        if (sha256_hex(bytes) != entry->sha256) {
            throw Error("golden/" + relpath + " does not match its sha256 in golden/MANIFEST.json; " +
                        restore_hint(relpath, entry));
        }
    }
    Array a = npy_decode(bytes, "golden/" + relpath);
    if (dtype_name(a.type) != entry->dtype || std::vector<int64_t>(a.shape.begin(), a.shape.end()) != entry->shape) {
        throw Error("golden/" + relpath + " has dtype/shape " + dtype_name(a.type) + " " + shape_string(a.shape) +
                    " but the manifest says " + entry->dtype + " " + nlohmann::json(entry->shape).dump() + "; " +
                    restore_hint(relpath, entry));
    }
    return a;
}

namespace {

std::vector<std::string> verify_once(const std::string &dir, const Manifest &m) {
    std::vector<std::string> problems;
    std::set<std::string> in_manifest;
    for (const auto &e : m.entries()) {
        in_manifest.insert(e.file);
        if (!e.stored) continue;  // checked when the case runs (the cpu variant reproduces it)
        try {
            load_verified_golden(dir, m, e.file);
        } catch (const Error &err) {
            problems.push_back(err.what());
        }
    }
    std::vector<std::string> files = list_files_below(dir, ".bless");  // less bless's staging and commit dirs
    std::sort(files.begin(), files.end());
    for (const auto &f : files) {
        const bool npy = f.size() > 4 && f.compare(f.size() - 4, 4, ".npy") == 0;
        if (npy && !in_manifest.count(f)) {
            problems.push_back("golden/" + f + " is not in golden/MANIFEST.json; delete it or bless its pipeline");
        }
    }
    return problems;
}

}  // namespace

std::vector<std::string> verify_goldens(const std::string &dir) {
    // A bless may commit while this reads: when the manifest changed under a problem, read again.
    for (int attempt = 0;; attempt++) {
        Manifest m;
        try {
            m = Manifest::load(dir);
        } catch (const Error &e) {
            return {e.what()};
        }
        std::vector<std::string> problems = verify_once(dir, m);
        if (problems.empty() || attempt == 3) return problems;
        try {
            if (Manifest::load(dir).text() == m.text()) return problems;
        } catch (const Error &) {
            return problems;
        }
    }
}

}  // namespace harness
