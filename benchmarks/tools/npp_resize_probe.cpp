// npp-resize-probe: where NPP's planar bilinear resize (nppiResize_8u_P3R, the resize_bilinear peer's
// call) stops working as the image grows. Each size runs in a child process of its own, so a crash is
// reported with its signal and the next size still runs. For every size: the peer's own bind + run
// (benchmarks/peers/npp_image_ops.cpp), then the same NPP call on freshly allocated planes, with
// the source ROI rows limited to 2^31 / pitch and not limited.
//   npp-resize-probe [WxH[:OWxOH] ...]   (default: a ladder from 4096^2 to 16384^2, outputs 2/3)
#include <sys/wait.h>
#include <unistd.h>

#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <string>
#include <vector>

#include "peers/npp_peers.h"
#include "peers/npp_util.h"
#include "harness/registry.h"
#include "variant/invocation.h"

namespace {

using namespace bench;

struct Size {
    int w, h, ow, oh;
};

void step(const char *what, const Size &s) {
    std::printf("  %s %dx%d -> %dx%d\n", what, s.w, s.h, s.ow, s.oh);
    std::fflush(stdout);
}

void probe(const Size &s) {
    const npp::Api &api = nppb::api();
    // 1. The NPP call on its own planes (no harness case): the call's arguments as the peer builds them.
    std::vector<nppb::ImagePtr> src, dst;
    for (int p = 0; p < 3; p++) {
        src.push_back(std::make_shared<nppb::Image>(s.w, s.h));
        dst.push_back(std::make_shared<nppb::Image>(s.ow, s.oh));
    }
    std::printf("  pitches: src %zu dst %zu\n", src[0]->pitch, dst[0]->pitch);
    const npp::u8 *sp[3] = {src[0]->row(0), src[1]->row(0), src[2]->row(0)};
    npp::u8 *dp[3] = {dst[0]->row(0), dst[1]->row(0), dst[2]->row(0)};
    step("nppiResize_8u_P3R", s);
    nppb::check(api.nppiResize_8u_P3R_Ctx(sp, src[0]->step(), {s.w, s.h}, {0, 0, s.w, s.h}, dp, dst[0]->step(),
                                          {s.ow, s.oh}, {0, 0, s.ow, s.oh}, npp::kInterLinear, nppb::ctx()),
                "nppiResize_8u_P3R");
    nppb::sync();
    step("ok", s);
    src.clear(), dst.clear();
    // 2. The peer itself, on the harness case of that size.
    harness::Registry &reg = harness::Registry::instance();
    const harness::PipelineSpec &spec = reg.spec("resize_bilinear");
    harness::CaseSpec c = spec.make_case(s.w, s.h);
    c.outputs.at(0).shape = {s.ow, s.oh, 3};
    std::vector<harness::Array> inputs = harness::case_inputs(c);
    step("peer bind", s);
    NppCall call = npp_peers().at("resize_bilinear").bind(c, inputs);
    step("peer run", s);
    call.run();
    step("peer ok", s);
}

}  // namespace

int main(int argc, char **argv) {
    std::vector<Size> sizes;
    for (int i = 1; i < argc; i++) {
        Size s{};
        const int n = std::sscanf(argv[i], "%dx%d:%dx%d", &s.w, &s.h, &s.ow, &s.oh);
        if (n != 2 && n != 4) {
            std::fprintf(stderr, "npp-resize-probe: '%s' is not WxH or WxH:OWxOH; e.g. 16384x16384:10922x10922\n",
                         argv[i]);
            return 2;
        }
        if (n == 2) s.ow = s.w * 2 / 3, s.oh = s.h * 2 / 3;
        sizes.push_back(s);
    }
    if (sizes.empty()) {
        for (int w : {4096, 8192, 11585, 11586, 12288, 16384})
            sizes.push_back({w, w, w * 2 / 3, w * 2 / 3});
        sizes.push_back({16384, 16384, 16384, 16384});
        sizes.push_back({16384, 8192, 10922, 5461});
        sizes.push_back({8192, 16384, 5461, 10922});
    }
    int failures = 0;
    for (const Size &s : sizes) {
        std::printf("%dx%d -> %dx%d\n", s.w, s.h, s.ow, s.oh);
        std::fflush(stdout);
        const pid_t pid = fork();
        if (pid == 0) {  // CUDA is initialised in the child only (a forked CUDA context is unusable)
            const std::string why = npp_unavailable_reason();
            if (!why.empty()) {
                std::printf("SKIP: %s\n", why.c_str());
                std::fflush(stdout);
                _exit(0);
            }
            try {
                probe(s);
                std::fflush(stdout);
            } catch (const std::exception &e) {
                std::printf("  error: %s\n", e.what());
                std::fflush(stdout);
                _exit(1);
            }
            _exit(0);
        }
        int status = 0;
        waitpid(pid, &status, 0);
        if (WIFSIGNALED(status)) {
            std::printf("  CRASH: signal %d (%s)\n", WTERMSIG(status), strsignal(WTERMSIG(status)));
            failures++;
        } else if (WEXITSTATUS(status) != 0) {
            failures++;
        }
    }
    return failures ? 1 : 0;
}
