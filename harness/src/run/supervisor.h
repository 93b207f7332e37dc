// Supervisor: runs one case in a child process (its own process group) and classifies what it sees
// (the outcome table, outcome.h). The child writes its verified record to a file and exits normally.
#pragma once
#include <sys/types.h>

#include <functional>
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
// The same of a string.
std::string text_tail(std::string text, size_t max_bytes = 2048);

// One child process: argv[0] executed in its own process group with stdout and stderr to
// `output_path`, killed (SIGKILL) when the forking process dies or `run` is interrupted (interrupt.h).
// The destructor kills and reaps a child that was not waited for.
class ChildProcess {
public:
    ChildProcess(const std::vector<std::string> &argv, const std::string &output_path);
    ~ChildProcess();
    ChildProcess(const ChildProcess &) = delete;
    ChildProcess &operator=(const ChildProcess &) = delete;
    bool started() const { return pid_ > 0; }
    const std::string &error() const { return error_; }  // why it did not start
    // Waits for the child, calling `should_kill` every 2 ms: when it returns true the whole group is
    // killed. Afterwards the group's leftovers are killed too. Returns whether it was killed.
    bool wait(const std::function<bool()> &should_kill);
    int status() const { return status_; }  // waitpid's status, after wait()
    double elapsed_ms() const;              // since the start (until the end, after wait())

private:
    pid_t pid_ = -1;
    int status_ = 0;
    bool reaped_ = false;
    double start_ms_ = 0, elapsed_ms_ = 0;
    std::string error_;
};

}  // namespace harness
