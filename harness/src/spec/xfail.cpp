// golden/xfail.json (xfail.h): parsing the known failures and turning matching records into XFAIL/XPASS.
#include "spec/xfail.h"

#include <fnmatch.h>
#include <unistd.h>

#include <algorithm>
#include <set>

#include "base/error.h"
#include "base/files.h"

namespace harness {

namespace {

bool glob(const std::string &pattern, const std::string &value) {
    return fnmatch(pattern.c_str(), value.c_str(), 0) == 0;
}

bool is_failure(Outcome o) {
    return o == Outcome::Fail || o == Outcome::Error || o == Outcome::Crash || o == Outcome::TeardownFault ||
           o == Outcome::Timeout;
}

}  // namespace

XfailList XfailList::parse(const std::string &json_text, const std::string &what) {
    nlohmann::json doc;
    try {
        doc = nlohmann::json::parse(json_text);
    } catch (const nlohmann::json::exception &e) {
        throw Error(what + " is not valid JSON (" + e.what() + "); fix it or restore it with git checkout");
    }
    if (!doc.is_object() || !doc.contains("xfail") || !doc["xfail"].is_array()) {
        throw Error(what + " has no \"xfail\" array; see harness/src/spec/xfail.h for the format");
    }
    static const std::set<std::string> keys{"pipeline", "profile",  "case",   "mode",  "platform", "device",
                                            "driver",   "outcomes", "reason", "blame", "evidence"};
    static const std::set<std::string> evidence_keys{"reproduces_on", "passes_on", "validation",
                                                     "reproducer",    "why",       "upstream"};
    XfailList list;
    size_t index = 0;
    for (const auto &e : doc["xfail"]) {
        const std::string where = what + ": entry " + std::to_string(index++);
        if (!e.is_object()) throw Error(where + " must be an object");
        XfailEntry x;
        for (const auto &[k, v] : e.items()) {
            if (!keys.count(k)) throw Error(where + ": unknown field '" + k + "'");
            if (k == "outcomes") {
                if (!v.is_array()) throw Error(where + ": field 'outcomes' must be a list of outcome names");
                for (const auto &o : v) {
                    const std::string name = o.is_string() ? o.get<std::string>() : o.dump();
                    Outcome parsed;
                    try {
                        parsed = outcome_from_name(name);
                    } catch (const Error &) {
                        throw Error(where + ": field 'outcomes' has unknown outcome '" + name + "'");
                    }
                    if (!is_failure(parsed)) {
                        throw Error(
                            where +
                            ": field 'outcomes' may list only failures (FAIL, ERROR, CRASH, TEARDOWN_FAULT, TIMEOUT)");
                    }
                    x.outcomes.push_back(name);
                }
                continue;
            }
            if (k == "evidence") {
                if (!v.is_object()) throw Error(where + ": field 'evidence' must be an object");
                for (const auto &[ek, ev] : v.items()) {
                    if (!evidence_keys.count(ek)) {
                        throw Error(where + ": evidence: unknown field '" + ek +
                                    "'; use reproduces_on, passes_on, validation, reproducer, why, upstream");
                    }
                    const bool list = ek == "reproduces_on" || ek == "passes_on";
                    bool ok = list ? ev.is_array() : ev.is_string();
                    if (list && ok)
                        ok = std::all_of(ev.begin(), ev.end(), [](const nlohmann::json &i) { return i.is_string(); });
                    if (!ok) {
                        throw Error(where + ": evidence: field '" + ek + "' must be " +
                                    (list ? "a list of strings (drivers and versions)" : "a string"));
                    }
                }
                x.evidence = v;
                continue;
            }
            if (!v.is_string()) throw Error(where + ": field '" + k + "' must be a string");
            const std::string s = v.get<std::string>();
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
            else if (k == "blame") {
                const auto &b = xfail_blames();
                if (std::find(b.begin(), b.end(), s) == b.end()) {
                    throw Error(where + ": field 'blame' is '" + s + "'; use halide, driver, harness or generator");
                }
                x.blame = s;
            } else
                x.reason = s;
        }
        if (x.reason.empty()) throw Error(where + ": missing field 'reason' (say why this failure is expected)");
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

XfailList XfailList::load(const std::string &path) {
    XfailList list = access(path.c_str(), F_OK) != 0 ? XfailList() : parse(read_file(path), path);
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
            !(glob(x.driver, field("driver_version")) || glob(x.driver, field("driver_info")))) {
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
