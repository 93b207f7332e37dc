// Temporary directories removed on every exit path, signals included (temp_dir.h).
#include "base/temp_dir.h"

#include <dirent.h>
#include <fcntl.h>
#include <sys/syscall.h>
#include <time.h>
#include <unistd.h>

#include <atomic>
#include <cerrno>
#include <climits>
#include <cstdlib>
#include <cstring>

#include "base/error.h"

namespace harness {

namespace {

constexpr int kSlots = 64;
// Paths the signal handler may read at any moment: a slot is written, then published by `live`.
char g_paths[kSlots][PATH_MAX];
std::atomic<bool> g_live[kSlots];
std::atomic<bool> g_taken[kSlots];

struct linux_dirent64 {
    ino64_t d_ino;
    off64_t d_off;
    unsigned short d_reclen;
    unsigned char d_type;
    char d_name[];
};

// Empties the directory open as `dir_fd` and its subdirectories (at most `depth` levels below) with
// getdents64/unlinkat only: no allocation, safe in a signal handler.
void empty_dir(int dir_fd, int depth) {
    alignas(linux_dirent64) char buf[4096];
    for (int removed = 1; removed > 0;) {  // again while a pass removed something (entries may move)
        removed = 0;
        lseek(dir_fd, 0, SEEK_SET);
        for (long n; (n = syscall(SYS_getdents64, dir_fd, buf, sizeof buf)) > 0;) {
            for (long off = 0; off < n;) {
                const auto *e = reinterpret_cast<const linux_dirent64 *>(buf + off);
                off += e->d_reclen;
                const char *name = e->d_name;
                if (name[0] == '.' && (name[1] == 0 || (name[1] == '.' && name[2] == 0))) continue;
                if (unlinkat(dir_fd, name, 0) == 0) {
                    removed++;
                    continue;
                }
                if ((errno != EISDIR && errno != EPERM) || depth == 0) continue;
                const int sub = openat(dir_fd, name, O_RDONLY | O_DIRECTORY | O_NOFOLLOW | O_CLOEXEC);
                if (sub < 0) continue;
                empty_dir(sub, depth - 1);
                close(sub);
                removed += unlinkat(dir_fd, name, AT_REMOVEDIR) == 0;
            }
        }
    }
}

// Removes `path` and what is below it; retries for a short while (a child killed a moment ago may
// still be closing a file it writes there). Returns whether the directory is gone.
bool remove_tree(const char *path) {
    for (int attempt = 0; attempt < 100; attempt++) {
        const int fd = open(path, O_RDONLY | O_DIRECTORY | O_NOFOLLOW | O_CLOEXEC);
        if (fd < 0) return errno == ENOENT;
        empty_dir(fd, 8);
        close(fd);
        if (rmdir(path) == 0 || errno == ENOENT) return true;
        const timespec ts{0, 10 * 1000 * 1000};
        nanosleep(&ts, nullptr);
    }
    return false;
}

}  // namespace

std::string temp_root() {
    const char *t = std::getenv("TMPDIR");
    return t && *t ? t : "/tmp";
}

TempDir::TempDir(const std::string &prefix) {
    std::string tmpl = temp_root() + "/" + prefix + ".XXXXXX";
    if (tmpl.size() >= PATH_MAX)
        throw Error("TMPDIR " + temp_root() + " is too long a path; set TMPDIR to a short one");
    if (!mkdtemp(tmpl.data())) {
        throw Error("cannot create a temporary directory in " + temp_root() + ": " + std::strerror(errno) +
                    "; set TMPDIR to a writable directory with free space");
    }
    path_ = tmpl;
    for (int i = 0; i < kSlots; i++) {
        bool expected = false;
        if (!g_taken[i].compare_exchange_strong(expected, true)) continue;
        std::strncpy(g_paths[i], path_.c_str(), PATH_MAX - 1);
        g_paths[i][PATH_MAX - 1] = 0;
        g_live[i].store(true);
        slot_ = i;
        break;
    }
}

TempDir::~TempDir() {
    remove();
}

void TempDir::remove() {
    if (path_.empty()) return;
    if (slot_ >= 0) g_live[slot_].store(false);
    remove_tree(path_.c_str());
    if (slot_ >= 0) g_taken[slot_].store(false);
    slot_ = -1;
    path_.clear();
}

void remove_temp_dirs_for_signal() {
    for (int i = 0; i < kSlots; i++) {
        if (g_live[i].load()) remove_tree(g_paths[i]);
    }
}

}  // namespace harness
