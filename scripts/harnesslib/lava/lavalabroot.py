"""The root file system of the throwaway LAVA (lavalab.py): Debian bookworm amd64 with lava-server, lava-dispatcher,
lavacli, PostgreSQL, qemu-system-arm, and, for the arm64 qemu devices, Debian's arm64 kernel package.

Built once with mmdebstrap and kept (its stamp names what it holds; a build that finds the same stamp does
nothing). What it took to make lava-server run here, in the build's customize step:
- lava-server's postinst sets up its database only when PostgreSQL runs, and nothing may run during package
  installation: so lava-server is installed after the rest, then the database made with PostgreSQL started
  by hand (postinst.py --db) and stopped again;
- PostgreSQL listens on its unix socket only (listen_addresses ''), trusting local connections: no port to
  clash with a PostgreSQL of this machine;
- LAVA's deploy writes the test overlay into the image with libguestfs, whose appliance dies under nested KVM
  here ("failed to set MSR"): it must use TCG, and since LAVA purges the dispatcher's environment the setting
  goes into /etc/lava-server/env.yaml's overrides;
- libguestfs' appliance boots this root's own kernel: linux-image-amd64 is installed for it.
"""

import fcntl
import json
import os
import shutil
import subprocess
import tempfile
import time

from ..arm64 import arm64root
from .. import data, jsonio

SUITE = "bookworm"
MIRROR = "http://deb.debian.org/debian"
PACKAGES = [
    "postgresql",
    "lava-dispatcher",
    "lavacli",
    "qemu-system-arm",
    "linux-image-amd64",
    "curl",
    "procps",
    "iproute2",
    "ca-certificates",
    "python3-yaml",
]
STAMP = ".aot-harness-lava-root.json"
RECIPE = 1

CUSTOMIZE = r"""set -eu
R=$1
C="chroot $R /usr/bin/env -i PATH=/usr/sbin:/usr/bin:/sbin:/bin HOME=/root LANG=C.UTF-8 DEBIAN_FRONTEND=noninteractive"
P=$(ls -d "$R"/etc/postgresql/*/main | tail -n 1)
V=$(basename "$(dirname "$P")")
sed -i "s/^#\?listen_addresses.*/listen_addresses = ''/" "$P/postgresql.conf"
sed -i 's/^\(local\|host\)\(.*\)\(peer\|scram-sha-256\|md5\)$/\1\2trust/' "$P/pg_hba.conf"
$C apt-get install -y -q --no-install-recommends lava-server >/dev/null
mkdir -p "$R/etc/lava-server/settings.d"
cat > "$R/etc/lava-server/settings.d/00-database.yaml" <<'Y'
DATABASES:
  default:
    ENGINE: "django.db.backends.postgresql"
    NAME: "lavaserver"
    USER: "lavaserver"
    PASSWORD: "throwaway"
    HOST: "/var/run/postgresql"
    PORT: 5432
Y
printf 'ALLOWED_HOSTS: ["127.0.0.1", "localhost"]\nDEBUG: false\n' > "$R/etc/lava-server/settings.d/01-local.yaml"
$C pg_ctlcluster "$V" main start
$C python3 /usr/share/lava-server/postinst.py --db >/dev/null
$C pg_ctlcluster "$V" main stop
grep -q '^overrides:' "$R/etc/lava-server/env.yaml"
printf '  LIBGUESTFS_BACKEND: direct\n  LIBGUESTFS_BACKEND_SETTINGS: force_tcg\n' >> "$R/etc/lava-server/env.yaml"
$C dpkg --add-architecture arm64
$C apt-get update -q >/dev/null
K=$($C apt-cache depends linux-image-arm64:arm64 | sed -n 's/^ *Depends: \(linux-image-[0-9][^ ]*\).*/\1/p' | head -n 1)
[ -n "$K" ]
mkdir -p "$R/srv/aot-harness/debs"
$C sh -c "cd /srv/aot-harness/debs && apt-get download -q ${K%:arm64}:arm64 >/dev/null"
"""


def wanted_stamp():
    return {
        "format": RECIPE,
        "suite": SUITE,
        "mirror": os.environ.get("AOT_HARNESS_DEBIAN_MIRROR") or MIRROR,
        "packages": sorted(PACKAGES + ["lava-server"]),
        "customize": CUSTOMIZE,
    }


def read_stamp(root):
    return jsonio.load_or_none(os.path.join(root, STAMP))


def check(root):
    if read_stamp(root) is None:
        raise data.InputError("no LAVA root at %s; build it with scripts/lava-lab build" % root)


def build(root):
    want = wanted_stamp()
    if arm64root.stamp_matches(read_stamp(root), want):
        return "LAVA root up to date (%s)" % root
    if os.geteuid() != 0:
        raise data.InputError("building the LAVA root needs root (mmdebstrap, chroot); run as root")
    if shutil.which("mmdebstrap") is None:
        raise data.InputError("mmdebstrap not found: run scripts/setup --arm64-root")
    arm64root.room_for(root, 8, "the LAVA root needs about 4 GB and room for its images", "AOT_HARNESS_LAVA_ROOT")
    t0 = time.time()
    with open(root + ".lock", "a") as lk:
        fcntl.flock(lk, fcntl.LOCK_EX)
        if arm64root.stamp_matches(read_stamp(root), want):
            return "LAVA root up to date (%s)" % root
        new, old = root + ".new", root + ".old"
        for d in (new, old):
            if os.path.exists(d):
                arm64root._remove_tree(d, unmount=True)
        with tempfile.NamedTemporaryFile("w", suffix=".sh", delete=False) as hook:
            hook.write(CUSTOMIZE)
        try:
            cmd = [
                "mmdebstrap",
                "--variant=apt",
                '--aptopt=APT::Install-Recommends "false"',
                "--include=" + ",".join(PACKAGES),
                '--customize-hook=sh %s "$1"' % hook.name,
                want["suite"],
                new,
                want["mirror"],
            ]
            print("lava-lab: " + " ".join(cmd), flush=True)
            rc, err = arm64root.run_group(cmd)
            if rc != 0:
                tail = " ".join(err.strip().splitlines()[-4:])[-500:]
                raise data.InputError("mmdebstrap of the LAVA root failed (exit %d): %s" % (rc, tail))
            with open(os.path.join(new, STAMP), "w") as f:
                json.dump(dict(want, seconds=round(time.time() - t0)), f, indent=1)
        except BaseException:
            if os.path.exists(new):
                arm64root._remove_tree(new, unmount=True)
            raise
        finally:
            os.remove(hook.name)
        if os.path.exists(root):
            os.rename(root, old)
        os.rename(new, root)
        if os.path.exists(old):
            arm64root._remove_tree(old)
    du = subprocess.run(["du", "-sh", root], capture_output=True, text=True).stdout.split()[:1]
    return "built the LAVA root %s in %.0f s (%s)" % (root, time.time() - t0, du[0] if du else "?")
