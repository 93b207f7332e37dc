// The fatal-signal report of pipeline-benchmarks (crash_trace.h).
#include "crash_trace.h"

#include <execinfo.h>
#include <fcntl.h>
#include <signal.h>
#include <unistd.h>

#include <cstdio>
#include <cstdlib>
#include <cstring>

namespace bench {
namespace {

char g_running[256] = "before the first benchmark";

void say(const char *s) {
    ssize_t r = write(STDERR_FILENO, s, std::strlen(s));
    (void)r;
}

void on_fatal(int sig) {
    say("\npipeline-benchmarks: fatal signal ");
    say(strsignal(sig));
    say(" in ");
    say(g_running);
    say("\n");
    void *frames[64];
    const int n = backtrace(frames, 64);
    backtrace_symbols_fd(frames, n, STDERR_FILENO);
    // The executable mappings, for addr2line (offset = address - start + file offset).
    const int fd = open("/proc/self/maps", O_RDONLY);
    if (fd >= 0) {
        char buf[4096];
        ssize_t got;
        say("mappings (/proc/self/maps):\n");
        while ((got = read(fd, buf, sizeof buf)) > 0) {
            ssize_t r = write(STDERR_FILENO, buf, static_cast<size_t>(got));
            (void)r;
        }
        close(fd);
    }
    signal(sig, SIG_DFL);
    raise(sig);
}

}  // namespace

void install_crash_trace() {
    // backtrace() loads libgcc_s on its first call, which a signal handler must not do (at exit, with
    // the libraries being torn down, the H100 run's first report died there): load it now.
    void *frame[1];
    backtrace(frame, 1);
    for (int sig : {SIGSEGV, SIGBUS, SIGFPE, SIGILL, SIGABRT})
        signal(sig, on_fatal);
}

void set_running(const std::string &name) {
    std::strncpy(g_running, name.empty() ? "between benchmarks" : name.c_str(), sizeof g_running - 1);
}

void exit_without_teardown(int rc) {
    std::strncpy(g_running, "at exit", sizeof g_running - 1);
    std::fflush(nullptr);
    std::_Exit(rc);
}

}  // namespace bench
