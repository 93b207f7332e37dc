// Batch supervisor: runs several cases, one after another, in one child process (`aot-harness
// __run-batch`), so that process start, device context creation and kernel compilation are paid once
// per batch instead of once per case. The child marks the start of case i (a file holding its output's
// byte offset) and writes case i's record when it is done; it stops after a case that does not PASS,
// other than its first (a first case runs as a lone child's does). The supervisor times each case from its start
// marker, kills the group when one case runs past the time limit, and says where the batch ended; run_batch
// (run_batch.h) decides what to re-run alone so that every verdict is the one a child of its own would give.
#pragma once
#include <string>
#include <vector>

#include "base/outcome.h"

namespace harness {

struct BatchCommand {
    std::vector<std::string> argv;  // the child command line (`exe __run-batch ... --record PREFIX`)
    std::string record_prefix;      // the child writes PREFIX.<i>.start and PREFIX.<i>.json
    std::string output_path;        // the child's stdout + stderr
    double timeout_s = 60;          // per case, from its start marker
    size_t cases = 0;
};

struct BatchEnd {
    enum Kind {
        Finished,    // every record written, then a clean exit (code 0)
        Stopped,     // the child stopped after a record that is not PASS (the last in `records`), clean exit
        DiedAtExit,  // every record written, then a signal, a non-zero exit or a hang during exit
        Crashed,     // died (signal or exit) during case `at`: no record for it
        TimedOut,    // case `at` ran past the time limit: the group was killed
        NoStart,     // no case started (exec failed, the child died during start-up)
    };
    Kind kind = NoStart;
    size_t at = 0;       // the case it crashed or timed out in (= records.size())
    std::string detail;  // "Segmentation fault", "exit code 3", ...
    // The records of the cases that finished, in order: stderr_tail is the case's own part of the
    // output, duration_ms the time from its start marker to its record (case 0: from the fork).
    std::vector<RunRecord> records;
    std::string output_tail;  // the tail of the output after the last record (the crashing case's part)
    double elapsed_ms = 0;    // since the start marker of case `at` (TimedOut, Crashed)
};

BatchEnd supervise_batch(const BatchCommand &cmd);

}  // namespace harness
