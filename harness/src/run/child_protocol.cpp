// The parent/child protocol of `run` (child_protocol.h): the child's command line written and read back.
#include "run/child_protocol.h"

#include "base/error.h"
#include "base/files.h"
#include "base/json_reader.h"

namespace harness {

const OptionSpec &repeats_option() {
    static const OptionSpec o = OptionSpec::whole(
        "repeats", "N", "calls that must be bit-identical, each with its own output canary", 3, 1, 100);
    return o;
}

const char *child_command(bool batch) {
    return batch ? "__run-batch" : "__run-one";
}

const std::vector<OptionSpec> &child_options(bool batch) {
    using O = OptionSpec;
    static const std::vector<O> common{O::text("golden-dir", "DIR", "the golden directory"),
                                       repeats_option(),
                                       O::text("shape-cache", "DIR", "the run's settled shapes"),
                                       O::text("artifacts", "DIR", "where failed runs keep their outputs"),
                                       O::text("device", "NAME", "the device personality"),
                                       O::flag("no-device-release", "exit with the GPU runtime live"),
                                       O::text("record", "FILE", "the record file (a batch: the records' prefix)")};
    static const std::vector<O> one = [] {
        std::vector<O> rows{O::text("pipeline", "P", "the pipeline"), O::text("profile", "T", "the profile"),
                            O::text("case", "C", "the case"), O::text("mode", "M", "the buffer mode")};
        rows.insert(rows.end(), common.begin(), common.end());
        return rows;
    }();
    static const std::vector<O> many = [] {
        std::vector<O> rows{O::text("tasks", "FILE", "the cases: a JSON list of [pipeline, profile, case, mode]")};
        rows.insert(rows.end(), common.begin(), common.end());
        return rows;
    }();
    return batch ? many : one;
}

std::vector<std::string> child_words(const ChildCall &call) {
    if (call.cases.empty()) throw Error("internal error: a child call without a case");
    const RunRequest &first = call.cases[0];
    std::vector<std::string> w{child_command(call.batch)};
    if (call.batch) {
        nlohmann::json list = nlohmann::json::array();
        for (const auto &c : call.cases)
            list.push_back({c.pipeline, c.profile, c.case_name, c.mode});
        write_file_atomic(call.tasks_file, list.dump());
        w.insert(w.end(), {"--tasks", call.tasks_file});
    } else {
        w.insert(w.end(), {"--pipeline", first.pipeline, "--profile", first.profile, "--case", first.case_name,
                           "--mode", first.mode});
    }
    w.insert(w.end(),
             {"--record", call.record, "--golden-dir", first.golden_dir, "--repeats", std::to_string(first.repeats)});
    if (!call.shape_cache.empty()) w.insert(w.end(), {"--shape-cache", call.shape_cache});
    if (!first.artifacts_dir.empty()) w.insert(w.end(), {"--artifacts", first.artifacts_dir});
    if (!call.device.empty()) w.insert(w.end(), {"--device", call.device});
    if (!call.release_device) w.push_back("--no-device-release");
    return w;
}

ChildCall read_child_call(const Args &args) {
    ChildCall call;
    call.batch = args.command() == child_command(true);
    call.record = args.get("record");
    call.device = args.get("device");
    call.shape_cache = args.get("shape-cache");
    call.release_device = !args.has("no-device-release");
    RunRequest common;
    common.golden_dir = args.get("golden-dir");
    common.artifacts_dir = args.get("artifacts");
    common.repeats = static_cast<int>(args.whole("repeats"));
    if (!call.batch) {
        common.pipeline = args.get("pipeline");
        common.profile = args.get("profile");
        common.case_name = args.get("case");
        common.mode = args.get("mode");
        call.cases.push_back(common);
        return call;
    }
    call.tasks_file = args.get("tasks");
    const nlohmann::json doc = parse_json(read_file(call.tasks_file), call.tasks_file, "");
    for (const JsonAt &t : JsonAt(doc, call.tasks_file, "the run writes it; run again").items()) {
        if (t.array().size() != 4) t.fail("is not [pipeline, profile, case, mode]");
        RunRequest r = common;
        r.pipeline = t.item(0).string();
        r.profile = t.item(1).string();
        r.case_name = t.item(2).string();
        r.mode = t.item(3).string();
        call.cases.push_back(r);
    }
    return call;
}

std::string batch_start_file(const std::string &prefix, size_t i) {
    return prefix + "." + std::to_string(i) + ".start";
}

std::string batch_record_file(const std::string &prefix, size_t i) {
    return prefix + "." + std::to_string(i) + ".json";
}

}  // namespace harness
