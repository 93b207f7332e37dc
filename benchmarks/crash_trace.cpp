// The fatal-signal report of pipeline-benchmarks (crash_trace.h).
#include "crash_trace.h"

#include <execinfo.h>
#include <fcntl.h>
#include <signal.h>
#include <ucontext.h>
#include <unistd.h>

#include <cstdint>
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

void say_hex(const char *label, uintptr_t v) {
    char buf[2 + 16 + 1];
    buf[0] = '0', buf[1] = 'x';
    for (int i = 0; i < 16; i++)
        buf[2 + i] = "0123456789abcdef"[(v >> (60 - 4 * i)) & 0xf];
    buf[18] = '\0';
    say(label);
    say(buf);
}

uintptr_t program_counter(void *context) {
    const auto *uc = static_cast<const ucontext_t *>(context);
#if defined(__x86_64__)
    return static_cast<uintptr_t>(uc->uc_mcontext.gregs[REG_RIP]);
#elif defined(__aarch64__)
    return static_cast<uintptr_t>(uc->uc_mcontext.pc);
#else
    (void)uc;
    return 0;
#endif
}

void say_maps() {
    const int fd = open("/proc/self/maps", O_RDONLY);
    if (fd < 0) return;
    char buf[4096];
    ssize_t got;
    say("mappings (/proc/self/maps; offset in the file = pc - start + offset):\n");
    while ((got = read(fd, buf, sizeof buf)) > 0) {
        ssize_t r = write(STDERR_FILENO, buf, static_cast<size_t>(got));
        (void)r;
    }
    close(fd);
}

// The faulting pc and address and the mappings first: they need no unwinding, which itself faulted on
// NVIDIA's Vulkan exit crash (the report stopped after its first line).
void on_fatal(int sig, siginfo_t *info, void *context) {
    say("\npipeline-benchmarks: fatal signal ");
    say(strsignal(sig));
    say(" in ");
    say(g_running);
    say_hex("\n  pc ", program_counter(context));
    say_hex(" address ", reinterpret_cast<uintptr_t>(info->si_addr));
    say("\n");
    say_maps();
    say("stack:\n");
    void *frames[64];
    const int n = backtrace(frames, 64);
    backtrace_symbols_fd(frames, n, STDERR_FILENO);
    raise(sig);  // SA_RESETHAND: the default action now
}

}  // namespace

void install_crash_trace() {
    // backtrace() loads libgcc_s on its first call, which a signal handler must not do (at exit, with
    // the libraries being torn down, the H100 run's first report died there): load it now.
    void *frame[1];
    backtrace(frame, 1);
    struct sigaction sa {};
    sa.sa_sigaction = on_fatal;
    sa.sa_flags = SA_SIGINFO | SA_RESETHAND;
    sigemptyset(&sa.sa_mask);
    for (int sig : {SIGSEGV, SIGBUS, SIGFPE, SIGILL, SIGABRT})
        sigaction(sig, &sa, nullptr);
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
