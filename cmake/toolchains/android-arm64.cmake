# Android arm64. Halide cross-compiles the pipelines itself, so without an NDK the preset builds
# only their objects (HARNESS_OBJECTS_ONLY) with the host toolchain. With ANDROID_NDK set, the NDK's
# toolchain is used and the harness links too (configure with -D HARNESS_OBJECTS_ONLY=OFF).
if (DEFINED ENV{ANDROID_NDK} AND EXISTS "$ENV{ANDROID_NDK}/build/cmake/android.toolchain.cmake")
  set(ANDROID_ABI arm64-v8a)
  set(ANDROID_PLATFORM android-28)
  include("$ENV{ANDROID_NDK}/build/cmake/android.toolchain.cmake")
  message(STATUS "harness: Android NDK at $ENV{ANDROID_NDK}")
else ()
  message(STATUS "harness: no Android NDK (ANDROID_NDK unset): building the pipelines' objects only; "
                 "set ANDROID_NDK to link the harness for the device")
endif ()
