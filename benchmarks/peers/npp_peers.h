// NVIDIA NPP (and cuBLAS for matmul) equivalents of the suite's pipelines: the `speedup_vs_npp` peers of
// the GPU profiles (cuda, opencl), as OpenCV is the peer of the host profiles.
//
// One entry per pipeline name (npp_peers.cpp lists them, with the NPP call and how its result
// differs from the pipeline's). Every peer reads the same input bytes (same sizes and dtypes),
// uploaded once to device memory of its own (cudaMallocPitch, as an NPP user allocates), and writes
// outputs of the same sizes there; run() launches on one non-blocking stream and waits for it, so a
// run is timed the way a resident pipeline call is (launch + device sync). NPP is loaded at run time
// (npp_api.h); npp_unavailable_reason() says why there is none (no library, no device).
// npp_peers_test checks every peer's results against the pipeline's reference where NPP runs.
#pragma once
#include <functional>
#include <map>
#include <string>
#include <vector>

#include "peers/opencv_peers.h"  // Agreement
#include "harness/array.h"
#include "harness/spec.h"

namespace bench {

struct NppCall {
    // Runs the NPP calls once and waits for the stream; throws std::runtime_error naming a failed call.
    std::function<void()> run;
    // The last run's results as the pipeline's outputs (Halide order and type), by output name; where
    // NPP's convention differs by an exact, free transformation (the sign of sobel's angle, a wider
    // type) it is undone here and said in `differs`. Untimed: for npp_peers_test.
    std::function<std::map<std::string, harness::Array>()> results;
};

struct NppPeer {
    std::string what;                         // the NPP calls, for the JSON context
    std::string differs;                      // where NPP's result or work differs from the pipeline's
    std::map<std::string, Agreement> agrees;  // per output: how close to the reference (checked by the test)
    // Uploads a case's inputs (Halide order, as harness::case_inputs makes them) and allocates the
    // outputs. Throws std::runtime_error when NPP is unavailable or the device cannot allocate.
    std::function<NppCall(const harness::CaseSpec &, const std::vector<harness::Array> &)> bind;
    // npp_peers_test checks it on a smooth ramp instead of the case's noise (where sample positions a
    // fraction of a pixel apart give unrelated values).
    bool smooth_input = false;
};

// A device-to-device copy of `bytes` in the peers' context and stream (cudaMemcpyAsync + sync): the
// copy reference of BM_npp. Throws std::runtime_error when NPP is unavailable.
NppCall npp_device_copy(size_t bytes);

// pipeline name -> its NPP peer (whether or not NPP can be loaded here).
const std::map<std::string, NppPeer> &npp_peers();

// "" when NPP and a CUDA device can be used here, else why not (loaded once per process).
std::string npp_unavailable_reason();
// The loaded libraries' versions ("NPP 13.0.1, CUDA runtime 13000, driver 13000, cuBLAS 130100").
std::string npp_versions();

}  // namespace bench
