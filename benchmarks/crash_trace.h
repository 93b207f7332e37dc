// A fatal signal in pipeline-benchmarks (SIGSEGV, SIGBUS, SIGFPE, SIGILL, SIGABRT) prints, before the
// process dies of it, the benchmark that was running (or "at exit" / "before the first benchmark"),
// the raw stack (backtrace_symbols_fd: library+offset frames) and the executable mappings, so that a
// crash on a lent device machine says in which library and function it happened (addr2line on the
// unstripped binary resolves our own frames).
#pragma once
#include <string>

namespace bench {

// Installs the handlers (once, from main).
void install_crash_trace();
// The benchmark now running ("" between benchmarks); copied into a fixed buffer (signal-safe to read).
void set_running(const std::string &name);
// From here on a crash is reported as "at exit".
void mark_exiting();

}  // namespace bench
