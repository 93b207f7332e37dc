// Bisect's comparison of stage dumps and its report (bisect_stages.h, bisect.h).
#include "triage/bisect_stages.h"

#include <unistd.h>

#include <algorithm>
#include <cstdio>
#include <map>
#include <sstream>

#include <nlohmann/json.hpp>

#include "harness/compare.h"
#include "values/default_tolerance.h"
#include "base/error.h"
#include "base/files.h"
#include "values/npy.h"
#include "base/json_reader.h"

namespace harness {

namespace {

using nlohmann::json;

// A debug_to_file dump: Halide writes the extents in argument order as the .npy shape and the values
// with dimension 0 fastest (write_debug_image.cpp follows the strides), so the C-order reading of
// npy_load has the shape reversed.
Array load_dump(const std::string &path) {
    Array a = npy_load(path);
    std::reverse(a.shape.begin(), a.shape.end());
    return a;
}

// Realization bounds the runner recorded (bounds.txt: name, then min and extent per dimension); the
// last realization of each Func is the one its dump holds.
std::map<std::string, std::vector<int>> read_bounds(const std::string &dir) {
    std::map<std::string, std::vector<int>> mins;
    std::string text;
    read_file_if_exists(dir + "/bounds.txt", &text);
    std::istringstream in(text);
    for (std::string line; std::getline(in, line);) {
        std::istringstream words(line);
        std::string name;
        words >> name;
        std::vector<int> min;
        for (int m = 0, e = 0; words >> m >> e;)
            min.push_back(m);
        mins[name] = min;
    }
    return mins;
}

// The part of `a` (whose element 0 is at `min`) over [lo, lo + extent) in every dimension.
Array crop(const Array &a, const std::vector<int> &min, const std::vector<int> &lo, const std::vector<int> &extent) {
    Array out(a.type, extent);
    const size_t eb = a.element_bytes();
    for (size_t i = 0; i < out.elements(); i++) {
        const std::vector<int> c = out.coords(i);
        size_t offset = 0, stride = 1;
        for (size_t d = 0; d < c.size(); d++) {
            offset += size_t(c[d] + lo[d] - min[d]) * stride;
            stride *= size_t(a.shape[d]);
        }
        std::copy_n(a.bytes.data() + offset * eb, eb, out.bytes.data() + i * eb);
    }
    return out;
}

json read_stages(const std::string &dir) {
    std::string text;
    if (!read_file_if_exists(dir + "/stages.json", &text)) return json::array();
    try {
        return parse_json(text, dir + "/stages.json", "").value("stages", json::array());
    } catch (const std::exception &) {  // not valid JSON, or not an object
        return json::array();
    }
}

// The cpu stage matching `name`: the same name, else the one whose name without `$N` is the same.
const json *find_stage(const json &stages, const std::string &name) {
    for (const auto &s : stages)
        if (s.value("name", "") == name) return &s;
    const json *found = nullptr;
    for (const auto &s : stages) {
        if (strip_halide_renames(s.value("name", "")) == strip_halide_renames(name)) {
            if (found) return nullptr;  // ambiguous
            found = &s;
        }
    }
    return found;
}

std::string coords_text(const std::vector<int> &c) {
    std::string s = "(";
    for (size_t d = 0; d < c.size(); d++)
        s += (d ? "," : "") + std::to_string(c[d]);
    return s + ")";
}

// compare()'s message names coordinates from the cropped array's origin: from `lo` on, they are the
// stage's own ("worst at (x,y)"). Shifts the first "(a,b...)" after "worst at ".
std::string shifted_message(const std::string &m, const std::vector<int> &lo) {
    const size_t at = m.find("worst at (");
    if (at == std::string::npos || std::all_of(lo.begin(), lo.end(), [](int v) { return v == 0; })) return m;
    const size_t open = at + 9, close = m.find(')', open);
    std::vector<int> c;
    std::istringstream in(m.substr(open + 1, close - open - 1));
    for (std::string n; std::getline(in, n, ',');)
        c.push_back(std::atoi(n.c_str()));
    for (size_t d = 0; d < c.size() && d < lo.size(); d++)
        c[d] += lo[d];
    return m.substr(0, open) + coords_text(c) + m.substr(close + 1);
}

std::string values_text(const Array &a, const std::vector<int> &at) {
    size_t i = 0, stride = 1;
    for (size_t d = 0; d < at.size(); d++) {
        i += size_t(at[d]) * stride;
        stride *= size_t(a.shape[d]);
    }
    char buf[64];
    std::snprintf(buf, sizeof buf, "%.9g", a.value(i));
    return buf;
}

void compare_pass(const PipelineSpec &spec, const std::string &work, const json &cpu_stages, BisectPass &pass,
                  const std::string &dir_name, const std::string &profile) {
    const auto cpu_bounds = read_bounds(work + "/cpu"), got_bounds = read_bounds(work + "/" + dir_name);
    const Tolerance output_tol = spec.tolerance;
    const halide_type_t output_type =
        spec.cases.empty() || spec.cases[0].outputs.empty() ? halide_type_t() : spec.cases[0].outputs[0].type;
    const std::string dir = work + "/" + dir_name;
    for (const auto &s : read_stages(dir)) {
        BisectStage st;
        st.index = s.value("index", 0);
        st.name = s.value("name", "");
        st.display = strip_halide_renames(st.name);
        st.type = s.value("type", "");
        st.where = s.value("where", "");
        st.not_dumped = s.value("not_dumped", "");
        const json *ref = find_stage(cpu_stages, st.name);
        if (!st.not_dumped.empty()) {
            st.message = "not dumped: " + st.not_dumped;
        } else if (!ref || !ref->contains("file")) {
            st.message = "no cpu counterpart to compare with" +
                         (ref ? " (cpu: " + ref->value("not_dumped", std::string("not dumped")) + ")" : std::string());
        } else if (!pass.error.empty() && pass.exit_code < 0) {
            st.message = "not run";
        } else if (access((dir + "/" + s.value("file", "")).c_str(), R_OK) != 0) {
            st.message = "no dump: the run stopped before this stage was written";
        } else {
            try {
                Array got = load_dump(dir + "/" + s.value("file", ""));
                Array want = load_dump(work + "/cpu/" + ref->value("file", ""));
                std::vector<int> got_min(got.shape.size(), 0), want_min(want.shape.size(), 0);
                if (auto it = got_bounds.find(st.name); it != got_bounds.end() && it->second.size() == got.shape.size())
                    got_min = it->second;
                const std::string ref_name = ref->value("name", "");
                if (auto it = cpu_bounds.find(ref_name);
                    it != cpu_bounds.end() && it->second.size() == want.shape.size())
                    want_min = it->second;
                std::string note;
                std::vector<int> lo = got_min;  // the common region, in the stage's coordinates
                if (got.shape.size() == want.shape.size() && (got.shape != want.shape || got_min != want_min)) {
                    std::vector<int> extent(got.shape.size());
                    for (size_t d = 0; d < extent.size(); d++) {
                        lo[d] = std::max(got_min[d], want_min[d]);
                        extent[d] =
                            std::max(0, std::min(got_min[d] + got.shape[d], want_min[d] + want.shape[d]) - lo[d]);
                    }
                    note = " (regions differ: cpu " + shape_string(want.shape) + " at " + coords_text(want_min) + ", " +
                           profile + " " + shape_string(got.shape) + " at " + coords_text(got_min) +
                           "; their common part compared)";
                    got = crop(got, got_min, lo, extent);
                    want = crop(want, want_min, lo, extent);
                }
                const bool same_as_output = got.type.code == output_type.code && got.type.bits == output_type.bits;
                const Tolerance tol = same_as_output ? output_tol : default_tolerance(got.type);
                const CompareResult cr = compare(want, got, tol);
                st.compared = true;
                st.passed = cr.passed;
                st.message = shifted_message(cr.message, lo) + note;
                if (!cr.passed && !cr.worst_mismatch.empty()) {
                    std::vector<int> at = cr.worst_mismatch;  // in the stage's own coordinates
                    for (size_t d = 0; d < at.size() && d < lo.size(); d++)
                        at[d] += lo[d];
                    st.worst = coords_text(at) + ": cpu " + values_text(want, cr.worst_mismatch) + ", " + profile +
                               " " + values_text(got, cr.worst_mismatch);
                }
            } catch (const std::exception &e) {
                st.message = std::string("could not read the dump: ") + e.what();
            }
        }
        if (st.compared && !st.passed && pass.first_bad < 0) pass.first_bad = int(pass.stages.size());
        pass.stages.push_back(st);
    }
}

std::string stage_list(const BisectPass &p, int upto, bool not_dumped) {
    std::string s;
    for (int i = 0; i < int(p.stages.size()) && (upto < 0 || i < upto); i++) {
        const BisectStage &st = p.stages[size_t(i)];
        if (not_dumped != !st.not_dumped.empty()) continue;
        s += (s.empty() ? "" : ", ") + st.display + (not_dumped ? " (" + st.not_dumped + ")" : "");
    }
    return s;
}

}  // namespace

std::string strip_halide_renames(const std::string &name) {
    std::string out;
    for (size_t i = 0; i < name.size(); i++) {
        if (name[i] == '$' && i + 1 < name.size() && std::isdigit(static_cast<unsigned char>(name[i + 1]))) {
            while (i + 1 < name.size() && std::isdigit(static_cast<unsigned char>(name[i + 1])))
                i++;
            continue;
        }
        out += name[i];
    }
    return out;
}

void compare_bisect_passes(const PipelineSpec &spec, const std::string &work, BisectReport &r) {
    const std::string profile = r.id.substr(r.id.find('/') + 1, r.id.rfind('/') - r.id.find('/') - 1);
    const json cpu_stages = read_stages(work + "/cpu");
    for (const auto &s : cpu_stages) {
        BisectStage st;
        st.index = s.value("index", 0);
        st.name = s.value("name", "");
        st.display = strip_halide_renames(st.name);
        st.not_dumped = s.value("not_dumped", "");
        r.cpu.stages.push_back(st);
    }
    if (!r.cpu.error.empty()) {
        r.exit_code = 2;
        r.conclusion = "the cpu reference build failed: " + r.cpu.error;
        return;
    }
    compare_pass(spec, work, cpu_stages, r.scheduled, "scheduled", profile);
    compare_pass(spec, work, cpu_stages, r.materialised, "materialised", profile);
    const BisectPass &s = r.scheduled, &m = r.materialised;
    const auto named = [&](const BisectPass &p) {
        const BisectStage &st = p.stages[size_t(p.first_bad)];
        return "'" + st.display + "' (stage " + std::to_string(p.first_bad + 1) + " of " +
               std::to_string(p.stages.size()) + " in producer order" +
               (st.worst.empty() ? "" : "; worst at " + st.worst) + ")";
    };
    std::string c;
    if (!s.error.empty() && s.stages.empty()) {
        r.exit_code = 2;
        c = "the " + profile + " build as scheduled failed: " + s.error;
    } else if (m.first_bad >= 0 && s.first_bad < 0 && s.exit_code == 0) {
        // The variant as built agrees with cpu everywhere it can be seen; only the materialised program,
        // which is another schedule, differs.
        r.exit_code = 0;
        c = "no stage of the variant as scheduled differs and its outputs match; materialised on " + profile + ", " +
            named(m) +
            " differs: that is the materialised schedule's own result (check it before "
            "blaming " +
            profile + ")";
    } else if (m.first_bad >= 0) {
        r.exit_code = 1;
        c = "first stage that differs: " + named(m) + ", with every stage materialised on " + profile + ".";
        if (s.first_bad >= 0) {
            c += " As scheduled, the first dumped stage that differs is " + named(s) + ".";
        } else {
            c += " As scheduled, no dumped stage differs (" +
                 std::string(s.exit_code == 0 ? "the outputs match" : "the outputs differ") +
                 "): the difference comes from materialising.";
        }
    } else if (s.first_bad >= 0) {
        r.exit_code = 1;
        c = "first dumped stage that differs as scheduled: " + named(s) + ". ";
        c += m.error.empty() ? "Materialising every stage on " + profile +
                                   " makes the difference vanish: the bug needs the fused schedule." :
                               "The materialised build failed (" + m.error + "), so stages inside it were not checked.";
        const std::string hidden = stage_list(s, s.first_bad, true);
        if (!hidden.empty()) c += " Stages before it that could not be dumped: " + hidden + ".";
    } else {
        c = s.exit_code == 1 ? "the outputs differ but no dumped stage does (check the not-dumped stages)" :
                               "no stage differs beyond the tolerance: this case passes on " + profile;
        r.exit_code = s.exit_code == 1 ? 1 : 0;
    }
    if (!m.error.empty() && m.first_bad < 0 && s.first_bad < 0) c += "; the materialised build failed: " + m.error;
    r.conclusion = c;
}

std::string bisect_text(const BisectReport &r) {
    std::string t = "bisect " + r.id + ": cpu (every stage materialised) vs the profile; output tolerance " +
                    r.tolerance + ", other stage types their default\n";
    for (const BisectPass *p : {&r.scheduled, &r.materialised}) {
        char secs[32];
        std::snprintf(secs, sizeof secs, "%.1f s", p->seconds);
        t += (p == &r.scheduled ? "as scheduled" : "materialised") + std::string(" (") + p->target + ", " + secs + ")" +
             (p->error.empty() ? "" : ": " + p->error) + "\n";
        for (const auto &st : p->stages) {
            char head[160];
            std::snprintf(head, sizeof head, "  %2d %-22s %-8s %-10s ", st.index + 1, st.display.c_str(),
                          st.type.c_str(), st.where.substr(0, st.where.find(' ')).c_str());
            t += head + std::string(st.compared ? (st.passed ? "same: " : "DIFFERS: ") : "") + st.message + "\n";
        }
    }
    char time[64];
    std::snprintf(time, sizeof time, "%.1f", r.seconds);
    return t + r.conclusion + "\ntime: " + time + " s (three generator runs, compiles and runs)\n";
}

}  // namespace harness
