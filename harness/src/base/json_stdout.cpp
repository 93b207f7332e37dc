// stdout reserved for JSON (json_stdout.h): fd 1 becomes stderr, the real stdout a private descriptor.
#include "base/json_stdout.h"

#include <fcntl.h>
#include <unistd.h>

#include <cerrno>
#include <cstdio>
#include <cstring>
#include <iostream>

#include "base/error.h"

namespace harness {

namespace {

int json_fd = -1;  // the caller's stdout once reserved

}  // namespace

void reserve_stdout_for_json() {
    if (json_fd >= 0) return;
    std::cout.flush();
    std::fflush(stdout);
    // Above the standard descriptors and close-on-exec: no child, exec'd or forked and exec'ing, holds it.
    const int saved = fcntl(STDOUT_FILENO, F_DUPFD_CLOEXEC, 3);
    if (saved < 0) {
        throw Error(std::string("cannot keep stdout for the JSON: ") + std::strerror(errno) +
                    "; run with stdout open (a file or a pipe)");
    }
    if (dup2(STDERR_FILENO, STDOUT_FILENO) < 0) {
        // No stderr to send the rest to: nothing else may print at all.
        const int null_fd = open("/dev/null", O_WRONLY | O_CLOEXEC);
        if (null_fd < 0 || dup2(null_fd, STDOUT_FILENO) < 0) {
            close(saved);
            throw Error(std::string("cannot keep stdout for the JSON: ") + std::strerror(errno) +
                        "; run with stderr open");
        }
        close(null_fd);
    }
    json_fd = saved;
}

bool stdout_reserved_for_json() {
    return json_fd >= 0;
}

void write_json_stdout(const std::string &text) {
    std::cout.flush();
    std::fflush(stdout);
    const int fd = json_fd >= 0 ? json_fd : STDOUT_FILENO;
    const char *p = text.data();
    size_t left = text.size();
    while (left > 0) {
        const ssize_t n = write(fd, p, left);
        if (n < 0 && errno == EINTR) continue;
        if (n <= 0) {
            throw Error(std::string("cannot write the JSON to stdout: ") +
                        (n < 0 ? std::strerror(errno) : "no progress") +
                        "; keep the reader of stdout open until the command ends");
        }
        p += n;
        left -= static_cast<size_t>(n);
    }
}

}  // namespace harness
