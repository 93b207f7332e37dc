// Teardown: the child releases its device; the parent triages an exit crash (teardown_triage.h).
#include "run/teardown_triage.h"

#include "base/files.h"
#include "base/profile.h"
#include "devices/device_release.h"

namespace harness {

const char kTeardownCleanupOrder[] =
    "cleanup order: releasing the device before exit avoids the crash (an app must release before it exits on "
    "this driver)";
const char kTeardownCrashesAnyway[] = "the driver crashes at exit even after a release";
const char kTeardownNoDeviceRuntime[] =
    "no device runtime to release in this profile: the crash at exit is the program's own, not a device teardown";

namespace {

std::string released_state(const RunRecord &r) {
    return r.metrics.is_object() ? r.metrics.value("device_release", std::string()) : std::string();
}

}  // namespace

RunRecord triage_teardown(RunRecord r, const std::string &runtime,
                          const std::function<RunRecord()> &rerun_with_release) {
    if (r.outcome != Outcome::TeardownFault) return r;
    std::string verdict;
    const std::string state = released_state(r);
    if (runtime == "none" || runtime.empty()) {
        verdict = kTeardownNoDeviceRuntime;
    } else if (state == kDeviceReleaseSkipped) {
        const RunRecord again = rerun_with_release();
        const std::string again_state = released_state(again);
        r.metrics["teardown_rerun"] = std::string(outcome_name(again.outcome)) + ": " + again.message;
        if (again.outcome == Outcome::TeardownFault) {
            verdict = std::string(kTeardownCrashesAnyway) +
                      (again_state == kDeviceReleased ? "" : " (the re-run died inside halide_device_release)");
        } else if (again_state != kDeviceReleased) {
            verdict = "inconclusive: the re-run with the release gave " + std::string(outcome_name(again.outcome)) +
                      (again_state.empty() ? "" : " (device_release: " + again_state + ")");
        } else if (again.outcome == Outcome::Crash || again.outcome == Outcome::Timeout ||
                   again.outcome == Outcome::Error) {
            verdict = "inconclusive: the re-run with the release gave " + std::string(outcome_name(again.outcome));
        } else {
            verdict = kTeardownCleanupOrder;
        }
    } else if (state == kDeviceReleased) {
        verdict = kTeardownCrashesAnyway;
    } else if (state.empty()) {
        verdict = std::string(kTeardownCrashesAnyway) + " (it died inside halide_device_release)";
    } else {
        verdict = std::string(kTeardownCrashesAnyway) + " (the release " + state + ")";
    }
    r.metrics["teardown_triage"] = verdict;
    r.message += "; teardown triage: " + verdict;
    return r;
}

void release_after_records(std::vector<std::pair<RunRecord, std::string>> &records, bool release) {
    if (records.empty()) return;
    std::string runtime;
    try {
        runtime = find_profile(records.front().first.profile).runtime;
    } catch (const std::exception &) {
        return;  // an unknown profile: the record already says so
    }
    if (!device_interface_for(runtime)) return;
    const std::string what = release ? release_device_runtime(runtime) : kDeviceReleaseSkipped;
    for (auto &[r, path] : records) {
        r.metrics["device_release"] = what;
        write_file_atomic(path, r.to_json().dump() + "\n");
    }
}

void release_after_record(RunRecord &r, const std::string &record_path, bool release) {
    std::vector<std::pair<RunRecord, std::string>> one{{r, record_path}};
    release_after_records(one, release);
    r = one.front().first;
}

}  // namespace harness
