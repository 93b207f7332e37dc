// The golden directory's lock and bless's transaction (golden_transaction.h).
#include "golden/golden_transaction.h"

#include <dirent.h>
#include <fcntl.h>
#include <sys/file.h>
#include <sys/stat.h>
#include <sys/sysmacros.h>
#include <unistd.h>

#include <algorithm>
#include <cerrno>
#include <chrono>
#include <cstdlib>
#include <cstring>
#include <fstream>
#include <sstream>
#include <thread>

#include "base/error.h"
#include "base/files.h"

namespace harness {

namespace {

// rm -rf of a directory tree this module created (files and subdirectories only).
void remove_tree(const std::string &path) {
    if (DIR *d = opendir(path.c_str())) {
        while (dirent *e = readdir(d)) {
            const std::string name = e->d_name;
            if (name == "." || name == "..") continue;
            const std::string p = path + "/" + name;
            if (is_dir(p))
                remove_tree(p);
            else
                unlink(p.c_str());
        }
        closedir(d);
    }
    rmdir(path.c_str());
}

void fsync_dir(const std::string &dir) {
    const int fd = open(dir.c_str(), O_RDONLY | O_DIRECTORY | O_CLOEXEC);
    if (fd >= 0) {
        fsync(fd);
        close(fd);
    }
}

// Step 3: moves every committed file into place, the manifest last. Idempotent.
void apply_commit(const std::string &dir) {
    const std::string commit = dir + "/" + kBlessCommitDir;
    std::vector<std::string> files = list_files_below(commit);
    std::stable_partition(files.begin(), files.end(), [](const std::string &f) { return f != "MANIFEST.json"; });
    for (const auto &f : files) {
        const std::string target = dir + "/" + f;
        if (const int e = make_dirs(target.substr(0, target.rfind('/')))) {
            throw Error("cannot create the directory of " + target + ": " + std::strerror(e) +
                        "; make the golden dir writable and run `aot-harness golden recover`");
        }
        if (rename((commit + "/" + f).c_str(), target.c_str()) != 0) {
            throw Error("cannot move " + commit + "/" + f + " to " + target + ": " + std::strerror(errno) +
                        "; make the golden dir writable and run `aot-harness golden recover`");
        }
    }
    fsync_dir(dir);
    remove_tree(commit);
}

}  // namespace

long golden_lock_holder(const std::string &dir) {
    struct stat st;
    if (stat(dir.c_str(), &st) != 0) return 0;
    // /proc/locks: "1: FLOCK  ADVISORY  WRITE 1234 08:01:5678 0 EOF" (device in hex, inode decimal).
    std::ifstream locks("/proc/locks");
    for (std::string line; std::getline(locks, line);) {
        std::istringstream words(line);
        std::string id, kind, mode, access, dev_inode;
        long pid = 0;
        if (!(words >> id >> kind)) continue;
        if (kind == "->") words >> kind;  // a waiter
        if (!(words >> mode >> access >> pid >> dev_inode) || kind != "FLOCK") continue;
        unsigned maj = 0, min = 0;
        unsigned long long ino = 0;
        if (std::sscanf(dev_inode.c_str(), "%x:%x:%llu", &maj, &min, &ino) == 3 && ino == st.st_ino &&
            maj == major(st.st_dev) && min == minor(st.st_dev)) {
            return pid;
        }
    }
    return 0;
}

GoldenLock::GoldenLock(const std::string &dir, double wait_s) {
    if (const int e = make_dirs(dir)) {
        throw Error("cannot create the golden dir " + dir + ": " + std::strerror(e) +
                    "; choose a writable --golden-dir");
    }
    fd_ = open(dir.c_str(), O_RDONLY | O_DIRECTORY | O_CLOEXEC);
    if (fd_ < 0) throw Error("cannot open the golden dir " + dir + " to lock it: " + std::strerror(errno));
    const auto deadline = std::chrono::steady_clock::now() + std::chrono::duration<double>(wait_s);
    while (flock(fd_, LOCK_EX | LOCK_NB) != 0) {
        const int err = errno;
        if (err == EINTR) continue;
        if (err != EWOULDBLOCK) {
            close(fd_);
            throw Error("cannot lock the golden dir " + dir + ": " + std::strerror(err) +
                        "; use a golden dir on a local file system");
        }
        if (std::chrono::steady_clock::now() >= deadline) {
            close(fd_);
            const long pid = golden_lock_holder(dir);
            throw Error(std::string("bless already running (") +
                        (pid > 0 ? "pid " + std::to_string(pid) : "pid unknown") + ") on " + dir +
                        "; wait for it to finish, or pass --wait SECONDS");
        }
        std::this_thread::sleep_for(std::chrono::milliseconds(50));
    }
}

GoldenLock::~GoldenLock() {
    if (fd_ >= 0) close(fd_);  // releases the lock
}

std::string recover_interrupted_bless(const std::string &dir) {
    std::string what;
    if (is_dir(dir + "/" + kBlessCommitDir)) {
        apply_commit(dir);
        what = "completed an interrupted bless in " + dir;
    }
    if (is_dir(dir + "/" + kBlessStagingDir)) {
        remove_tree(dir + "/" + kBlessStagingDir);
        if (what.empty()) what = "discarded an interrupted bless in " + dir + " (the old goldens stand)";
    }
    return what;
}

std::string interrupted_bless_note(const std::string &dir) {
    if (is_dir(dir + "/" + kBlessCommitDir)) {
        return "note: a bless was interrupted after its commit point (the new goldens are read through); "
               "`aot-harness golden recover` finishes it";
    }
    if (is_dir(dir + "/" + kBlessStagingDir)) {
        return "note: a bless was interrupted before its commit point (the old goldens stand); "
               "`aot-harness golden recover` removes what it left";
    }
    return "";
}

void commit_goldens(const std::string &dir, const std::vector<std::pair<std::string, std::string>> &files,
                    const Manifest &manifest) {
    recover_interrupted_bless(dir);
    const std::string staging = dir + "/" + kBlessStagingDir;
    if (const int e = make_dirs(staging)) {
        throw Error("cannot create " + staging + ": " + std::strerror(e) + "; make the golden dir writable");
    }
    // A failure is reported with its cause; when the staging tree vanished, the cause is another
    // process (the lock keeps other blesses out, so something else is deleting in the golden dir).
    auto staging_gone = [&](const std::string &what) {
        return Error("the bless staging directory " + staging + " was removed by another process while " + what +
                     "; stop whatever deletes files in " + dir + " and bless again (nothing was changed)");
    };
    try {
        for (const auto &[rel, bytes] : files) {
            const std::string path = staging + "/" + rel;
            if (const int e = make_dirs(path.substr(0, path.rfind('/')))) {
                if (!is_dir(staging)) throw staging_gone("writing " + rel);
                throw Error("cannot create a directory for " + path + ": " + std::strerror(e) +
                            "; make the golden dir writable");
            }
            write_file_atomic(path, bytes);
        }
        write_file_atomic(staging + "/MANIFEST.json", manifest.text());
    } catch (const Error &e) {
        if (!is_dir(staging)) throw staging_gone("writing the new goldens");
        remove_tree(staging);
        throw Error(std::string(e.what()) + " (nothing in " + dir + " was changed)");
    }
    fsync_dir(staging);
    if (rename(staging.c_str(), (dir + "/" + kBlessCommitDir).c_str()) != 0) {
        const int err = errno;
        if (!is_dir(staging)) throw staging_gone("committing");
        remove_tree(staging);
        throw Error("cannot commit the new goldens in " + dir + ": renaming " + staging + ": " + std::strerror(err) +
                    "; make the golden dir writable (nothing was changed)");
    }
    fsync_dir(dir);
    // Test hook (bless_concurrency_test.sh): hold still after the commit point, so that a kill lands
    // there for certain.
    if (const char *ms = std::getenv("HARNESS_TEST_BLESS_PAUSE_AFTER_COMMIT_MS")) {
        std::this_thread::sleep_for(std::chrono::milliseconds(std::atol(ms)));
    }
    apply_commit(dir);
}

}  // namespace harness
