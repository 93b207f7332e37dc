"""What LAVA's qemu device type boots for an arm64 device (scripts/lava-lab boot-files): Debian's arm64 kernel,
a small initrd, and an ext4 image of the arm64 root (arm64root.py) that boots to a root shell on the console.

- Image: the kernel of Debian's linux-image-<version>-arm64 package (downloaded into the LAVA root at its build).
- initrd.gz: Debian builds virtio (pci, mmio, blk, net) and ext4 as modules, so the initrd is the arm64 root's
  static busybox, those modules, and an init that loads them, mounts root= and switches to it.
- rootfs.ext4: the arm64 root as it is (its /proc, /sys, /dev mounts left out), sized to its contents plus room
  for LAVA's overlay and the results, with /usr/sbin/aot-harness-lava-init added: a variant=apt root has no
  init; this one mounts what the drivers need (PoCL reads /proc and /sys) and keeps a root shell with the
  prompt `root@debian:~# ` on ttyAMA0, which LAVA's boot action waits for.
Everything is remade only when the arm64 root's stamp, the kernel package or this recipe changed (STAMP).
"""

import glob
import json
import os
import shutil
import subprocess
import tempfile

from ..arm64 import arm64root, chroot_hold
from .. import data

RECIPE = 2
MODULES = [
    "crc16",
    "crc32c_generic",
    "libcrc32c",
    "mbcache",
    "jbd2",
    "ext4",
    "virtio_pci_legacy_dev",
    "virtio_pci_modern_dev",
    "virtio_pci",
    "virtio_mmio",
    "virtio_blk",
    "failover",
    "net_failover",
    "virtio_net",
]
STAMP = "boot-files.json"
INIT = "/usr/sbin/aot-harness-lava-init"

INITRD_INIT = """#!/bin/sh
# Loads the modules Debian's arm64 kernel needs for a virtio disk with ext4, mounts root= read-write and
# hands over to the root's init.
mount -t proc proc /proc; mount -t sysfs sys /sys; mount -t devtmpfs dev /dev
for m in %(modules)s; do insmod /lib/modules/$m.ko 2>/dev/null; done
root=/dev/vda
for a in $(cat /proc/cmdline); do case $a in root=*) root=${a#root=} ;; esac; done
n=0
while [ ! -b "$root" ] && [ $n -lt 100 ]; do sleep 0.1; n=$((n + 1)); done
mount -t ext4 -o rw "$root" /newroot || { echo "initrd: cannot mount $root"; exec sh; }
umount /proc /sys
mount --move /dev /newroot/dev 2>/dev/null || umount /dev
exec switch_root /newroot %(init)s
"""

ROOT_INIT = """#!/bin/sh
# The init of the arm64 root booted as a LAVA qemu device: the mounts the drivers need, then a root shell on
# the console for LAVA (prompt 'root@debian:~# '), started again whenever it exits.
m() { /bin/busybox mount "$@"; }
m -t proc proc /proc; m -t sysfs sys /sys
/bin/busybox mountpoint -q /dev || m -t devtmpfs dev /dev
/bin/busybox mkdir -p /dev/pts /dev/shm /run /tmp
m -t devpts devpts /dev/pts; m -t tmpfs tmpfs /dev/shm; m -t tmpfs tmpfs /run; m -t tmpfs tmpfs /tmp
m -o remount,rw / 2>/dev/null
/bin/busybox hostname debian
export HOME=/root PATH=/usr/local/sbin:/usr/local/bin:/usr/sbin:/usr/bin:/sbin:/bin TERM=dumb PS1='root@debian:~# '
cd /root
while true; do /bin/busybox setsid -c /bin/bash --norc -i </dev/ttyAMA0 >/dev/ttyAMA0 2>&1; done
"""


def _sh(cmd, **kw):
    r = subprocess.run(cmd, capture_output=True, text=True, **kw)
    if r.returncode != 0:
        raise data.InputError("%s failed: %s" % (" ".join(cmd[:3]), " ".join((r.stderr or r.stdout).split())[-300:]))
    return r.stdout


