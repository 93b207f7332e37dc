// Teardown: a child's release of its device before exit, and the triage of one that died at exit
// after recording its verified result.
// A child that exited with its GPU runtime live (run --no-device-release) and died is run again
// with an explicit halide_device_release() before exit; the record then says which of the two
// verdicts below holds. A child that had released already needs no re-run: it is the second.
#pragma once
#include <functional>
#include <string>
#include <utility>
#include <vector>

#include "base/outcome.h"

namespace harness {

// The verdicts (metrics.teardown_triage, and the end of the record's message).
extern const char kTeardownCleanupOrder[];     // the release avoids the crash: the app must release first
extern const char kTeardownCrashesAnyway[];    // it crashes at exit even after a release
extern const char kTeardownNoDeviceRuntime[];  // a profile without a device runtime (cpu, host)

// For a TEARDOWN_FAULT record `r` of a profile with runtime `runtime` (profile.h): adds
// metrics.teardown_triage (one of the verdicts, or "inconclusive: ...") and appends
// "; teardown triage: <verdict>" to the message. `rerun_with_release` runs the same case again in a
// child that releases the device before exit; it is called only when r's child did not release
// (metrics.device_release is kDeviceReleaseSkipped). Other records are returned unchanged.
RunRecord triage_teardown(RunRecord r, const std::string &runtime,
                          const std::function<RunRecord()> &rerun_with_release);

// The last step of a `__run-one` child, after its record `r` was written to `record_path`: unless
// `release` is false, releases the runtime of r's profile (devices/device_release.h); then, for GPU
// profiles, records metrics.device_release (kDeviceReleased, a failure, or kDeviceReleaseSkipped) by
// writing the record again. A crash inside the release leaves the first record, without device_release.
void release_after_record(RunRecord &r, const std::string &record_path, bool release);
// The same for the records of a batch child (`__run-batch`), whose cases share one device group: one
// release, every record written again. Nothing for an empty list.
void release_after_records(std::vector<std::pair<RunRecord, std::string>> &records, bool release);

}  // namespace harness
