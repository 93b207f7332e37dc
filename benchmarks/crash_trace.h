// A fatal signal in pipeline-benchmarks (SIGSEGV, SIGBUS, SIGFPE, SIGILL, SIGABRT) prints, before the
// process dies of it, the benchmark that was running (or "at exit" / "before the first benchmark"), the
// faulting pc and address, the mappings, then the raw stack (backtrace_symbols_fd), so that a
// crash on a lent device machine says in which library and function it happened (addr2line on the
// unstripped binary resolves our own frames); and how pipeline-benchmarks ends (exit_without_teardown).
#pragma once
#include <string>

namespace bench {

// Installs the handlers (once, from main).
void install_crash_trace();
// The benchmark now running ("" between benchmarks); copied into a fixed buffer (signal-safe to read).
void set_running(const std::string &name);
// Flushes stdout and stderr and ends the process with `rc` without running static destructors or
// library teardown: every process that used NVIDIA's Vulkan driver (580.159.04, the H100) dies with
// SIGSEGV in that teardown (golden/xfail.json's TEARDOWN_FAULT; pipeline-benchmarks initialises every
// runnable GPU runtime for its copy rooflines), which turned complete benchmark runs into exit code 139.
// The results (console, --benchmark_out) are written by then.
[[noreturn]] void exit_without_teardown(int rc);

}  // namespace bench
