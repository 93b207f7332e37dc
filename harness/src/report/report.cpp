// The HTML report page (report.h): summary, failures and regressions first, the grid, the environment.
#include "report/report.h"

#include "base/files.h"

#include <unistd.h>

#include <algorithm>
#include <set>
#include <cctype>
#include <climits>
#include <cstdlib>
#include <cerrno>
#include <cstdio>
#include <cstring>
#include <ctime>
#include <map>
#include <vector>

#include "report/environment.h"
#include "base/error.h"
#include "base/outcome.h"
#include "report/html.h"
#include "report/report_parts.h"
#include "report/report_style.h"

namespace harness {

namespace report_parts {

using nlohmann::json;

int name_rank(const std::string &name) {
    return outcome_name_severity(name);
}

bool needs_attention(const std::string &outcome) {
    return outcome != "PASS" && outcome != "XFAIL" && outcome != "SKIP";
}

std::string format_double(double v, const char *fmt) {
    char buf[64];
    std::snprintf(buf, sizeof buf, fmt, v);
    return buf;
}

std::string duration_text(double ms) {
    if (ms < 1) return format_double(ms, "%.3g ms");
    return ms < 1000 ? format_double(ms, ms < 10 ? "%.2f ms" : "%.1f ms") : format_double(ms / 1000, "%.2f s");
}

std::string chip(const std::string &outcome, const std::string &text) {
    return "<span class=\"chip " + report_style::css_class(outcome) + "\">" + html_escape(text) + "</span>";
}

std::string run_label(const RunView &r, bool show_mode) {
    return r.pipeline + " / " + r.profile + " / " + r.case_name + (show_mode ? " / " + r.mode : "");
}

}  // namespace report_parts

namespace {

using nlohmann::json;
using namespace report_parts;
using report_style::css_class;
using report_style::known_style;

// Profile columns: the profiles.json profiles in their order, then any others alphabetically.
int profile_rank(const std::string &p) {
    static const char *const order[] = {"cpu", "host", "opencl-mali", "opencl", "cuda"};
    for (size_t i = 0; i < std::size(order); i++) {
        if (p == order[i]) return static_cast<int>(i);
    }
    return 100;
}
bool profile_less(const std::string &a, const std::string &b) {
    const int ra = profile_rank(a), rb = profile_rank(b);
    return ra != rb ? ra < rb : a < b;
}

std::string scalar_text(const json &v) {
    if (v.is_string()) return v.get<std::string>();
    if (v.is_number_float()) return format_double(v.get<double>());
    if (v.is_null()) return "–";
    return v.dump();
}

// Grid and table order: pipeline, profile column, worst outcome first, case, mode.
bool run_less(const RunView &a, const RunView &b) {
    if (a.pipeline != b.pipeline) return a.pipeline < b.pipeline;
    if (a.profile != b.profile) return profile_less(a.profile, b.profile);
    const int ra = name_rank(a.outcome), rb = name_rank(b.outcome);
    if (ra != rb) return ra > rb;
    if (a.case_name != b.case_name) return a.case_name < b.case_name;
    return a.mode < b.mode;
}

// Generic JSON rendering for the environment: objects as key/value tables, arrays of scalars inline,
// other arrays as numbered lists.
std::string render_json(const json &v) {
    if (v.is_object()) {
        if (v.empty()) return "<span class=\"dim\">(none)</span>";
        std::string h = "<table class=\"kv\">";
        for (const auto &[k, child] : v.items()) {
            h += "<tr><th>" + html_escape(k) + "</th><td>" + render_json(child) + "</td></tr>";
        }
        return h + "</table>";
    }
    if (v.is_array()) {
        if (v.empty()) return "<span class=\"dim\">(none)</span>";
        if (std::none_of(v.begin(), v.end(), [](const json &e) { return e.is_structured(); })) {
            std::string h;
            for (const auto &e : v)
                h += "<span class=\"tag\">" + html_escape(scalar_text(e)) + "</span> ";
            return h;
        }
        std::string h = "<ol class=\"arr\">";
        for (const auto &e : v)
            h += "<li>" + render_json(e) + "</li>";
        return h + "</ol>";
    }
    const std::string s = scalar_text(v);
    return s.find('\n') != std::string::npos ? html_element("pre", "", s) : html_escape(s);
}

std::string header(const json &env, const json &summary) {
    std::string sub =
        "generated " + utc_now("%Y-%m-%d %H:%M:%S UTC") + " · " + std::to_string(summary["total"].get<int>()) + " runs";
    for (const char *k : {"halide_version", "platform"}) {
        if (env.is_object() && env.contains(k))
            sub += std::string(" · ") + (k[0] == 'h' ? "Halide " : "") + scalar_text(env[k]);
    }
    if (env.is_object() && env.contains("host_cpu") && env["host_cpu"].is_object() &&
        env["host_cpu"].contains("model")) {
        sub += " · " + scalar_text(env["host_cpu"]["model"]);
    }
    const std::string worst = summary["worst"].get<std::string>();
    return "<h1>Halide AOT harness report " + chip(worst, "worst: " + worst) + "</h1><div class=\"sub\">" +
           html_escape(sub) + "</div>";
}

// Stacked proportion bar plus one chip per outcome present, in the outcome table's order, unknown names last.
std::string summary_bar(const json &summary) {
    const int total = summary["total"].get<int>();
    std::vector<std::string> names;
    for (const auto &s : outcome_table()) {
        if (summary.contains(s.name)) names.push_back(s.name);
    }
    for (const auto &[k, v] : summary.items()) {
        if (k != "total" && k != "worst" && !known_style(k)) names.push_back(k);
    }
    std::string bar = "<div class=\"bar\">", chips;
    for (const auto &n : names) {
        const int c = summary[n].get<int>();
        bar += "<span class=\"" + css_class(n) +
               "\" style=\"width:" + format_double(100.0 * c / std::max(total, 1), "%.3f") + "%\" title=\"" +
               html_escape(n) + ": " + std::to_string(c) + "\"></span>";
        chips += chip(n, n + " " + std::to_string(c));
    }
    return bar + "</div><div>" + chips + chip("OTHER", "total " + std::to_string(total)) + "</div>";
}

std::string badge_label(const RunView &r, bool show_mode) {
    return r.case_name + (show_mode ? " · " + r.mode : "");
}

// Failures and regressions, worst first, each in full.
std::string failures_section(const std::vector<RunView> &runs, bool show_mode, double scale,
                             const std::string &link_base) {
    std::vector<RunView> bad;
    for (const auto &r : runs) {
        if (needs_attention(r.outcome)) bad.push_back(r);
    }
    std::stable_sort(bad.begin(), bad.end(),
                     [](const RunView &a, const RunView &b) { return name_rank(a.outcome) > name_rank(b.outcome); });
    std::string h = "<h2 id=\"failures\">Failures and regressions (" + std::to_string(bad.size()) + ")</h2>\n";
    if (bad.empty()) h += "<p class=\"dim\">None: every run passed, was skipped, or failed as expected (XFAIL).</p>";
    for (const auto &r : bad)
        h += failure_card(r, show_mode, scale, link_base);
    return h;
}

// Everything else, one folded line per pipeline x profile.
std::string passes_section(const std::vector<RunView> &runs, bool show_mode, double scale) {
    std::vector<RunView> rest;
    for (const auto &r : runs) {
        if (!needs_attention(r.outcome)) rest.push_back(r);
    }
    return "<h2 id=\"passes\">Passed, skipped and expected failures (" + std::to_string(rest.size()) +
           ")</h2><p class=\"small\">One line per pipeline × profile; click to expand. Time bars: median per call, "
           "whisker min–max over the repeats, log scale up to " +
           duration_text(scale) + ".</p>\n" + folded_groups(rest, show_mode, scale);
}

std::string grid(const std::vector<RunView> &runs, bool show_mode) {
    std::vector<std::string> pipelines, profiles;
    for (const auto &r : runs) {
        if (std::find(pipelines.begin(), pipelines.end(), r.pipeline) == pipelines.end())
            pipelines.push_back(r.pipeline);
        if (std::find(profiles.begin(), profiles.end(), r.profile) == profiles.end()) profiles.push_back(r.profile);
    }
    std::sort(profiles.begin(), profiles.end(), profile_less);
    std::string h = "<table class=\"grid\"><thead><tr><th>pipeline</th>";
    for (const auto &p : profiles)
        h += html_element("th", "", p);
    h += "</tr></thead><tbody>";
    for (const auto &pipe : pipelines) {  // `runs` is sorted, so pipelines are too
        h += "<tr>" + html_element("th", "", pipe);
        for (const auto &prof : profiles) {
            std::string cell, worst;
            for (const auto &r : runs) {
                if (r.pipeline != pipe || r.profile != prof) continue;
                if (worst.empty()) worst = r.outcome;  // worst first
                cell += "<a class=\"b " + css_class(r.outcome) + "\" href=\"#run-" + std::to_string(r.index) +
                        "\" title=\"" + html_escape(r.outcome + ": " + r.rec->message) + "\">" +
                        html_escape(badge_label(r, show_mode)) + "</a>";
            }
            h += cell.empty() ? "<td><span class=\"dim\">–</span></td>" :
                                "<td class=\"w-" + (known_style(worst) ? worst : "OTHER") + "\">" + cell + "</td>";
        }
        h += "</tr>";
    }
    return h + "</tbody></table>";
}

// The drivers the runs used, per profile, as each names itself (the device's `identity`).
std::string drivers_line(const std::vector<RunRecord> &records) {
    std::map<std::string, std::set<std::string>> by_driver;
    for (const RunRecord &r : records) {
        const json &m = r.metrics;
        if (m.is_object() && m.contains("device") && m["device"].is_object() && m["device"].contains("identity"))
            by_driver[m["device"]["identity"].get<std::string>()].insert(r.profile);
    }
    std::string s;
    for (const auto &[driver, profiles] : by_driver) {
        std::string names;
        for (const std::string &p : profiles)
            names += (names.empty() ? "" : ", ") + p;
        s += (s.empty() ? "drivers: " : " · ") + driver + " (" + names + ")";
    }
    return s.empty() ? "" : html_element("div", "class=\"sub\"", s);
}

}  // namespace

void write_html_report(const RunResults &results, const std::string &dir) {
    const json &env = results.environment;
    const json summary = results.summary().to_json();

    std::vector<RunView> runs;
    for (size_t i = 0; i < results.runs.size(); i++) {
        const RunRecord &r = results.runs[i];
        runs.push_back({i, &r, r.pipeline, r.profile, r.case_name, r.mode, outcome_name(r.outcome)});
    }
    std::stable_sort(runs.begin(), runs.end(), run_less);
    const bool show_mode =
        std::any_of(runs.begin(), runs.end(), [&](const RunView &r) { return r.mode != runs[0].mode; });

    std::string page = "<!DOCTYPE html>\n<html lang=\"en\"><head><meta charset=\"utf-8\">"
                       "<meta name=\"viewport\" content=\"width=device-width, initial-scale=1\">"
                       "<title>Halide AOT harness report</title><style>" +
                       std::string(report_style::kCss) + report_style::outcome_css() + "</style></head><body>\n";
    page += header(env, summary) + drivers_line(results.runs) + summary_bar(summary) + "\n";
    const std::string out_dir = dir.empty() ? "." : dir;
    if (const int e = make_dirs(out_dir)) {
        throw Error("cannot write report to " + out_dir + ": " + std::strerror(e) +
                    "; choose a writable --report directory");
    }
    char resolved[PATH_MAX];
    const std::string link_base = realpath(out_dir.c_str(), resolved) ? resolved : "";
    const double scale = max_call_ms(runs);
    page += failures_section(runs, show_mode, scale, link_base) + "\n";
    page += "<h2>Pipelines × profiles</h2>" + (runs.empty() ? "<p class=\"dim\">No runs.</p>" : grid(runs, show_mode)) +
            "\n";
    page += passes_section(runs, show_mode, scale) + "\n";
    page +=
        "<h2>Environment</h2>" + render_json(env) + "\n<script>" + report_style::kScript + "</script></body></html>\n";

    try {
        write_file_atomic(out_dir + "/index.html", page);
    } catch (const Error &e) {
        throw Error("cannot write report to " + out_dir + " (" + e.what() + "); choose a writable --report directory");
    }
}

}  // namespace harness
