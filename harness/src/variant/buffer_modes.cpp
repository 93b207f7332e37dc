// Buffer mode names (see buffers.h); apart from buffers.cpp so that option checks and the fuzz
// build can use them without the Halide runtime.
#include "variant/buffers.h"

#include "base/error.h"

namespace harness {

const std::vector<BufferMode> &all_buffer_modes() {
    static const std::vector<BufferMode> modes{BufferMode::Host, BufferMode::Device, BufferMode::WrappedHostVisible,
                                               BufferMode::WrappedDeviceOnly};
    return modes;
}

const char *buffer_mode_name(BufferMode m) {
    switch (m) {
    case BufferMode::Host:
        return "host";
    case BufferMode::Device:
        return "device";
    case BufferMode::WrappedHostVisible:
        return "wrapped-host-visible";
    case BufferMode::WrappedDeviceOnly:
        return "wrapped-device-only";
    }
    return "?";
}

BufferMode buffer_mode_from_name(const std::string &name) {
    for (BufferMode m : all_buffer_modes()) {
        if (name == buffer_mode_name(m)) return m;
    }
    throw Error("unknown buffer mode '" + name +
                "'; modes: host, device, wrapped-host-visible, wrapped-device-only, all");
}

}  // namespace harness
