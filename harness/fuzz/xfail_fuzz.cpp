// Fuzz target: XfailList::parse and apply (harness/src/spec/xfail.cpp), the golden/xfail.json reader.
// Expected rejections: harness::Error. An accepted list is applied to records of every outcome on
// three devices; apply must not throw, must leave SKIP alone, may turn PASS only into XPASS and a
// failure only into XFAIL (keeping what the run found in result_outcome), always with a reason.
#include <cstddef>
#include <cstdint>
#include <string>

#include "fuzz_check.h"
#include "base/error.h"
#include "base/outcome.h"
#include "spec/xfail.h"

extern "C" int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size) {
    using harness::Outcome;
    const std::string text(reinterpret_cast<const char *>(data), size);
    harness::XfailList list;
    try {
        list = harness::XfailList::parse(text, "fuzz/xfail.json");
    } catch (const harness::Error &) {
        return 0;
    }
    const nlohmann::json devices[] = {
        nullptr,
        {{"platform", "Oclgrind"}, {"device", "Oclgrind Simulator"}, {"driver_version", "Oclgrind 21.10"}},
        {{"platform", "Portable Computing Language"}, {"device", "cpu-haswell"}, {"driver_version", "6.0+debian"}},
    };
    for (Outcome o : {Outcome::Pass, Outcome::Fail, Outcome::Error, Outcome::Crash, Outcome::TeardownFault,
                      Outcome::Timeout, Outcome::Skip}) {
        for (const auto &device : devices) {
            for (const char *profile : {"cpu", "opencl", "opencl-mali"}) {
                harness::RunRecord r;
                r.pipeline = "int_edges";
                r.profile = profile;
                r.case_name = "small";
                r.mode = "host";
                r.outcome = o;
                r.message = "what the run found";
                list.apply(r, device);
                const std::string was = harness::outcome_name(o);
                if (r.outcome == o) {
                    FUZZ_CHECK(r.xfail_reason.empty() && r.message == "what the run found", was);
                    continue;
                }
                FUZZ_CHECK(o != Outcome::Skip, "SKIP was changed");
                FUZZ_CHECK(r.outcome == (o == Outcome::Pass ? Outcome::XPass : Outcome::XFail), was);
                FUZZ_CHECK(!r.xfail_reason.empty(), "no reason for " + std::string(harness::outcome_name(r.outcome)));
                if (r.outcome == Outcome::XFail) FUZZ_CHECK(r.result_outcome == was, r.result_outcome);
            }
        }
    }
    return 0;
}
