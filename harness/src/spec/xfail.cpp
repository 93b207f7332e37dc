// golden/xfail.json (xfail.h): parsing the known failures and turning matching records into XFAIL/XPASS.
#include "spec/xfail.h"

#include <fnmatch.h>

#include <algorithm>
#include <set>

#include "base/error.h"
#include "base/files.h"
#include "base/json_reader.h"

namespace harness {

namespace {

bool glob(const std::string &pattern, const std::string &value) {
    return fnmatch(pattern.c_str(), value.c_str(), 0) == 0;
}

bool is_failure(Outcome o) {
    return o == Outcome::Fail || o == Outcome::Error || o == Outcome::Crash || o == Outcome::TeardownFault ||
           o == Outcome::Timeout || o == Outcome::Nondeterministic;
}

}  // namespace

XfailList XfailList::parse(const std::string &json_text, const std::string &what) {
    const std::string fix = "see harness/src/spec/xfail.h for the format";
    const nlohmann::json doc = parse_json(json_text, what, fix);
    const JsonAt top(doc, what, "");
    XfailList list;
    for (const JsonAt &e : top.get("xfail").items()) {
        e.only_keys({"pipeline", "profile", "case", "mode", "platform", "device", "driver", "device_release",
                     "outcomes", "reason", "blame", "evidence"});
        XfailEntry x;
        for (const auto &[k, v] : e.members()) {
            if (k == "outcomes") {
                for (const JsonAt &o : v.items()) {
                    const std::string name = o.string();
                    const OutcomeInfo *info = find_outcome(name);
                    if (!info) o.fail("'" + name + "' is not an outcome", "see aot-harness outcomes");
                    if (!is_failure(info->outcome)) {
                        o.fail("'" + name + "' is not a failure",
                               "list only FAIL, ERROR, CRASH, TEARDOWN_FAULT, TIMEOUT");
                    }
                    x.outcomes.push_back(name);
                }
                continue;
            }
            if (k == "evidence") {
                v.only_keys({"reproduces_on", "passes_on", "validation", "reproducer", "why", "upstream"});
                for (const auto &[ek, ev] : v.members()) {
                    if (ek == "reproduces_on" || ek == "passes_on") {
                        for (const JsonAt &item : ev.items())
                            item.string();  // a list of strings: drivers and versions
                    } else {
                        ev.string();
                    }
                }
                x.evidence = v.json();
                continue;
            }
            const std::string s = v.string();
            if (k == "pipeline")
                x.pipeline = s;
            else if (k == "profile")
                x.profile = s;
            else if (k == "case")
                x.case_name = s;
            else if (k == "mode")
                x.mode = s;
            else if (k == "platform")
                x.platform = s;
            else if (k == "device")
                x.device = s;
            else if (k == "driver")
                x.driver = s;
            else if (k == "device_release")
                x.device_release = s;
            else if (k == "blame") {
                const auto &b = xfail_blames();
                if (std::find(b.begin(), b.end(), s) == b.end())
                    v.fail("'" + s + "' is not a blame", "use halide, driver, harness or generator");
                x.blame = s;
            } else
                x.reason = s;
        }
        if (!e.has("reason")) e.renamed(e.path() + ".reason").fail("missing", "say why this failure is expected");
        if (x.reason.empty()) e.get("reason").fail("is empty", "say why this failure is expected");
        list.entries_.push_back(x);
    }
    return list;
}

const std::vector<std::string> &xfail_blames() {
    static const std::vector<std::string> blames{"halide", "driver", "harness", "generator"};
    return blames;
}

std::vector<std::string> XfailList::evidence_problems() const {
    std::vector<std::string> problems;
    const auto has = [](const XfailEntry &x, const char *k) {
        if (!x.evidence.contains(k)) return false;
        const auto &v = x.evidence[k];
        return v.is_string() ? !v.get<std::string>().empty() : !v.empty();
    };
    for (size_t i = 0; i < entries_.size(); ++i) {
        const XfailEntry &x = entries_[i];
        const std::string where =
            "entry " + std::to_string(i) + " (" + x.pipeline + "/" + x.profile + "/" + x.case_name + "): ";
        if (x.blame.empty()) problems.push_back(where + "no 'blame' (halide, driver, harness or generator)");
        if (!has(x, "reproduces_on")) {
            problems.push_back(where + "no evidence.reproduces_on (the drivers and versions it fails on)");
        }
        if (!has(x, "reproducer")) problems.push_back(where + "no evidence.reproducer (a script or command)");
        if ((glob(x.profile, "vulkan") || glob(x.profile, "vulkan-mali")) && !has(x, "validation")) {
            problems.push_back(where + "no evidence.validation (what the Khronos validation layer said)");
        }
        if (x.blame == "driver" && (!has(x, "passes_on") || !has(x, "why"))) {
            problems.push_back(where + "blames a driver without evidence.passes_on (a second driver where it passes) "
                                       "and evidence.why (why the driver, not the program, is wrong)");
        }
    }
    return problems;
}

std::vector<XfailEntry> &XfailList::stated_by_specs() {
    static std::vector<XfailEntry> entries;
    return entries;
}

XfailList XfailList::load(const std::string &path, bool must_exist) {
    std::string text;
    XfailList list;
    if (read_file_if_exists(path, &text)) {
        list = parse(text, path);
    } else if (must_exist) {
        throw Error("--xfail " + path + " does not exist; pass an existing file (or leave --xfail out to use " +
                    "<golden dir>/xfail.json)");
    }
    for (const auto &e : stated_by_specs())
        list.entries_.push_back(e);
    return list;
}

void XfailList::apply(RunRecord &r, const nlohmann::json &device) const {
    if (r.outcome != Outcome::Pass && !is_failure(r.outcome)) return;
    const auto field = [&](const char *k) {
        return device.is_object() && device.contains(k) ? device[k].get<std::string>() : std::string();
    };
    for (const auto &x : entries_) {
        if (!glob(x.pipeline, r.pipeline) || !glob(x.profile, r.profile) || !glob(x.case_name, r.case_name) ||
            !glob(x.mode, r.mode) || !glob(x.platform, field("platform")) || !glob(x.device, field("device")) ||
            !(glob(x.driver, field("driver_version")) || glob(x.driver, field("driver_info"))) ||
            !glob(x.device_release, r.metrics.is_object() ? r.metrics.value("device_release", "") : "")) {
            continue;
        }
        const std::string why = (x.blame.empty() ? "" : x.blame + "'s bug: ") + x.reason;
        if (r.outcome == Outcome::Pass) {
            r.outcome = Outcome::XPass;
            r.message = "passed, but golden/xfail.json expects a failure (" + why + "); remove that entry";
        } else {
            bool listed = x.outcomes.empty();
            for (const auto &o : x.outcomes)
                listed |= o == outcome_name(r.outcome);
            if (!listed) continue;  // a different failure than the one expected: keep it
            r.result_outcome = outcome_name(r.outcome);
            r.outcome = Outcome::XFail;
            r.message = "expected " + r.result_outcome + " (" + why + "): " + r.message;
        }
        r.xfail_reason = why;
        return;
    }
}

}  // namespace harness
