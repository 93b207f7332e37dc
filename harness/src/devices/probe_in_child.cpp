// probe_in_child(): the fork, the pipe and the child's _exit() shared by every device probe.
#include "devices/probe_in_child.h"

#include <poll.h>
#include <sys/wait.h>
#include <unistd.h>

#include <cerrno>
#include <cstring>
#include <string>

namespace harness {

// Runs `fn` in a forked child and returns the JSON it produced; a child that dies or prints
// garbage becomes {"error": ...}. Only async-signal-safe work happens in the parent.
nlohmann::json probe_in_child(const std::function<nlohmann::json()> &fn, const char *what) {
    int fds[2];
    if (pipe(fds) != 0) return {{"error", std::string("pipe failed: ") + std::strerror(errno)}};
    const pid_t pid = fork();
    if (pid < 0) {
        close(fds[0]);
        close(fds[1]);
        return {{"error", std::string("fork failed: ") + std::strerror(errno)}};
    }
    if (pid == 0) {
        close(fds[0]);
        std::string out;
        try {
            out = fn().dump();
        } catch (const std::exception &e) {
            out = nlohmann::json{{"error", e.what()}}.dump();
        }
        const char *p = out.data();
        size_t left = out.size();
        while (left > 0) {
            const ssize_t n = write(fds[1], p, left);
            if (n <= 0) break;
            p += n;
            left -= static_cast<size_t>(n);
        }
        _exit(0);  // no atexit handlers, no driver teardown
    }
    close(fds[1]);
    std::string text;
    char buf[4096];
    ssize_t n;
    while ((n = read(fds[0], buf, sizeof buf)) > 0)
        text.append(buf, static_cast<size_t>(n));
    close(fds[0]);
    int status = 0;
    waitpid(pid, &status, 0);
    if (WIFSIGNALED(status)) {
        return {{"error", std::string(what) + " probe died with signal " + strsignal(WTERMSIG(status))}};
    }
    try {
        return nlohmann::json::parse(text);
    } catch (const nlohmann::json::exception &) {
        return {{"error", std::string(what) + " probe produced no result"}};
    }
}

}  // namespace harness
