// `aot-harness bench`: Google Benchmark over any registered pipeline x profile x case, for this
// repository's suite and for an outside project's pipelines alike (the bench library, harness::bench).
#pragma once

namespace harness {

// Makes `aot-harness bench` (and its child side, `__bench-one`) available in this executable: a main()
// linking the bench library calls it before cli_main(). Without it `bench` is a one-line error.
void enable_bench();

}  // namespace harness
