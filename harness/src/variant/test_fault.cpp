// The injected caller bugs of the fault catalogue, by pipeline (test_fault.h).
#include "variant/test_fault.h"

#include <map>
#include <mutex>

namespace harness {

namespace {

std::map<std::string, TestFault> &faults() {
    static std::map<std::string, TestFault> f;
    return f;
}

std::mutex &faults_mutex() {
    static std::mutex m;
    return m;
}

}  // namespace

void set_test_fault(const std::string &pipeline, TestFault fault) {
    const std::lock_guard<std::mutex> lock(faults_mutex());
    faults()[pipeline] = fault;
}

TestFault test_fault_of(const std::string &pipeline) {
    const std::lock_guard<std::mutex> lock(faults_mutex());
    const auto it = faults().find(pipeline);
    return it == faults().end() ? TestFault::None : it->second;
}

}  // namespace harness
