// Supervisor: runs one case in a child process (its own process group) and classifies what it sees
// (the outcome table, outcome.h). The child writes its verified record to a file and exits normally.
#pragma once
#include <string>
#include <vector>

#include "base/outcome.h"

namespace harness {

struct ChildCommand {
    std::vector<std::string> argv;  // argv[0] is the executable path
    double timeout_s = 60;
    std::string record_path;  // the child writes its RunRecord JSON here
    std::string stderr_path;  // the child's stdout+stderr go here
    // POSIX extended regex (output_pattern.h): a PASS or TEARDOWN_FAULT whose output has a matching line becomes FAIL
    // naming the line (used for oclgrind's memory, race and uninitialised-read reports). "" = off.
    std::string fail_on_output;
};

// Runs the child and returns its classified record:
//   timed out                                  -> TIMEOUT (whole process group killed)
//   signal, no record                          -> CRASH
//   record, then a signal or an exit code that
//   does not match the recorded outcome        -> TEARDOWN_FAULT (record's metrics kept,
//                                                 result_outcome = what it recorded)
//   record and matching exit code              -> the recorded outcome
//   exit without a record                      -> ERROR
// `identity` supplies pipeline/profile/case/mode for records the child did not write.
RunRecord supervise(const RunRecord &identity, const ChildCommand &cmd);

// Last `max_bytes` of a file, trimmed to whole lines ("" if unreadable).
std::string file_tail(const std::string &path, size_t max_bytes = 2048);

}  // namespace harness
