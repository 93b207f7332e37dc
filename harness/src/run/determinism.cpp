// Digests of outputs and the cpu variant's runs in processes of their own (determinism.h).
#include "run/determinism.h"

#include <csignal>
#include <set>
#include <unistd.h>

#include "base/sha256.h"
#include "devices/probe_in_child.h"
#include "spec/metadata_cases.h"
#include "variant/invocation.h"

namespace harness {

std::string outputs_digest(const std::vector<Array> &outputs) {
    std::string all;
    for (const auto &a : outputs) {
        all += std::to_string(a.type.code) + "/" + std::to_string(a.type.bits) + "/" + shape_string(a.shape) + ":";
        all.append(reinterpret_cast<const char *>(a.bytes.data()), a.bytes.size());
    }
    return sha256_hex(all);
}

std::string cpu_digest_in_child(const Variant &cpu, const CaseSpec &c, const std::string &input_dir, bool in_place,
                                std::string *error, int seconds) {
    const nlohmann::json r = probe_in_child(
        [&]() -> nlohmann::json {
            alarm(unsigned(seconds));  // as long as a bless may take for one case; a hang must not keep it waiting
            std::vector<Array> inputs = case_inputs(c, input_dir);
            Invocation inv(cpu, c, inputs);
            if (in_place) inv.detect_in_place();
            std::string err;
            if (inv.call(&err) != 0) return {{"error", "the cpu variant failed: " + err}};
            return {{"digest", outputs_digest(inv.outputs())}};
        },
        "a determinism check of the cpu variant");
    if (r.contains("digest")) return r["digest"].get<std::string>();
    if (error) {
        *error = r.value("signal", 0) == SIGALRM ? trial_out_of_time(seconds) :
                                                   r.value("error", std::string("the child did not report"));
    }
    return "";
}

std::string nondeterminism_of(const std::vector<std::string> &in_process, const std::vector<std::string> &children) {
    std::set<std::string> distinct;
    size_t here = 0, there = 0;
    for (const auto &d : in_process)
        if (!d.empty()) distinct.insert(d), here++;
    for (const auto &d : children)
        if (!d.empty()) distinct.insert(d), there++;
    if (distinct.size() <= 1) return "";
    return std::to_string(distinct.size()) + " distinct outputs in " + std::to_string(here + there) +
           " runs of the cpu variant on the same inputs (" + std::to_string(here) + " in one process, " +
           std::to_string(there) + " in processes of their own)";
}

}  // namespace harness
