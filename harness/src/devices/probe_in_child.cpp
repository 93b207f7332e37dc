// probe_in_child(): the fork, the pipe and the child's _exit() shared by every device probe.
#include "devices/probe_in_child.h"

#include <poll.h>
#include <sys/wait.h>
#include <unistd.h>

#include <cerrno>
#include <cstring>
#include <string>

namespace harness {

namespace {

// Forks a child that runs `fn` and writes its JSON to a pipe; the read end in *fd. {"error": ...} if the
// fork or the pipe failed (then *pid is -1).
nlohmann::json start_child(const std::function<nlohmann::json()> &fn, int *pid, int *fd) {
    *pid = -1;
    int fds[2];
    if (pipe(fds) != 0) return {{"error", std::string("pipe failed: ") + std::strerror(errno)}};
    const pid_t child = fork();
    if (child < 0) {
        close(fds[0]);
        close(fds[1]);
        return {{"error", std::string("fork failed: ") + std::strerror(errno)}};
    }
    if (child == 0) {
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
    *pid = child;
    *fd = fds[0];
    return nullptr;
}

// Reads the child's JSON to the end and reaps it; a child that dies or prints garbage becomes {"error": ...}.
// Only async-signal-safe work happens in the parent.
nlohmann::json finish_child(int pid, int fd, const char *what) {
    std::string text;
    char buf[4096];
    ssize_t n;
    while ((n = read(fd, buf, sizeof buf)) > 0)
        text.append(buf, static_cast<size_t>(n));
    close(fd);
    int status = 0;
    waitpid(pid, &status, 0);
    if (WIFSIGNALED(status)) {
        return {{"error", std::string(what) + " probe died with signal " + strsignal(WTERMSIG(status))},
                {"signal", WTERMSIG(status)}};
    }
    try {  // the devices layer stands below base's JSON reader; a probe's pipe is this build's own output
        return nlohmann::json::parse(text);
    } catch (const nlohmann::json::exception &) {
        return {{"error", std::string(what) + " probe produced no result"}};
    }
}

}  // namespace

nlohmann::json probe_in_child(const std::function<nlohmann::json()> &fn, const char *what) {
    int pid = -1, fd = -1;
    nlohmann::json failed = start_child(fn, &pid, &fd);
    return pid < 0 ? failed : finish_child(pid, fd, what);
}

void ProbeOnce::start_locked() {
    if (done_ || pid_ >= 0) return;
    result_ = start_child(fn_, &pid_, &fd_);
    done_ = pid_ < 0;  // the fork failed: that is the result
}

void ProbeOnce::start() {
    const std::lock_guard<std::mutex> lock(m_);
    start_locked();
}

const nlohmann::json &ProbeOnce::get() {
    const std::lock_guard<std::mutex> lock(m_);
    start_locked();
    if (!done_) {
        result_ = finish_child(pid_, fd_, what_);
        done_ = true;
        pid_ = fd_ = -1;
    }
    return result_;
}

}  // namespace harness
