"""harnesslib.genfuzz: the generator fuzzer (`scripts/genfuzz`): random Halide generators (genfuzz_model,
genfuzz_cpp), their C++ and the check of what the harness made of them (genfuzz_check)."""
