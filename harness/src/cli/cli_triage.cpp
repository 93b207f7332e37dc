// The triage commands of aot-harness: repro (repro.h) and bisect (bisect.h). Each handler only turns
// options into a request and prints what comes back.
#include <cstdio>
#include <cstdlib>

#include "cli/cli_commands.h"
#include "triage/bisect.h"
#include "golden/golden.h"
#include "triage/repro.h"
#include "base/variant_info.h"

namespace harness {

int cmd_repro(const Args &args) {
    const std::vector<std::string> id = split_test_id(args.positional().at(0));
    ReproRequest req;
    req.pipeline = id[0];
    req.profile = id[1];
    req.case_name = id[2];
    req.out = args.get("out");
    req.golden_dir = args.get("golden-dir", default_golden_dir());
    req.build_dir = args.get("build-dir", default_build_dir());
    req.prebuilt = !args.has("no-prebuilt");
    const ReproBundle b = make_repro_bundle(req);
    std::printf("harness run here: %s\nbundle: %s (tar xzf it, then ./run.sh; exit 0 matches, 1 differs, 2 could "
                "not build or run)\n",
                b.harness_run.c_str(), b.path.c_str());
    return 0;
}

void attach_repro_bundles(std::vector<RunRecord> &runs, const std::string &dir, const std::string &golden_dir) {
    const std::string abs = dir.empty() || dir[0] == '/' ? dir : [&] {
        char *cwd = realpath(".", nullptr);
        const std::string d = std::string(cwd ? cwd : ".") + "/" + dir;
        free(cwd);
        return d;
    }();
    for (RunRecord &r : runs) {
        if (r.outcome != Outcome::Fail && r.outcome != Outcome::Error && r.outcome != Outcome::Crash &&
            r.outcome != Outcome::Timeout && r.outcome != Outcome::TeardownFault) {
            continue;
        }
        ReproRequest req;
        req.pipeline = r.pipeline;
        req.profile = r.profile;
        req.case_name = r.case_name;
        req.golden_dir = golden_dir;
        req.build_dir = default_build_dir();
        req.out = abs + "/repro-" + r.pipeline + "-" + r.profile + "-" + r.case_name + ".tar.gz";
        try {
            make_repro_bundle(req);
            r.artifacts["repro_bundle"] = req.out;
            std::fprintf(stderr, "repro bundle: %s\n", req.out.c_str());
        } catch (const std::exception &e) {
            r.message += "; no repro bundle: " + std::string(e.what());
        }
    }
}

int cmd_bisect(const Args &args) {
    BisectRequest req;
    req.pipeline = args.positional().at(0);
    req.profile = args.get("profile");
    req.case_name = args.get("case");
    req.golden_dir = args.get("golden-dir", default_golden_dir());
    req.build_dir = args.get("build-dir", default_build_dir());
    req.keep = args.get("keep");
    const BisectReport r = run_bisect(req);
    std::fputs(bisect_text(r).c_str(), stdout);
    return r.exit_code;
}

}  // namespace harness
