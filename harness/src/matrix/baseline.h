// A baseline of a device's expected failures and flakes (`run --baseline-out FILE` writes one, `run
// --baseline FILE` takes it back), beside golden/xfail.json: xfail.json holds reviewed, reasoned known
// failures of a driver; a baseline is what one device did last time, so that only new failures fail.
//
// {"format": "aot-harness-baseline", "version": 1,
//  "failures": {"blur3x3/opencl-mali/small/host": "FAIL", ...},   pipeline/profile/case/mode -> outcome
//  "flakes": ["sobel/opencl/odd/device", ...]}
//
// Taken back: a listed failure that fails the same way is XFAIL (not re-run); one that passes is XPASS;
// one that fails differently stays a failure. A listed flake that fails (after its retries) is FLAKE.
#pragma once
#include <map>
#include <set>
#include <string>
#include <vector>

#include "base/outcome.h"

namespace harness {

class Baseline {
public:
    // "" = an empty baseline. Throws Error naming the file and the fix for an unreadable or malformed one.
    static Baseline load(const std::string &path);
    static Baseline parse(const std::string &json_text, const std::string &what);
    // What `records` (a finished run) expect next time: their unexpected failures (and the failures
    // this baseline turned into XFAIL) and their flakes.
    static Baseline from_records(const std::vector<RunRecord> &records);

    // pipeline/profile/case/mode
    static std::string key(const RunRecord &r);
    // The failure `r` is listed with, as it failed: no need to re-run it.
    bool expects(const RunRecord &r) const;
    // The baseline's verdict on a settled record (see above).
    void apply(RunRecord &r) const;

    std::string to_json() const;
    size_t size() const { return failures_.size() + flakes_.size(); }

private:
    std::string path_;
    std::map<std::string, std::string> failures_;  // key -> outcome name
    std::set<std::string> flakes_;
};

}  // namespace harness
