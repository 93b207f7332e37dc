"""scripts/lava-job: LAVA job definitions that run the harness's tests on a device farm, one job per device type
and shard, and (--fetch) LAVA's results back into JUnit and results.json (lavafetch.py).

  scripts/device-ctest --runner local --bundle out/aot-harness-bundle.tar.gz     # the staged bundle
  scripts/lava-job --bundle out/aot-harness-bundle.tar.gz --bundle-url https://files.example/b.tar.gz \\
      --device-type qemu --device-type ssh --shards 4 --out out/lava [--label precommit]
  lavacli jobs submit out/lava/qemu-shard-1-of-4.yaml ...
  scripts/lava-job --fetch out/lava/logs/*.yaml --out out/lava-results    # the jobs' logs (lava-server
      /api/v0.2/jobs/<id>/logs/, or `lava-run`'s output directory)
  scripts/lava-job --jobs out/lava --submit http://127.0.0.1:8011/ --token-file F --out out/lava-results
      # or with --bundle ...: write the jobs, then submit each through lava-server's REST API, wait, fetch
      # the logs and write junit.xml + results.json; a job ending Incomplete/Canceled is retried once, then
      # its tests are INFRA (lavasubmit.py)

Each job deploys the bundle (into the rootfs image as a LAVA overlay where the device type boots an image,
or downloaded by the test shell with curl/wget where it does not, e.g. a static device reached over ssh),
then runs its shard's tests in LAVA's test shell: one step, and one `lava-test-case`, per test
(pipeline.profile.case; pass, fail or skip, with the run's seconds as the measurement). Each test's
`aot-harness run --json` record is printed base64-encoded in the log (lines AOTH-REC), which is how --fetch
recovers the full records. The shard of a test is the same as `aot-harness run --shard i/n` picks.

Device types: built in are `qemu` (amd64 image booted by LAVA's qemu device type, needs --rootfs-url),
`qemu-arm64` (LAVA's qemu device type with arch arm64: qemu-system-aarch64 boots --kernel-url with
--initrd-url and the --rootfs-url ext4 image, default Image and initrd.gz beside the rootfs; the harness
bundle and LAVA's own overlay both go into the image, `overlays: {lava: true}`, since a guest without udev
cannot mount a separate overlay disk by uuid) and `ssh` (a static device, LAVA's ssh device type); others come
from --device-types FILE.json, {"<type>": {"bundle": "overlay"|"fetch", "path": "/opt/aot-harness",
"device_type": LAVA's name (default the key), "deploy": {...}, "boot": {...}, "context": {...}}} whose
strings may hold {bundle_url}, {rootfs_url}, {kernel_url}, {initrd_url} and {path}. --tag TAG (repeatable)
asks for devices carrying those LAVA device tags. Every job is checked with lava_common.schemas.validate first.
"""

import json
import os
import re
import sys
import tarfile

from . import lavatypes
from .. import data, jsonio, toolmain


# The shard function of harness/src/matrix/shard.cpp (FNV-1a 64 then jump consistent hash), so that a LAVA shard
# holds the tests `aot-harness run --shard i/n` would run. The unit test checks both agree.
def fnv1a64(s):
    h = 0xCBF29CE484222325
    for c in s.encode():
        h = ((h ^ c) * 0x100000001B3) & 0xFFFFFFFFFFFFFFFF
    return h


def jump_hash(key, buckets):
    b, j = -1, 0
    while j < buckets:
        b = j
        key = (key * 2862933555777941757 + 1) & 0xFFFFFFFFFFFFFFFF
        j = int(float(b + 1) * (float(1 << 31) / float((key >> 33) + 1)))
    return b


def shard_of(test, count):
    return jump_hash(fnv1a64(test), count) + 1


