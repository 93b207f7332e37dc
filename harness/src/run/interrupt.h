// Interrupting `run`: the supervisor's children have process groups of their own (so that a timeout
// kills a child's helpers too), which the terminal's Ctrl-C does not reach. With --jobs N, up to N of
// them run at once; on SIGINT or SIGTERM `run` kills the group of every running child, removes its temp
// directories (temp_dir.h), then dies of the same signal. Lock-free, async-signal-safe bookkeeping.
#pragma once
#include <sys/types.h>

namespace harness {

// Installs the SIGINT and SIGTERM handlers (once; a signal this process ignores stays ignored).
void install_interrupt_cleanup();
// A child (its pid = its process group) is running / has been reaped.
void track_child(pid_t pgid);
void untrack_child(pid_t pgid);

}  // namespace harness
