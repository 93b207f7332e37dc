"""The device types of scripts/lava-job (lavajob.py): the built-in ones (qemu, qemu-arm64, ssh), those of
--device-types FILE.json, checked, and the {placeholders} of their deploy, boot and context filled in."""

import copy

from .. import jsonio

_HARNESS_OVERLAY = {"url": "{bundle_url}", "compression": "gz", "format": "tar", "path": "{path}"}
BUILTIN = {
    "qemu": {
        "bundle": "overlay",
        "path": "/opt/aot-harness",
        "context": {"arch": "amd64"},
        "deploy": {
            "to": "tmpfs",
            "os": "debian",
            "images": {
                "rootfs": {
                    "url": "{rootfs_url}",
                    "image_arg": "-drive format=raw,file={rootfs}",
                    "format": "ext4",
                    "overlays": {"lava": True, "aot-harness": _HARNESS_OVERLAY},
                }
            },
        },
        "boot": {
            "method": "qemu",
            "media": "tmpfs",
            "prompts": ["root@debian:~#"],
            "auto_login": {"login_prompt": "login:", "username": "root"},
        },
    },
    # Debian's arm64 kernel (virtio and ext4 are modules: the initrd loads them) and an ext4 root whose init
    # gives a root shell on the console (scripts/lava-lab boot-files makes all three from the arm64 root).
    "qemu-arm64": {
        "bundle": "overlay",
        "path": "/opt/aot-harness",
        "device_type": "qemu",
        "context": {"arch": "arm64", "extra_options": ["-smp 2"]},
        "deploy": {
            "to": "tmpfs",
            "os": "debian",
            "images": {
                "kernel": {
                    "url": "{kernel_url}",
                    "image_arg": '-kernel {kernel} -append "console=ttyAMA0 root=/dev/vda rw"',
                },
                "initrd": {"url": "{initrd_url}", "image_arg": "-initrd {initrd}"},
                "rootfs": {
                    "url": "{rootfs_url}",
                    "image_arg": "-drive format=raw,file={rootfs},if=virtio",
                    "format": "ext4",
                    "overlays": {"lava": True, "aot-harness": _HARNESS_OVERLAY},
                },
            },
        },
        "boot": {"method": "qemu", "media": "tmpfs", "prompts": ["root@debian:~#"]},
    },
    "ssh": {
        "bundle": "fetch",
        "path": "/tmp/aot-harness",
        "deploy": {"to": "ssh", "os": "debian"},
        "boot": {"method": "ssh", "connection": "ssh", "prompts": ["# ", "\\$ "]},
    },
}


def device_types(path):
    """The built-in device types and those of --device-types FILE.json, each checked."""
    types = copy.deepcopy(BUILTIN)
    if not path:
        return types
    fix = 'see scripts/lava-job --help: {"<type>": {"bundle": "overlay"|"fetch", "path", "deploy", "boot"}}'
    top = jsonio.At(jsonio.load(path, fix), path)
    for name, t in top.members():
        t.only_keys(("bundle", "path", "device_type", "deploy", "boot", "context"))
        if t.get("bundle").str() not in ("overlay", "fetch"):
            t.get("bundle").fail(
                "'%s' is neither overlay nor fetch" % t.value["bundle"],
                "overlay: into the booted image; fetch: downloaded by the test shell",
            )
        if not t.get("path").str().startswith("/"):
            t.get("path").fail(
                "is not an absolute path", "write where the bundle goes on the device, e.g. /opt/aot-harness"
            )
        t.get("deploy").obj()
        t.get("boot").obj()
        t.get("context", {}).obj()
        t.get("device_type", name).str()
        types[name] = t.value
    return types


def fill(obj, values):
    if isinstance(obj, dict):
        return {k: fill(v, values) for k, v in obj.items()}
    if isinstance(obj, list):
        return [fill(v, values) for v in obj]
    if isinstance(obj, str):
        for k, v in values.items():
            obj = obj.replace("{%s}" % k, v)
    return obj
