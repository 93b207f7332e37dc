// File helpers (files.h): whole-file reads, atomic writes, make_dirs, is_dir and recursive listings.
#include "base/files.h"

#include <dirent.h>
#include <fcntl.h>
#include <sys/stat.h>
#include <unistd.h>

#include <cerrno>
#include <cstring>

#include "base/error.h"

namespace harness {

namespace {

std::string errno_text() {
    return std::strerror(errno);
}

}  // namespace

// mkdir -p; returns 0 or the errno of the first failure (ENOTDIR when a component is not a directory).
int make_dirs(const std::string &path) {
    for (size_t i = 1; i <= path.size(); i++) {
        if (i != path.size() && path[i] != '/') continue;
        const std::string prefix = path.substr(0, i);
        if (mkdir(prefix.c_str(), 0755) == 0) continue;
        if (errno != EEXIST) return errno;
        struct stat st {};
        if (stat(prefix.c_str(), &st) != 0) return errno;
        if (!S_ISDIR(st.st_mode)) return ENOTDIR;
    }
    return 0;
}

namespace {

// Reads an open file to its end and closes it; throws Error naming `path`.
std::string read_fd(int fd, const std::string &path) {
    std::string out;
    char buf[1 << 16];
    while (true) {
        const ssize_t n = read(fd, buf, sizeof buf);
        if (n < 0 && errno == EINTR) continue;
        if (n < 0) {
            const std::string why = errno_text();
            close(fd);
            throw Error("cannot read " + path + ": " + why + "; check the path and its permissions");
        }
        if (n == 0) break;
        out.append(buf, size_t(n));
    }
    close(fd);
    return out;
}

}  // namespace

std::string read_file(const std::string &path) {
    const int fd = open(path.c_str(), O_RDONLY | O_CLOEXEC);
    if (fd < 0) throw Error("cannot read " + path + ": " + errno_text() + "; check the path and its permissions");
    return read_fd(fd, path);
}

bool read_file_if_exists(const std::string &path, std::string *bytes) {
    const int fd = open(path.c_str(), O_RDONLY | O_CLOEXEC);
    if (fd < 0 && (errno == ENOENT || errno == ENOTDIR)) return false;
    if (fd < 0) throw Error("cannot read " + path + ": " + errno_text() + "; check the path and its permissions");
    *bytes = read_fd(fd, path);
    return true;
}

void write_file_atomic(const std::string &path, const std::string &bytes) {
    const std::string tmp = path + ".tmp." + std::to_string(getpid());
    const size_t slash = path.rfind('/');
    const std::string dir = slash == std::string::npos ? "." : (slash == 0 ? "/" : path.substr(0, slash));
    // The fix follows the cause: a missing directory, no permission, no space.
    auto failure = [&](const std::string &step) {
        const int err = errno;
        std::string fix;
        if (err == ENOENT || err == ENOTDIR) {
            fix = "the directory " + dir + " does not exist (or another process removed it meanwhile); create it";
        } else if (err == EACCES || err == EPERM || err == EROFS) {
            fix = "make " + dir + " writable";
        } else if (err == ENOSPC || err == EDQUOT || err == EFBIG) {
            fix = "free space on its file system (or raise the file size limit)";
        } else {
            fix = "check " + dir;
        }
        return Error("cannot write " + path + ": " + step + ": " + std::strerror(err) + "; " + fix);
    };

    const int fd = open(tmp.c_str(), O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0666);
    if (fd < 0) throw failure("creating " + tmp);
    size_t done = 0;
    while (done < bytes.size()) {
        const ssize_t n = write(fd, bytes.data() + done, bytes.size() - done);
        if (n < 0 && errno == EINTR) continue;
        if (n < 0) {
            const Error e = failure("writing " + tmp);
            close(fd);
            unlink(tmp.c_str());
            throw e;
        }
        done += size_t(n);
    }
    if (fsync(fd) != 0) {
        const Error e = failure("fsync of " + tmp);
        close(fd);
        unlink(tmp.c_str());
        throw e;
    }
    if (close(fd) != 0) {
        const Error e = failure("closing " + tmp);
        unlink(tmp.c_str());
        throw e;
    }
    if (rename(tmp.c_str(), path.c_str()) != 0) {
        const Error e = failure("renaming " + tmp);
        unlink(tmp.c_str());
        throw e;
    }
    // Make the rename durable. Some file systems cannot fsync a directory (EINVAL): that is fine.
    const int dfd = open(dir.c_str(), O_RDONLY | O_DIRECTORY | O_CLOEXEC);
    if (dfd < 0) throw failure("opening directory " + dir + " to fsync it");
    if (fsync(dfd) != 0 && errno != EINVAL && errno != ENOTSUP) {
        const Error e = failure("fsync of directory " + dir);
        close(dfd);
        throw e;
    }
    close(dfd);
}

std::string self_exe_path() {
    char buf[4096];
    const ssize_t n = readlink("/proc/self/exe", buf, sizeof buf - 1);
    return n > 0 ? std::string(buf, static_cast<size_t>(n)) : std::string();
}

bool is_dir(const std::string &path) {
    struct stat st;
    return stat(path.c_str(), &st) == 0 && S_ISDIR(st.st_mode);
}

namespace {

void list_into(const std::string &root, const std::string &rel, const std::string &skip_top_prefix,
               std::vector<std::string> &out) {
    DIR *d = opendir((root + "/" + rel).c_str());
    if (!d) return;
    while (dirent *e = readdir(d)) {
        const std::string name = e->d_name;
        if (name == "." || name == "..") continue;
        if (rel.empty() && !skip_top_prefix.empty() && name.rfind(skip_top_prefix, 0) == 0) continue;
        const std::string r = rel.empty() ? name : rel + "/" + name;
        if (is_dir(root + "/" + r))
            list_into(root, r, skip_top_prefix, out);
        else
            out.push_back(r);
    }
    closedir(d);
}

}  // namespace

std::vector<std::string> list_files_below(const std::string &root, const std::string &skip_top_prefix) {
    std::vector<std::string> out;
    list_into(root, "", skip_top_prefix, out);
    return out;
}

}  // namespace harness
