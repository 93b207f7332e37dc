// Human-readable reports of a results file (the JSON `aot-harness run --json` writes).
//
// It renders the records of a RunResults (results.h).
#pragma once
#include <string>

#include "harness/results.h"

namespace harness {

// Writes `dir`/index.html: a self-contained page (inline CSS, no external assets) with the summary
// counts, the pipeline x profile grid (one cell per case, coloured by outcome, worst outcome first),
// a table of every run with its message, metrics and stderr tail, and the environment. Creates `dir`
// if needed; throws Error naming the directory if it cannot be written.
void write_html_report(const RunResults &results, const std::string &dir);

}  // namespace harness
