// golden/xfail.json: known failures of a device or driver, each with a reason.
//
// {"format": 1, "xfail": [{"pipeline": "*", "profile": "opencl*", "case": "*", "mode": "*",
//   "platform": "Oclgrind*", "device": "*", "driver": "*", "outcomes": ["TEARDOWN_FAULT"],
//   "reason": "oclgrind crashes at exit after correct results"}]}
// Patterns are shell globs (fnmatch), "*" when absent; `platform`, `device` and `driver` match the
// OpenCL platform name, device name and driver version the run used (or "" for CPU/CUDA runs); for
// Vulkan, "Vulkan <driverName>", the device name, and `driver` either the driverVersion or the
// driverInfo ("Mesa 22.3.6*").
// `device_release` matches the run's metrics.device_release ("released", "skipped
// (--no-device-release)", "" for CPU profiles; device_release.h): an exit crash that only programs
// which do not release show is listed with "device_release": "skipped*".
// `outcomes` lists the failure outcomes the entry expects (default: any of FAIL, ERROR, CRASH,
// TEARDOWN_FAULT, TIMEOUT, NONDET). A matching failure becomes XFAIL; a matching PASS becomes XPASS so the
// entry can be removed. SKIP is never changed.
//
// Whose bug it is, and how we know: `blame` (halide, driver, harness or generator) and `evidence`
// ({"reproduces_on": [drivers and versions], "passes_on": [...], "validation": "what the Khronos
// validation layer said", "reproducer": "a path or command", "why": "why it is this one's bug",
// "upstream": "an issue or commit"}). Both are optional for a user's list; evidence_problems() states
// what this repository requires of golden/xfail.json (its unit test checks it).
#pragma once
#include <string>
#include <vector>

#include <nlohmann/json.hpp>

#include "base/outcome.h"

namespace harness {

struct XfailEntry {
    std::string pipeline = "*", profile = "*", case_name = "*", mode = "*";
    std::string platform = "*", device = "*", driver = "*", device_release = "*";
    std::vector<std::string> outcomes;
    std::string reason;
    std::string blame;                                   // "" when not stated
    nlohmann::json evidence = nlohmann::json::object();  // {"reproduces_on": [...], ...}
};

// The values `blame` may take.
const std::vector<std::string> &xfail_blames();

class XfailList {
public:
    // Loads and validates `path`; a missing file is an empty list unless `must_exist` (a --xfail the
    // user named). Throws Error "<file>: xfail[i].<field>: <problem>; <fix>" for malformed JSON, unknown
    // keys (listing the known ones), values of the wrong type, bad outcomes or no reason.
    static XfailList load(const std::string &path, bool must_exist = false);
    static XfailList parse(const std::string &json_text, const std::string &what);

    // Applies the first matching entry to `r`, given the device the run used (list's "device" JSON:
    // {"platform", "device", "driver_version"}, or null).
    void apply(RunRecord &r, const nlohmann::json &device) const;
    size_t size() const { return entries_.size(); }
    const std::vector<XfailEntry> &entries() const { return entries_; }
    // One line per entry that does not say whose bug it is and how we know: a `blame`; evidence with
    // `reproduces_on` and a `reproducer`; `validation` when the entry can match a Vulkan profile; and for
    // a driver blame, `passes_on` (a second driver where the same program passes) and `why` (why the
    // driver, not the program, is wrong). Empty when every entry does.
    std::vector<std::string> evidence_problems() const;
    // Entries stated by JSON specs (metadata_spec.cpp adds them); load() appends them to the file's.
    static std::vector<XfailEntry> &stated_by_specs();

private:
    std::vector<XfailEntry> entries_;
};

}  // namespace harness
