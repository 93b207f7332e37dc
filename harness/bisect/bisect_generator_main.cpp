// The generator executable `aot-harness bisect` runs for a Python generator: Halide's generator main
// (Halide::Generator links it) and no generator of its own. The bisect plugin, loaded with -p, brings
// harness_bisect_hlpipe, which compiles the pipeline the Python generator built and serialized
// (bisect_plugin.cpp). A Python generator's own main finds Python generators only, so it cannot be used.
