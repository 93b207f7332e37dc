# Cross build for 64-bit Arm Linux with Debian's aarch64-linux-gnu toolchain. Halide generators come from
# the host build (build/). Tests run under qemu-aarch64 with the cross sysroot (cpu and host profiles; no
# GPU drivers there), or, given an arm64 root made by scripts/arm64-root (HARNESS_ARM64_ROOT, else the
# checkout's .deps-arm64/root when it exists), inside that root, whose arm64 PoCL and lavapipe run the
# OpenCL and Vulkan profiles too.
set(CMAKE_SYSTEM_NAME Linux)
set(CMAKE_SYSTEM_PROCESSOR aarch64)
set(CMAKE_C_COMPILER aarch64-linux-gnu-gcc)
set(CMAKE_CXX_COMPILER aarch64-linux-gnu-g++)
set(CMAKE_FIND_ROOT_PATH /usr/aarch64-linux-gnu)
set(CMAKE_FIND_ROOT_PATH_MODE_PROGRAM NEVER)
set(CMAKE_FIND_ROOT_PATH_MODE_LIBRARY ONLY)
set(CMAKE_FIND_ROOT_PATH_MODE_INCLUDE ONLY)
# Halide's package, the host generators and header-only packages live on the host.
set(CMAKE_FIND_ROOT_PATH_MODE_PACKAGE BOTH)

get_filename_component(_harness_checkout "${CMAKE_CURRENT_LIST_DIR}/../.." ABSOLUTE)
if (NOT HARNESS_ARM64_ROOT AND EXISTS "${_harness_checkout}/.deps-arm64/root/.aot-harness-root.json")
  set(HARNESS_ARM64_ROOT "${_harness_checkout}/.deps-arm64/root")
endif ()
if (HARNESS_ARM64_ROOT)
  # The tests' commands run inside the root (chroot; the emulator from binfmt_misc), with the checkout and
  # the build bound at their own paths there, so that the tests' absolute paths hold.
  set(_harness_binds --bind "${_harness_checkout}")
  string(FIND "${CMAKE_BINARY_DIR}/" "${_harness_checkout}/" _harness_inside)
  if (NOT _harness_inside EQUAL 0)
    list(APPEND _harness_binds --bind "${CMAKE_BINARY_DIR}")
  endif ()
  set(CMAKE_CROSSCOMPILING_EMULATOR sh "${_harness_checkout}/scripts/arm64-root" exec --root "${HARNESS_ARM64_ROOT}"
      ${_harness_binds} --)
else ()
  set(CMAKE_CROSSCOMPILING_EMULATOR qemu-aarch64 -L /usr/aarch64-linux-gnu)
endif ()