def bundle_tests(bundle, label):
    """Test names (pipeline/profile/case) of the bundle's out/list.json, precommit cases only unless label
    is 'all' or 'nightly' (nightly cases only)."""
    fix = "make the bundle with scripts/device-ctest --bundle FILE.tar.gz"
    try:
        with tarfile.open(bundle) as tf:
            member = next((m for m in tf.getmembers() if m.name.lstrip("./") == "out/list.json"), None)
            if member is None or not member.isfile():
                raise data.InputError("%s has no out/list.json; %s" % (bundle, fix))
            raw = tf.extractfile(member).read()
    except OSError as e:
        raise data.InputError("cannot read the bundle %s: %s; %s" % (bundle, e.strerror or e, fix))
    except (tarfile.TarError, EOFError, ValueError) as e:
        first = (str(e).strip().splitlines() or [type(e).__name__])[0].rstrip(":")
        raise data.InputError("the bundle %s is not a tar archive (%s); %s" % (bundle, first, fix))
    where = "%s:out/list.json" % bundle
    top = jsonio.At(jsonio.loads(raw, where, fix), where, fix)
    tests = []
    for p in top.get("pipelines", []).items():
        for prof in p.get("profiles", []).items():
            for c in p.get("cases", []).items():
                if label == "all" or (label == "nightly") == bool(c.get("nightly", False).bool()):
                    tests.append("%s/%s/%s" % (p.get("name").str(), prof.get("name").str(), c.get("name").str()))
    return tests


def shell_steps(tests, dtype, bundle_url, job_name):
    """The test shell's steps: name the job and the tests it will run (so that --fetch knows, from the log
    alone, which tests a job that stopped early never reported), find or fetch the bundle, define aot_test,
    then one aot_test line per test."""
    path = dtype["path"]
    steps = ["echo AOTH-JOB %s" % job_name]
    steps += ["echo AOTH-PLAN %s %s" % (job_name, " ".join(tests[i : i + 40])) for i in range(0, len(tests), 40)]
    if dtype["bundle"] == "fetch":  # a fresh directory per job: a static device keeps no stale bundle
        steps += [
            'AOT=$(mktemp -d %s.XXXXXX) || lava-test-raise "cannot create %s.XXXXXX"' % (path, path),
            '{ curl -fsSL "%s" || wget -qO- "%s"; } | tar xzf - -C "$AOT" || lava-test-raise "cannot fetch %s"'
            % (bundle_url, bundle_url, bundle_url),
        ]
    else:
        steps.append("AOT=%s" % path)
    steps += [
        'cd "$AOT" && mkdir -p out/results out/logs || lava-test-raise "no aot-harness bundle in $AOT"',
        # aot_test PIPELINE PROFILE CASE: run it, report it, print its record base64-encoded for --fetch
        # (LAVA's run.sh has set -e: the harness's failing exit code is caught, not fatal)
        'aot_test() { n="$1.$2.$3"; f="out/results/$1__$2__$3.json"; s=$(date +%s); rc=0; '
        './bin/aot-harness run --pipeline "$1" --profile "$2" --case "$3" --golden-dir golden --json "$f" '
        '> "out/logs/$n.log" 2>&1 || rc=$?; e=$(($(date +%s) - s)); '
        'case $rc in 0) r=pass ;; 77) r=skip ;; *) r=fail ;; esac; tail -n 3 "out/logs/$n.log"; '
        'if [ ! -f "$f" ]; then :; elif command -v gzip >/dev/null; then gzip -c "$f" | base64 | sed "s/^/AOTH-REC $n gz /"; '
        'else base64 "$f" | sed "s/^/AOTH-REC $n raw /"; fi; '
        'lava-test-case "$n" --result $r --measurement $e --units seconds; }',
    ]
    for t in tests:
        steps.append("aot_test %s" % " ".join(t.split("/")))
    if dtype["bundle"] == "fetch":
        steps.append('cd / && rm -rf "$AOT"')
    return steps


def sibling_url(url, name):
    return url.rsplit("/", 1)[0] + "/" + name if url and "/" in url else ""


