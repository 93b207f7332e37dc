// Human-readable reports of a results file (the JSON `aot-harness run --json` writes).
//
// It renders the records of a RunResults (results.h).
#pragma once
#include <string>

#include "report/results.h"

namespace harness {

// Writes `dir`/index.html: a self-contained page (inline CSS, a few lines of script, images linked
// as the records give their paths) with the summary counts; failures and regressions first, each in
// full (labelled metrics, the worst pixel of each image output with an 8x crop of golden / output /
// diff, call times, stderr); the pipeline x profile grid; passes, skips and XFAILs folded to one line
// per pipeline x profile with a per-case timing chart; and the environment. Creates `dir` if needed;
// throws Error naming the directory if it cannot be written.
void write_html_report(const RunResults &results, const std::string &dir);

}  // namespace harness