def make(lava_root, arm64_root, out_dir):
    """Writes Image, initrd.gz and rootfs.ext4 into out_dir (a directory inside the LAVA root) unless they
    are current. Returns one line saying what it did."""
    arm64root.check_root(arm64_root)
    debs = sorted(glob.glob(os.path.join(lava_root, "srv", "aot-harness", "debs", "linux-image-*-arm64*.deb")))
    if not debs:
        raise data.InputError(
            "no arm64 kernel package in %s/srv/aot-harness/debs; rebuild the LAVA root "
            "(scripts/lava-lab build)" % lava_root
        )
    want = {"recipe": RECIPE, "kernel": os.path.basename(debs[-1]), "root": arm64root.read_stamp(arm64_root)}
    try:
        with open(os.path.join(out_dir, STAMP)) as f:
            if json.load(f) == want:
                return "boot files up to date (%s)" % out_dir
    except (OSError, ValueError):
        pass
    os.makedirs(out_dir, exist_ok=True)
    tmp = tempfile.mkdtemp(prefix="lava-boot-")
    try:
        k = os.path.join(tmp, "k")
        _sh(["dpkg-deb", "-x", debs[-1], k])
        version = os.listdir(os.path.join(k, "lib", "modules"))[0]
        shutil.copy(os.path.join(k, "boot", "vmlinuz-" + version), os.path.join(out_dir, "Image.new"))
        _initrd(k, version, arm64_root, tmp, os.path.join(out_dir, "initrd.gz.new"))
        _rootfs(arm64_root, tmp, os.path.join(out_dir, "rootfs.ext4.new"))
        for name in ("Image", "initrd.gz", "rootfs.ext4"):
            os.replace(os.path.join(out_dir, name + ".new"), os.path.join(out_dir, name))
        with open(os.path.join(out_dir, STAMP), "w") as f:
            json.dump(want, f, indent=1)
    finally:
        shutil.rmtree(tmp, ignore_errors=True)
        for name in ("Image", "initrd.gz", "rootfs.ext4"):
            if os.path.exists(os.path.join(out_dir, name + ".new")):
                os.remove(os.path.join(out_dir, name + ".new"))
    size = os.path.getsize(os.path.join(out_dir, "rootfs.ext4"))
    return "boot files made in %s (kernel %s, rootfs.ext4 %.0f MB)" % (out_dir, version, size / 1e6)


def _initrd(kdir, version, arm64_root, tmp, out):
    i = os.path.join(tmp, "initrd")
    for d in ("bin", "lib/modules", "proc", "sys", "dev", "newroot"):
        os.makedirs(os.path.join(i, d))
    shutil.copy(os.path.join(arm64_root, "bin", "busybox"), os.path.join(i, "bin", "busybox"))
    for applet in ("sh", "mount", "umount", "insmod", "switch_root", "sleep", "cat", "mkdir"):
        os.symlink("busybox", os.path.join(i, "bin", applet))
    mods = os.path.join(kdir, "lib", "modules", version)
    found = {}
    for dirpath, _dirs, files in os.walk(mods):
        for f in files:
            if f.endswith(".ko"):
                found[f[:-3]] = os.path.join(dirpath, f)
    missing = [m for m in MODULES if m not in found]
    if missing:
        raise data.InputError(
            "the kernel %s lacks the modules %s (built in, or compressed?); adapt MODULES in "
            "scripts/harnesslib/lava/lavaboot.py" % (version, ", ".join(missing))
        )
    for m in MODULES:
        shutil.copy(found[m], os.path.join(i, "lib", "modules", m + ".ko"))
    with open(os.path.join(i, "init"), "w") as f:
        f.write(INITRD_INIT % {"modules": " ".join(MODULES), "init": INIT})
    os.chmod(os.path.join(i, "init"), 0o755)
    files = _sh(["sh", "-c", "cd %s && find . | cpio -o -H newc --quiet | gzip -1 > %s" % (i, out)])
    return files


def _rootfs(arm64_root, tmp, out):
    """ext4 image of the root: a plain bind of it (its /proc, /sys and /dev mounts stay out), plus the init."""
    view = os.path.join(tmp, "view")
    os.makedirs(view)
    chroot_hold._run(["mount", "--bind", arm64_root, view])
    try:
        chroot_hold._run(["mount", "--make-private", view])
        used = int(_sh(["du", "-sxm", view]).split()[0])
        # room for LAVA's overlay, the harness bundle, results and PoCL's kernel cache; no more, since LAVA
        # copies and checksums the whole image for every job
        size_mb = int(used * 1.15) + 256
        with open(out, "wb") as f:
            f.truncate(size_mb * 1024 * 1024)
        _sh(["mkfs.ext4", "-q", "-F", "-L", "rootfs", "-d", view, out])
    finally:
        chroot_hold._unmount(view)
    init = os.path.join(tmp, "lava-init")
    with open(init, "w") as f:
        f.write(ROOT_INIT)
    cmds = os.path.join(tmp, "debugfs.cmds")
    with open(cmds, "w") as f:  # bookworm: /sbin is usr/sbin
        f.write(
            "cd /usr/sbin\nwrite %s %s\nset_inode_field %s mode 0100755\n"
            % (init, os.path.basename(INIT), os.path.basename(INIT))
        )
    _sh(["debugfs", "-w", "-f", cmds, out])
    check = _sh(["debugfs", "-R", "stat " + INIT, out])
    if "Mode:  0755" not in check and "Mode: 0755" not in check:
        raise data.InputError("writing %s into %s failed: %s" % (INIT, out, " ".join(check.split())[:200]))
