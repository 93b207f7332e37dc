// The parent/child protocol of `run`, in one place: what a child of the run matrix is asked (ChildCall),
// the command line that says it (child_words, written by run_matrix/run_batch), how the child reads it
// back (read_child_call, the hidden commands __run-one and __run-batch), the option rows of those
// commands, and the files a batch child writes for its supervisor. The child answers through record
// files (RunRecord JSON) and its exit code (supervisor.h, batch_supervisor.h).
//
//   exe __run-one   --pipeline P --profile T --case C --mode M --record FILE  <common>
//   exe __run-batch --tasks FILE --record PREFIX                              <common>
//   <common> = --golden-dir DIR --repeats N --shape-cache DIR [--artifacts DIR] [--device NAME]
//              [--no-device-release]
//
// The tasks file of a batch is a JSON list of [pipeline, profile, case, mode]; the batch child marks case
// i's start in PREFIX.<i>.start (its output's byte offset) and writes its record to PREFIX.<i>.json.
#pragma once
#include <string>
#include <vector>

#include "base/args.h"
#include "run/runner.h"

namespace harness {

// What one child of `run` is asked: one case (__run-one) or several in order (__run-batch).
struct ChildCall {
    bool batch = false;
    std::vector<RunRequest> cases;  // golden_dir, artifacts_dir and repeats are the same in every case
    std::string record;             // __run-one: the record file; __run-batch: the records' prefix
    std::string tasks_file;         // __run-batch: where the cases are written
    std::string device;             // the device personality to activate ("" = none)
    std::string shape_cache;        // the settled shapes of derived specs (shape_query.h; "" = none)
    bool release_device = true;     // false: --no-device-release
};

// The --repeats row: `run` shows it, its children read it; the default and the range are said here only.
const OptionSpec &repeats_option();
// The option rows of __run-one and __run-batch.
const std::vector<OptionSpec> &child_options(bool batch);
const char *child_command(bool batch);

// The words after the executable for `call` (the command first). A batch's cases are written to its
// tasks_file now. Throws Error when the tasks file cannot be written.
std::vector<std::string> child_words(const ChildCall &call);
// The child side: `args` as parsed with child_options(); a batch's cases are read from its tasks file.
// Throws Error naming what is malformed.
ChildCall read_child_call(const Args &args);

// A batch child's files for case i: its start marker and its record.
std::string batch_start_file(const std::string &prefix, size_t i);
std::string batch_record_file(const std::string &prefix, size_t i);

}  // namespace harness
