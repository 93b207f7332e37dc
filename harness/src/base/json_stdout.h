// stdout as a channel that carries one JSON document and nothing else (`list --json`, `run --json -`, ...).
#pragma once
#include <string>

namespace harness {

// Moves this process's stdout (fd 1) to a private close-on-exec descriptor and points fd 1 at stderr,
// for the rest of the process: whatever else prints on stdout (Halide's runtime errors and print(), a
// pipeline's or a driver's own output, a forked trial or probe, an exec'd child) lands on stderr, and
// only write_json_stdout() reaches the caller's stdout. Idempotent; stdio buffers are flushed first.
void reserve_stdout_for_json();
// True once reserve_stdout_for_json() has run.
bool stdout_reserved_for_json();
// Writes `text` to the caller's stdout: the reserved descriptor, else fd 1. Throws Error when the
// write fails (a closed pipe, a full disk), so that a truncated document never exits 0.
void write_json_stdout(const std::string &text);

}  // namespace harness
