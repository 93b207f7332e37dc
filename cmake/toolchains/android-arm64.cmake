# Android arm64 objects. With an NDK (ANDROID_NDK set), defer to its toolchain file so the harness
# links; without one, only the pipelines' Halide objects are built (Halide cross-compiles them
# itself) and the host compiler is used for nothing that must run on the device.
if (DEFINED ENV{ANDROID_NDK} AND EXISTS "$ENV{ANDROID_NDK}/build/cmake/android.toolchain.cmake")
  set(ANDROID_ABI arm64-v8a)
  set(ANDROID_PLATFORM android-28)
  include("$ENV{ANDROID_NDK}/build/cmake/android.toolchain.cmake")
  set(HARNESS_HAVE_NDK ON)
else ()
  set(HARNESS_HAVE_NDK OFF)
endif ()
set(HARNESS_PLATFORM arm-64-android CACHE STRING "" FORCE)
