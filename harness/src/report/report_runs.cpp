// How one run reads in the HTML report: failure cards (labelled metrics, the worst pixel zoomed 8x,
// golden / output / diff), passes folded per pipeline x profile, and the per-case timing charts.
#include <algorithm>
#include <cmath>
#include <cstdio>
#include <map>

#include "report/html.h"
#include "report/report_parts.h"
#include "report/report_style.h"

namespace harness {
namespace report_parts {

namespace {

using nlohmann::json;

constexpr int kZoom = 8;        // crop magnification
constexpr int kCropRadius = 8;  // pixels shown on each side of the worst one: a 17 x 17 window
constexpr double kChartMinMs = 0.01;

// Human names of the compare metrics, in the order a card shows them.
const std::pair<const char *, const char *> kMetricLabels[] = {
    {"mismatches", "mismatches"},        {"mismatch_fraction", "mismatch fraction"}, {"max_abs_error", "max abs error"},
    {"max_rel_error", "max rel error"},  {"max_ulp_error", "max ULP error"},         {"psnr_db", "PSNR"},
    {"nan_mismatches", "NaN mismatches"}};

std::string number_text(const json &v) {
    if (v.is_number_float()) return format_double(v.get<double>());
    if (v.is_null()) return "–";
    return v.is_string() ? v.get<std::string>() : v.dump();
}

std::string metric_text(const std::string &key, const json &v) {
    if (key == "mismatch_fraction" && v.is_number()) return format_double(100 * v.get<double>(), "%.4g %%");
    if (key == "psnr_db" && v.is_number()) return format_double(v.get<double>(), "%.2f dB");
    return number_text(v);
}

struct CallTimes {
    double min = 0, median = 0, max = 0;
    size_t n = 0;
};

// Per-call times of a run: metrics.run_ms (one per repeat), else the whole run's duration_ms.
CallTimes call_times(const RunRecord &run) {
    std::vector<double> v;
    const json &m = run.metrics;
    if (m.is_object() && m.contains("run_ms") && m["run_ms"].is_array()) {
        for (const auto &e : m["run_ms"]) {
            if (e.is_number()) v.push_back(e.get<double>());
        }
    }
    if (v.empty() && run.duration_ms > 0) v.push_back(run.duration_ms);
    CallTimes t;
    if (v.empty()) return t;
    std::sort(v.begin(), v.end());
    t = {v.front(), v.size() % 2 ? v[v.size() / 2] : (v[v.size() / 2 - 1] + v[v.size() / 2]) / 2, v.back(), v.size()};
    return t;
}

std::string times_text(const CallTimes &t) {
    if (t.n == 0) return "–";
    if (t.n == 1) return duration_text(t.median);
    return duration_text(t.median) + " (" + format_double(t.min, "%.3g") + "–" + format_double(t.max, "%.3g") + ", " +
           std::to_string(t.n) + " calls)";
}

// A 160 x 12 bar on a log scale from 0.01 ms to `scale_ms`: the median as a bar, min-max as a whisker.
std::string timing_svg(const CallTimes &t, double scale_ms) {
    if (t.n == 0) return "";
    const double lo = std::log10(kChartMinMs), hi = std::log10(std::max(scale_ms, kChartMinMs * 10));
    auto x = [&](double ms) {
        return std::clamp((std::log10(std::max(ms, kChartMinMs)) - lo) / (hi - lo), 0.0, 1.0) * 158 + 1;
    };
    const std::string title = "per call: " + times_text(t) + " (log scale to " + duration_text(scale_ms) + ")";
    return "<svg class=\"tm\" width=\"160\" height=\"12\" role=\"img\"><title>" + html_escape(title) +
           "</title><rect x=\"1\" y=\"3\" height=\"6\" width=\"" + format_double(x(t.median) - 1, "%.1f") +
           "\" class=\"tm-bar\"/><line x1=\"" + format_double(x(t.min), "%.1f") + "\" x2=\"" +
           format_double(x(t.max), "%.1f") + "\" y1=\"6\" y2=\"6\" class=\"tm-w\"/><line x1=\"" +
           format_double(x(t.median), "%.1f") + "\" x2=\"" + format_double(x(t.median), "%.1f") +
           "\" y1=\"1\" y2=\"11\" class=\"tm-m\"/></svg>";
}

// (output, kind) of an artifact key: "out.golden_png" -> ("out", "golden"); "out_diff" -> ("", "out_diff").
std::pair<std::string, std::string> artifact_parts(const std::string &key) {
    std::string k = key;
    for (const char *suffix : {"_png", "_npy"}) {
        if (k.size() > 4 && k.compare(k.size() - 4, 4, suffix) == 0) k = k.substr(0, k.size() - 4);
    }
    const size_t dot = k.rfind('.');
    return dot == std::string::npos ? std::make_pair(std::string(), k) :
                                      std::make_pair(k.substr(0, dot), k.substr(dot + 1));
}

bool is_png(const std::string &path) {
    std::string tail = path.size() >= 4 ? path.substr(path.size() - 4) : "";
    std::transform(tail.begin(), tail.end(), tail.begin(), [](unsigned char c) { return std::tolower(c); });
    return tail == ".png";
}

struct Images {
    std::map<std::string, std::map<std::string, std::string>> png;  // output -> kind -> path
    std::vector<std::pair<std::string, std::string>> other;         // label, path
};

Images collect_images(const json &artifacts, const std::string &link_base) {
    Images im;
    if (!artifacts.is_object()) return im;
    for (const auto &[key, v] : artifacts.items()) {
        if (!v.is_string()) continue;
        std::string path = v.get<std::string>();
        if (!link_base.empty() && path.rfind(link_base + "/", 0) == 0) path = path.substr(link_base.size() + 1);
        auto [out, kind] = artifact_parts(key);
        if (is_png(path)) {
            im.png[out][kind] = path;
        } else {
            const size_t slash = path.rfind('/');
            im.other.emplace_back(
                (out.empty() ? "" : out + ": ") + path.substr(slash == std::string::npos ? 0 : slash + 1), path);
        }
    }
    return im;
}

std::string figure(const std::string &path, const std::string &caption) {
    const std::string href = html_escape(path);
    return "<figure><a href=\"" + href + "\"><img src=\"" + href + "\" alt=\"" + html_escape(caption) +
           "\" loading=\"lazy\"></a>" + html_element("figcaption", "", caption) + "</figure>";
}

// An 8x crop of `path` around pixel (x, y): the whole PNG scaled by CSS, shifted so the pixel sits in the
// middle of a 17 x 17-pixel window, which is outlined.
std::string crop(const std::string &path, int x, int y, const std::string &caption) {
    const int left = (kCropRadius - x) * kZoom, top = (kCropRadius - y) * kZoom;
    return "<figure class=\"crop\" data-x=\"" + std::to_string(x) + "\" data-y=\"" + std::to_string(y) +
           "\"><div class=\"cw\"><img src=\"" + html_escape(path) + "\" alt=\"" + html_escape(caption) +
           "\" style=\"left:" + std::to_string(left) + "px;top:" + std::to_string(top) +
           "px\"><span class=\"mark\"></span></div>" + html_element("figcaption", "", caption) + "</figure>";
}

std::string coords_text(const json &c) {
    std::string s = "(";
    for (size_t i = 0; i < c.size(); i++)
        s += (i ? ", " : "") + number_text(c[i]);
    return s + ")";
}

// Per output: its metrics, the worst pixel zoomed (when there are PNGs), then golden / output / diff.
std::string outputs_block(const json &metrics, const Images &im) {
    const json outputs = metrics.is_object() ? metrics.value("outputs", json::object()) : json::object();
    std::vector<std::string> names;
    for (const auto &[name, _] : outputs.items())
        names.push_back(name);
    for (const auto &[name, _] : im.png) {
        if (std::find(names.begin(), names.end(), name) == names.end()) names.push_back(name);
    }
    std::string h;
    for (const auto &name : names) {
        const json o = outputs.value(name, json::object());
        h += "<div class=\"out\"><h4>" + (name.empty() ? std::string("images") : "output " + html_escape(name)) +
             "</h4>";
        if (o.is_object() && !o.empty()) {
            h += "<table class=\"metrics\">";
            for (const auto &[key, label] : kMetricLabels) {
                if (o.contains(key))
                    h += "<tr><th>" + std::string(label) + "</th><td>" + html_escape(metric_text(key, o[key])) +
                         "</td></tr>";
            }
            h += "</table>";
        }
        const auto png = im.png.find(name);
        const json worst = o.is_object() ? o.value("worst_mismatch", json()) : json();
        if (worst.is_array() && worst.size() >= 2 && worst[0].is_number_integer() && worst[1].is_number_integer()) {
            const std::string where = "worst pixel " + coords_text(worst) + ": expected " +
                                      number_text(o.value("worst_expected", json())) + ", got " +
                                      number_text(o.value("worst_actual", json()));
            h += html_element("p", "class=\"worst\"", where);
            if (png != im.png.end()) {
                h += "<div class=\"thumbs\">";
                for (const char *kind : {"golden", "output", "diff"}) {
                    if (png->second.count(kind)) {
                        h += crop(png->second.at(kind), worst[0].get<int>(), worst[1].get<int>(),
                                  std::string(kind) + " ×8 at " + coords_text(worst));
                    }
                }
                h += "</div>";
            }
        }
        if (png != im.png.end()) {
            h += "<div class=\"thumbs\">";
            for (const char *kind : {"golden", "output", "diff"}) {
                if (png->second.count(kind)) h += figure(png->second.at(kind), kind);
            }
            for (const auto &[kind, path] : png->second) {
                if (kind != "golden" && kind != "output" && kind != "diff") h += figure(path, kind);
            }
            h += "</div>";
        }
        h += "</div>";
    }
    return h;
}

// Every metric leaf as "a.b: value" rows, behind a <details>.
void flatten(const json &v, const std::string &path, std::vector<std::pair<std::string, std::string>> &out) {
    if (v.is_object()) {
        for (const auto &[k, c] : v.items())
            flatten(c, path.empty() ? k : path + "." + k, out);
    } else if (v.is_array() && std::none_of(v.begin(), v.end(), [](const json &e) { return e.is_structured(); })) {
        std::string s;
        for (const auto &e : v)
            s += (s.empty() ? "" : ", ") + number_text(e);
        out.emplace_back(path, "[" + s + "]");
    } else if (v.is_array()) {
        for (size_t i = 0; i < v.size(); i++)
            flatten(v[i], path + "[" + std::to_string(i) + "]", out);
    } else {
        out.emplace_back(path, number_text(v));
    }
}

std::string all_metrics(const json &metrics) {
    std::vector<std::pair<std::string, std::string>> rows;
    flatten(metrics, "", rows);
    if (rows.empty()) return "";
    std::string h =
        "<details><summary>all " + std::to_string(rows.size()) + " metrics</summary><table class=\"metrics\">";
    for (const auto &[k, v] : rows)
        h += "<tr><th>" + html_escape(k) + "</th><td>" + html_escape(v) + "</td></tr>";
    return h + "</table></details>";
}

}  // namespace

double max_call_ms(const std::vector<RunView> &runs) {
    double m = 1;
    for (const auto &r : runs)
        m = std::max(m, call_times(*r.rec).max);
    return m;
}

std::string failure_card(const RunView &r, bool show_mode, double scale_ms, const std::string &link_base) {
    const RunRecord &rec = *r.rec;
    const CallTimes t = call_times(rec);
    std::string h = "<section class=\"card w-" +
                    (report_style::known_style(r.outcome) ? r.outcome : std::string("OTHER")) + "\" id=\"run-" +
                    std::to_string(r.index) + "\"><h3>" + chip(r.outcome, r.outcome) + " " +
                    html_escape(run_label(r, show_mode)) + "</h3>";
    std::string sub = rec.target;
    if (!rec.result_outcome.empty()) sub += " · recorded " + rec.result_outcome;
    if (!rec.fallback_for.empty()) sub += " · cpu fallback for " + rec.fallback_for;
    if (!rec.xfail_reason.empty()) sub += " · xfail.json: " + rec.xfail_reason;
    if (rec.metrics.is_object() && rec.metrics.contains("device") && rec.metrics["device"].is_object() &&
        rec.metrics["device"].contains("identity"))
        sub += " · " + rec.metrics["device"]["identity"].get<std::string>();
    sub += " · run " + duration_text(rec.duration_ms);
    h += html_element("div", "class=\"small\"", sub) + html_element("p", "class=\"msg\"", rec.message);
    const json &metrics = rec.metrics;
    if (metrics.is_object() && metrics.contains("tolerance")) {
        h += "<div class=\"small\">tolerance " + html_escape(number_text(metrics["tolerance"])) + "</div>";
    }
    if (t.n > 0)
        h += "<div class=\"timing\">call time " + timing_svg(t, scale_ms) + " " + html_escape(times_text(t)) + "</div>";
    const Images im = collect_images(rec.artifacts, link_base);
    h += outputs_block(metrics, im);
    for (const auto &[label, path] : im.other) {
        h += "<a class=\"art\" href=\"" + html_escape(path) + "\" title=\"" + html_escape(path) + "\">" +
             html_escape(label) + "</a> ";
    }
    h += all_metrics(metrics);
    if (!rec.stderr_tail.empty())
        h += "<details><summary>stderr</summary>" + html_element("pre", "", rec.stderr_tail) + "</details>";
    return h + "</section>\n";
}

std::string folded_groups(const std::vector<RunView> &runs, bool show_mode, double scale_ms) {
    std::string h;
    for (size_t b = 0; b < runs.size();) {
        size_t e = b;
        while (e < runs.size() && runs[e].pipeline == runs[b].pipeline && runs[e].profile == runs[b].profile)
            e++;
        std::map<std::string, int> counts;
        std::vector<double> medians;
        std::string rows;
        int degenerate = 0;  // runs whose golden holds next to no information (runner.cpp)
        for (size_t i = b; i < e; i++) {
            const RunView &r = runs[i];
            counts[r.outcome]++;
            degenerate += r.rec->metrics.is_object() && r.rec->metrics.contains("degenerate_golden");
            const CallTimes t = call_times(*r.rec);
            if (t.n) medians.push_back(t.median);
            rows += "<tr id=\"run-" + std::to_string(r.index) + "\">" + html_element("td", "", r.case_name) +
                    (show_mode ? html_element("td", "", r.mode) : "") + "<td>" + chip(r.outcome, r.outcome) +
                    "</td><td class=\"tmc\">" + timing_svg(t, scale_ms) + " " + html_escape(times_text(t)) + "</td>" +
                    html_element("td", "class=\"msg\"", r.rec->message) + "</tr>";
        }
        std::string chips;
        for (const auto &[name, n] : counts)
            chips += chip(name, name + " " + std::to_string(n));
        std::sort(medians.begin(), medians.end());
        const std::string med = medians.empty() ? "" : " · median call " + duration_text(medians[medians.size() / 2]);
        h += "<details class=\"fold\" id=\"g-" + html_escape(runs[b].pipeline + "-" + runs[b].profile) +
             "\"><summary><b>" + html_escape(runs[b].pipeline) + " / " + html_escape(runs[b].profile) + "</b> " +
             chips + (degenerate ? chip("XFAIL", "degenerate golden " + std::to_string(degenerate)) : "") +
             html_element("span", "class=\"small\"", std::to_string(e - b) + " run" + (e - b == 1 ? "" : "s") + med) +
             "</summary><table class=\"runs\"><thead><tr><th>case</th>" + (show_mode ? "<th>mode</th>" : "") +
             "<th>outcome</th><th>time per call (median, min–max)</th><th>message</th></tr></thead><tbody>" + rows +
             "</tbody></table></details>\n";
        b = e;
    }
    return h;
}

}  // namespace report_parts
}  // namespace harness