def make_job(dtype_name, dtype, tests, shard, count, args):
    values = {
        "bundle_url": args.bundle_url,
        "rootfs_url": args.rootfs_url or "",
        "path": dtype["path"],
        "kernel_url": args.kernel_url or sibling_url(args.rootfs_url, "Image"),
        "initrd_url": args.initrd_url or sibling_url(args.rootfs_url, "initrd.gz"),
    }
    name = "aot-harness-%s-shard-%d-of-%d" % (dtype_name, shard, count)
    minutes = args.timeout_minutes
    job = {
        "job_name": name,
        "device_type": dtype.get("device_type", dtype_name),
        "visibility": args.visibility,
        "priority": args.priority,
        "timeouts": {"job": {"minutes": minutes}, "action": {"minutes": minutes - 5}, "connection": {"minutes": 2}},
        "metadata": {
            "aot-harness.shard": "%d/%d" % (shard, count),
            "aot-harness.tests": str(len(tests)),
            "aot-harness.label": args.label,
        },
        "actions": [
            {"deploy": dict(lavatypes.fill(dtype["deploy"], values), timeout={"minutes": 10})},
            {"boot": dict(lavatypes.fill(dtype["boot"], values), timeout={"minutes": 10})},
            {
                "test": {
                    "timeout": {"minutes": minutes - 5},
                    "definitions": [
                        {
                            "from": "inline",
                            "name": "aot-harness",
                            "path": "inline/aot-harness.yaml",
                            "repository": {
                                "metadata": {
                                    "format": "Lava-Test Test Definition 1.0",
                                    "name": name,
                                    "description": "aot-harness tests, shard %d of %d" % (shard, count),
                                },
                                "run": {"steps": shell_steps(tests, dtype, args.bundle_url, name)},
                            },
                        }
                    ],
                }
            },
        ],
    }
    if dtype.get("context"):
        job["context"] = lavatypes.fill(dtype["context"], values)
    if args.tag:
        job["tags"] = list(args.tag)
    if dtype["bundle"] == "overlay" and "{rootfs_url}" in json.dumps(dtype["deploy"]) and not args.rootfs_url:
        raise data.InputError("device type %s boots a root file system image: pass --rootfs-url URL" % dtype_name)
    return job


def validate(job):
    """LAVA's own schema check (Debian's lava-common); raises InputError with LAVA's message."""
    try:
        from lava_common.schemas import validate as lava_validate
    except ImportError:
        raise data.InputError(
            "lava-common is not installed (apt-get install lava-common, or scripts/setup); it validates the jobs"
        )
    import voluptuous

    try:
        lava_validate(job, strict=True)
    except voluptuous.Invalid as e:
        raise data.InputError("job %s is not a valid LAVA job: %s" % (job.get("job_name"), e))


def to_yaml(job):
    import yaml

    return yaml.safe_dump(job, sort_keys=False, width=1000)


def write_jobs(args):
    types = lavatypes.device_types(args.device_types)
    for t in args.device_type:
        if t not in types:
            raise data.InputError(
                "unknown device type '%s': built in are %s; describe others in --device-types FILE"
                % (t, ", ".join(sorted(lavatypes.BUILTIN)))
            )
    tests = bundle_tests(args.bundle, args.label)
    if args.select:
        try:
            pattern = re.compile(args.select)
        except re.error as e:
            raise data.InputError("--select '%s' is not a regular expression (%s)" % (args.select, e))
        tests = [t for t in tests if pattern.search(t)]
    if not tests:
        raise data.InputError(
            "the bundle lists no %s tests%s; stage a build with them (scripts/device-ctest "
            "--bundle)%s"
            % (args.label, " matching --select" if args.select else "", " or widen --select" if args.select else "")
        )
    if args.shards > len(tests):
        raise data.InputError(
            "--shards %d, but the bundle lists only %d %s test(s); pass --shards from 1 to %d"
            % (args.shards, len(tests), args.label, len(tests))
        )
    by_shard = {i: [x for x in tests if shard_of(x, args.shards) == i] for i in range(1, args.shards + 1)}
    empty = [i for i, mine in by_shard.items() if not mine]
    if empty:
        raise data.InputError(
            "with --shards %d, shard %s would get no test (%d tests hash unevenly); pass fewer --shards"
            % (args.shards, ", ".join("%d/%d" % (i, args.shards) for i in empty), len(tests))
        )
    outputs, index = [], []
    for t in args.device_type:
        for i in range(1, args.shards + 1):
            job = make_job(t, types[t], by_shard[i], i, args.shards, args)
            validate(job)
            path = os.path.join(args.out, "%s-shard-%d-of-%d.yaml" % (t, i, args.shards))
            outputs.append((path, to_yaml(job)))
            index.append(
                {
                    "job": os.path.basename(path),
                    "name": job["job_name"],
                    "device_type": t,
                    "shard": i,
                    "shards": args.shards,
                    "tests": by_shard[i],
                }
            )
    outputs.append(
        (
            os.path.join(args.out, "jobs.json"),
            json.dumps({"bundle_url": args.bundle_url, "label": args.label, "jobs": index}, indent=1),
        )
    )
    jsonio.write_all_atomic(outputs)  # every job and the index, or none of them
    for (path, _), j in zip(outputs, index):
        print("lava-job: %s: %d tests" % (path, len(j["tests"])))
    return 0


