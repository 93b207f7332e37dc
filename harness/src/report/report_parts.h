// Pieces of the HTML report shared by report.cpp (the page) and report_runs.cpp (how one run reads):
// private to the harness library.
#pragma once
#include <string>
#include <vector>

#include <nlohmann/json.hpp>

#include "base/outcome.h"

namespace harness {
namespace report_parts {

// One run, as the page needs it; `index` is its position in results.runs (its anchor is run-<index>).
struct RunView {
    size_t index;
    const RunRecord *rec;
    std::string pipeline, profile, case_name, mode, outcome;
};

// Severity of an outcome name (the outcome table's order; unknown names worst).
int name_rank(const std::string &name);

// Whether a run with this outcome belongs in "Failures and regressions" (anything but PASS, XFAIL, SKIP).
bool needs_attention(const std::string &outcome);

std::string format_double(double v, const char *fmt = "%.6g");
std::string duration_text(double ms);

// A coloured outcome chip.
std::string chip(const std::string &outcome, const std::string &text);

// "pipeline/profile/case" plus "/mode" when the page shows modes.
std::string run_label(const RunView &r, bool show_mode);

// The largest per-call time (ms) among `runs` (metrics.run_ms, else duration_ms): the timing charts' scale.
double max_call_ms(const std::vector<RunView> &runs);

// A failing run in full: outcome, message, labelled key metrics, the worst pixel of each output with
// an 8x crop of golden / output / diff around it, the images, the call times, stderr.
// Artifact paths under `link_base` (the report directory, absolute) become relative to it, so that the
// report directory can be moved or archived with its images.
std::string failure_card(const RunView &r, bool show_mode, double scale_ms, const std::string &link_base);

// Runs that need no attention, folded into one <details> line per pipeline x profile (`runs` sorted by
// pipeline and profile); each expands to a table with a per-case timing chart.
std::string folded_groups(const std::vector<RunView> &runs, bool show_mode, double scale_ms);

}  // namespace report_parts
}  // namespace harness
