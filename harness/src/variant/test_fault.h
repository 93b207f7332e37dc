// Caller bugs the harness injects on purpose, for the fault catalogue (harness/test/faults/) only: a test
// seam, kept out of the public headers. SkipCopyBack leaves the outputs on the device (the all-zero output
// of a GPU result never copied back); StaleInput runs on a zeroed device copy of the inputs that the host
// bytes never reach. None for every pipeline of the suite.
#pragma once
#include <string>

namespace harness {

enum class TestFault { None, SkipCopyBack, StaleInput };

// Every call of `pipeline`'s variants gets `fault` (the catalogue's specs set it as they register).
void set_test_fault(const std::string &pipeline, TestFault fault);
TestFault test_fault_of(const std::string &pipeline);

}  // namespace harness
