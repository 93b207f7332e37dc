// SIGINT/SIGTERM during `run` (interrupt.h): the running children's process groups are killed, then run exits.
#include "run/interrupt.h"

#include <signal.h>

#include <atomic>
#include <initializer_list>

#include "base/temp_dir.h"

namespace harness {

namespace {

constexpr int kSlots = 4096;  // more than --jobs allows (1024)
std::atomic<pid_t> g_children[kSlots];

void on_signal(int sig) {
    for (auto &c : g_children) {
        const pid_t p = c.load();
        if (p > 0) kill(-p, SIGKILL);
    }
    remove_temp_dirs_for_signal();  // the children's record files are in it
    signal(sig, SIG_DFL);
    raise(sig);
}

}  // namespace

void install_interrupt_cleanup() {
    static std::atomic<bool> done{false};
    if (done.exchange(true)) return;
    struct sigaction sa {};
    sa.sa_handler = on_signal;
    sigemptyset(&sa.sa_mask);
    for (const int sig : {SIGINT, SIGTERM}) {
        struct sigaction old {};
        sigaction(sig, nullptr, &old);
        if (old.sa_handler != SIG_IGN) sigaction(sig, &sa, nullptr);  // ignored (a background job's SIGINT) stays so
    }
}

void track_child(pid_t pgid) {
    for (auto &c : g_children) {
        pid_t empty = 0;
        if (c.compare_exchange_strong(empty, pgid)) return;
    }
}

void untrack_child(pid_t pgid) {
    for (auto &c : g_children) {
        pid_t p = pgid;
        if (c.compare_exchange_strong(p, 0)) return;
    }
}

}  // namespace harness
