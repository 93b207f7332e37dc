// The C++ externs that Halide's c_backend/pipeline_cpp generator calls (its app defines them in its
// own run_cpp.cpp, which the corpus does not copy): our own definitions, linked into the corpus's
// aot-harness with aot_harness_add_pipeline(pipeline_cpp ... LINK_LIBRARIES corpus_pipeline_cpp_externs).
// Each returns a different mix of its arguments, so a call of the wrong one shows in the output.
extern "C" int an_extern_c_func(int a, float b) {
    return a + static_cast<int>(b) * 2;
}
int cpp_extern_toplevel(int a, float b) {
    return a + static_cast<int>(b) * 3;
}
namespace namespace1 {
int cpp_extern(int a, float b) {
    return a - static_cast<int>(b);
}
}  // namespace namespace1
namespace namespace2 {
int cpp_extern_1(int a, float b) {
    return a ^ static_cast<int>(b);
}
int cpp_extern_2(int a, float b) {
    return a + 5 * static_cast<int>(b);
}
int cpp_extern_3(int a, float b) {
    return 2 * a - static_cast<int>(b);
}
}  // namespace namespace2
namespace namespace_outer {
int cpp_extern(int a, float b) {
    return a * 3 + static_cast<int>(b);
}
namespace namespace_inner {
int cpp_extern(int a, float b) {
    return a + 7 * static_cast<int>(b);
}
}  // namespace namespace_inner
}  // namespace namespace_outer
namespace namespace_shared_outer {
int cpp_extern_1(int a, float b) {
    return a / 2 + static_cast<int>(b);
}
int cpp_extern_2(int a, float b) {
    return a % 13 + static_cast<int>(b);
}
namespace inner {
int cpp_extern_1(int a, float b) {
    return a & static_cast<int>(b);
}
int cpp_extern_2(int a, float b) {
    return a | static_cast<int>(b);
}
}  // namespace inner
}  // namespace namespace_shared_outer
