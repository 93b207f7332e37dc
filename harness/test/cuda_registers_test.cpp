// CudaRegisterCap (variant/cuda_registers.h): HL_CUDA_JIT_MAX_REGISTERS set for a pipeline's CUDA
// calls only, never over a value the user set, and gone afterwards.
#include <gtest/gtest.h>

#include <cstdlib>
#include <string>

#include "variant/cuda_registers.h"

namespace {

using harness::CudaRegisterCap;
using harness::kCudaMaxRegistersVar;

std::string env() {
    const char *v = std::getenv(kCudaMaxRegistersVar);
    return v ? v : "<unset>";
}

class CudaRegisterCapTest : public ::testing::Test {
protected:
    void SetUp() override {
        if (const char *v = std::getenv(kCudaMaxRegistersVar)) saved_ = v, had_ = true;
        unsetenv(kCudaMaxRegistersVar);
    }
    void TearDown() override {
        if (had_)
            setenv(kCudaMaxRegistersVar, saved_.c_str(), 1);
        else
            unsetenv(kCudaMaxRegistersVar);
    }
    std::string saved_;
    bool had_ = false;
};

TEST_F(CudaRegisterCapTest, SetsForItsLifetimeThenUnsets) {
    {
        CudaRegisterCap cap(255);
        EXPECT_TRUE(cap.active());
        EXPECT_EQ(env(), "255");
    }
    EXPECT_EQ(env(), "<unset>");
}

TEST_F(CudaRegisterCapTest, ZeroLeavesHalidesDefault) {
    CudaRegisterCap cap(0);
    EXPECT_FALSE(cap.active());
    EXPECT_EQ(env(), "<unset>");
}

TEST_F(CudaRegisterCapTest, TheUsersValueWins) {
    setenv(kCudaMaxRegistersVar, "96", 1);
    {
        CudaRegisterCap cap(255);
        EXPECT_FALSE(cap.active());
        EXPECT_EQ(env(), "96");
    }
    EXPECT_EQ(env(), "96");
}

TEST_F(CudaRegisterCapTest, NestedCapsKeepTheOuterOne) {
    CudaRegisterCap outer(128);
    {
        CudaRegisterCap inner(255);
        EXPECT_FALSE(inner.active());
        EXPECT_EQ(env(), "128");
    }
    EXPECT_EQ(env(), "128");
}

}  // namespace