def main(argv=None):
    ap = data.arg_parser("lava-job", __doc__)
    ap.add_argument("--fetch", nargs="+", metavar="LOG", help="LAVA job logs (YAML) to turn into JUnit + results.json")
    ap.add_argument("--bundle", help="the staged bundle (scripts/device-ctest --bundle FILE.tar.gz)")
    ap.add_argument("--bundle-url", help="where the devices' dispatcher (or the device) downloads the bundle")
    ap.add_argument("--rootfs-url", help="root file system image for device types that boot one (qemu, qemu-arm64)")
    ap.add_argument("--kernel-url", help="qemu-arm64: the kernel (default Image beside --rootfs-url)")
    ap.add_argument("--initrd-url", help="qemu-arm64: the initrd (default initrd.gz beside --rootfs-url)")
    ap.add_argument("--tag", action="append", default=[], help="LAVA device tag the jobs need (repeatable)")
    ap.add_argument("--device-type", action="append", default=[], help="LAVA device type (repeatable)")
    ap.add_argument("--device-types", help="JSON file describing more device types (see above)")
    ap.add_argument("--shards", type=toolmain.whole(1, 10000), default=1, help="jobs per device type (default 1)")
    ap.add_argument(
        "--label", choices=("precommit", "nightly", "all"), default="precommit", help="which cases (default precommit)"
    )
    ap.add_argument("--select", metavar="REGEX", help="only the tests (pipeline/profile/case) it matches, as ctest -R")
    ap.add_argument(
        "--timeout-minutes", type=toolmain.whole(10, 24 * 60), default=120, help="job timeout, 10 to 1440 (default 120)"
    )
    ap.add_argument("--priority", default="medium", help="LAVA priority: high, medium, low (default medium)")
    ap.add_argument("--visibility", default="public", help="LAVA visibility (default public)")
    ap.add_argument("--out", default="out/lava", help="output directory (default out/lava)")
    ap.add_argument("--submit", metavar="URL", help="lava-server to submit the jobs to (REST API), then wait and fetch")
    ap.add_argument("--token-file", help="--submit: file holding the lava-server API token")
    ap.add_argument("--jobs", metavar="DIR", help="--submit: the jobs scripts/lava-job wrote there (jobs.json)")
    ap.add_argument(
        "--retries",
        type=toolmain.whole(0, 5),
        default=1,
        help="--submit: submissions again of a job that ended Incomplete or Canceled (default 1)",
    )
    ap.add_argument("--poll-seconds", type=toolmain.real(0.1, 600), default=5, help="--submit: poll interval")
    ap.add_argument(
        "--wait-minutes",
        type=toolmain.whole(1, 7 * 24 * 60),
        default=240,
        help="--submit: give up waiting after this long (default 240)",
    )
    args = ap.parse_args(argv)
    if args.fetch:
        from . import lavafetch

        return lavafetch.fetch(args.fetch, args.out)
    if args.submit:
        if not args.token_file:
            raise data.InputError("--submit needs --token-file FILE (the lava-server API token)")
        if args.bundle:  # write the jobs first, into --jobs DIR (default OUT/jobs)
            if not (args.bundle_url and args.device_type):
                raise data.InputError("--submit with --bundle also needs --bundle-url URL and --device-type T")
            args.jobs = args.jobs or os.path.join(args.out, "jobs")
            jobs_out, args.out = args.out, args.jobs
            write_jobs(args)
            args.out = jobs_out
        if not args.jobs:
            raise data.InputError("--submit needs the jobs: --jobs DIR (written by scripts/lava-job), or --bundle ...")
        from . import lavasubmit

        return lavasubmit.run(args, args.jobs, args.out)
    if not (args.bundle and args.bundle_url and args.device_type):
        raise data.InputError(
            "pass --bundle FILE, --bundle-url URL and at least one --device-type "
            "(or --fetch LOG..., or --submit URL); see --help"
        )
    return write_jobs(args)


if __name__ == "__main__":
    sys.exit(toolmain.run("lava-job", main))
