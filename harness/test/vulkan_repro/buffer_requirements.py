"""What a Vulkan driver reports as a storage buffer's memory requirements (vkGetBufferMemoryRequirements),
through ctypes and the loader only (no Vulkan headers, no Halide): whether the required size is a
multiple of the required alignment decides whether Halide 21's allocator hands out short buffers
(short_kernel_args.py, short_device_buffer.py). Prints one line per size and the device's driver.

    python3 harness/test/vulkan_repro/buffer_requirements.py [SIZE...]   # default: 72 3072 33667 33700
"""

import ctypes as C
import sys

P = C.c_void_p


class AppInfo(C.Structure):
    _fields_ = [
        ("sType", C.c_int),
        ("pNext", P),
        ("app", C.c_char_p),
        ("appv", C.c_uint),
        ("eng", C.c_char_p),
        ("engv", C.c_uint),
        ("api", C.c_uint),
    ]


class InstanceInfo(C.Structure):
    _fields_ = [
        ("sType", C.c_int),
        ("pNext", P),
        ("flags", C.c_uint),
        ("app", C.POINTER(AppInfo)),
        ("nlayers", C.c_uint),
        ("layers", P),
        ("next", C.c_uint),
        ("exts", P),
    ]


class QueueInfo(C.Structure):
    _fields_ = [
        ("sType", C.c_int),
        ("pNext", P),
        ("flags", C.c_uint),
        ("family", C.c_uint),
        ("count", C.c_uint),
        ("prio", C.POINTER(C.c_float)),
    ]


class DeviceInfo(C.Structure):
    _fields_ = [
        ("sType", C.c_int),
        ("pNext", P),
        ("flags", C.c_uint),
        ("nqueues", C.c_uint),
        ("queues", C.POINTER(QueueInfo)),
        ("nlayers", C.c_uint),
        ("layers", P),
        ("next", C.c_uint),
        ("exts", P),
        ("features", P),
    ]


class BufferInfo(C.Structure):
    _fields_ = [
        ("sType", C.c_int),
        ("pNext", P),
        ("flags", C.c_uint),
        ("size", C.c_uint64),
        ("usage", C.c_uint),
        ("sharing", C.c_int),
        ("nfamilies", C.c_uint),
        ("families", P),
    ]


class Requirements(C.Structure):
    _fields_ = [("size", C.c_uint64), ("alignment", C.c_uint64), ("type_bits", C.c_uint)]


class DriverProperties(C.Structure):  # VkPhysicalDeviceDriverProperties
    _fields_ = [
        ("sType", C.c_int),
        ("pNext", P),
        ("id", C.c_uint),
        ("name", C.c_char * 256),
        ("info", C.c_char * 256),
        ("conformance", C.c_ubyte * 4),
    ]


class Properties2(C.Structure):
    _fields_ = [("sType", C.c_int), ("pNext", P), ("properties", C.c_ubyte * 1024)]


def main():
    sizes = [int(a) for a in sys.argv[1:]] or [72, 3072, 33667, 33700]
    try:
        vk = C.CDLL("libvulkan.so.1")
    except OSError as e:
        print("SKIP: no Vulkan loader (%s)" % e)
        return 77
    app = AppInfo(0, None, b"buffer_requirements", 1, b"none", 1, (1 << 22) | (1 << 12))
    info = InstanceInfo(1, None, 0, C.pointer(app), 0, None, 0, None)
    inst = P()
    if vk.vkCreateInstance(C.byref(info), None, C.byref(inst)) != 0:
        print("SKIP: vkCreateInstance failed (no driver)")
        return 77
    n = C.c_uint(16)
    devs = (P * 16)()
    vk.vkEnumeratePhysicalDevices(inst, C.byref(n), devs)
    if n.value == 0:
        print("SKIP: no Vulkan device")
        return 77
    for i in range(n.value):
        pd = P(devs[i])
        drv = DriverProperties(1000196000, None)
        props = Properties2(1000059001, C.cast(C.pointer(drv), P))
        vk.vkGetPhysicalDeviceProperties2(pd, C.byref(props))
        name = bytes(props.properties[20:276]).split(b"\0", 1)[0].decode()
        prio = C.c_float(1.0)
        queue = QueueInfo(2, None, 0, 0, 1, C.pointer(prio))
        dinfo = DeviceInfo(3, None, 0, 1, C.pointer(queue), 0, None, 0, None, None)
        dev = P()
        if vk.vkCreateDevice(pd, C.byref(dinfo), None, C.byref(dev)) != 0:
            print("%s: vkCreateDevice failed" % name)
            continue
        print("device %s, driver %s, %s" % (name, drv.name.decode(), drv.info.decode()))
        usage = 0x1 | 0x2 | 0x20  # transfer src | transfer dst | storage: Halide's device buffers
        for size in sizes:
            buf = P()
            binfo = BufferInfo(12, None, 0, size, usage, 0, 0, None)
            vk.vkCreateBuffer(dev, C.byref(binfo), None, C.byref(buf))
            req = Requirements()
            vk.vkGetBufferMemoryRequirements(dev, buf, C.byref(req))
            vk.vkDestroyBuffer(dev, buf, None)
            print(
                "  size %6d: required size %6d, alignment %4d%s"
                % (
                    size,
                    req.size,
                    req.alignment,
                    "" if req.size % req.alignment == 0 else "  (not a multiple of the alignment)",
                )
            )
        vk.vkDestroyDevice(dev, None)
    vk.vkDestroyInstance(inst, None)
    return 0


if __name__ == "__main__":
    sys.exit(main())
