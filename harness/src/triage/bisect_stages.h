// The comparing half of bisect (private to bisect*.cpp): reads each build's stage list and dumps,
// compares the P builds' stages with the cpu build's and writes the conclusion (bisect.h).
#pragma once
#include <string>

#include "triage/bisect.h"
#include "harness/spec.h"

namespace harness {

// Fills r.scheduled/r.materialised stages (and r.cpu's) from <work>/<pass>/stages.json and the dumps
// beside it, sets first_bad, r.conclusion and r.exit_code.
void compare_bisect_passes(const PipelineSpec &spec, const std::string &work, BisectReport &r);

}  // namespace harness
