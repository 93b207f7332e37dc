"""scripts/lava-job: LAVA job definitions that run the harness's tests on a device farm, one job per device type
and shard, and (--fetch) LAVA's results back into JUnit and results.json (lavafetch.py).

  scripts/device-ctest --runner local --bundle out/aot-harness-bundle.tar.gz     # the staged bundle
  scripts/lava-job --bundle out/aot-harness-bundle.tar.gz --bundle-url https://files.example/b.tar.gz \\
      --device-type qemu --device-type ssh --shards 4 --out out/lava [--label precommit]
  lavacli jobs submit out/lava/qemu-shard-1-of-4.yaml ...
  scripts/lava-job --fetch out/lava/logs/*.yaml --out out/lava-results    # the jobs' logs (lava-server
      /api/v0.2/jobs/<id>/logs/, or `lava-run`'s output directory)

Each job deploys the bundle (into the rootfs image as a LAVA overlay where the device type boots an image,
or downloaded by the test shell with curl/wget where it does not, e.g. a static device reached over ssh),
then runs its shard's tests in LAVA's test shell: one step, and one `lava-test-case`, per test
(pipeline.profile.case; pass, fail or skip, with the run's seconds as the measurement). Each test's
`aot-harness run --json` record is printed base64-encoded in the log (lines AOTH-REC), which is how --fetch
recovers the full records. The shard of a test is the same as `aot-harness run --shard i/n` picks.

Device types: built in are `qemu` (tmpfs image, needs --rootfs-url) and `ssh` (a static device, LAVA's
ssh device type); others come from --device-types FILE.json, {"<type>": {"bundle": "overlay"|"fetch",
"path": "/opt/aot-harness", "deploy": {...}, "boot": {...}, "context": {...}}} whose strings may hold
{bundle_url}, {rootfs_url} and {path}. Every job is checked with lava_common.schemas.validate first.
"""
import copy
import json
import os
import sys
import tarfile

from . import data, jsonio, toolmain

BUILTIN = {
    "qemu": {"bundle": "overlay", "path": "/opt/aot-harness", "context": {"arch": "amd64"},
             "deploy": {"to": "tmpfs", "os": "debian",
                        "images": {"rootfs": {"url": "{rootfs_url}", "image_arg": "-drive format=raw,file={rootfs}",
                                              "format": "ext4", "overlays": {"aot-harness": {
                                                  "url": "{bundle_url}", "compression": "gz", "format": "tar",
                                                  "path": "{path}"}}}}},
             "boot": {"method": "qemu", "media": "tmpfs", "prompts": ["root@debian:~#"],
                      "auto_login": {"login_prompt": "login:", "username": "root"}}},
    "ssh": {"bundle": "fetch", "path": "/tmp/aot-harness",
            "deploy": {"to": "ssh", "os": "debian"},
            "boot": {"method": "ssh", "connection": "ssh", "prompts": ["# ", "\\$ "]}},
}
# The shard function of harness/src/matrix/shard.cpp (FNV-1a 64 then jump consistent hash), so that a LAVA shard
# holds the tests `aot-harness run --shard i/n` would run. The unit test checks both agree.
def fnv1a64(s):
    h = 0xcbf29ce484222325
    for c in s.encode():
        h = ((h ^ c) * 0x100000001b3) & 0xFFFFFFFFFFFFFFFF
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


def device_types(path):
    """The built-in device types and those of --device-types FILE.json, each checked."""
    types = copy.deepcopy(BUILTIN)
    if not path:
        return types
    fix = 'see scripts/lava-job --help: {"<type>": {"bundle": "overlay"|"fetch", "path", "deploy", "boot"}}'
    top = jsonio.At(jsonio.load(path, fix), path)
    for name, t in top.members():
        t.only_keys(("bundle", "path", "deploy", "boot", "context"))
        if t.get("bundle").str() not in ("overlay", "fetch"):
            t.get("bundle").fail("'%s' is neither overlay nor fetch" % t.value["bundle"],
                                 "overlay: into the booted image; fetch: downloaded by the test shell")
        if not t.get("path").str().startswith("/"):
            t.get("path").fail("is not an absolute path", "write where the bundle goes on the device, e.g. /opt/aot-harness")
        t.get("deploy").obj()
        t.get("boot").obj()
        t.get("context", {}).obj()
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


def shell_steps(tests, dtype, bundle_url, job_name):
    """The test shell's steps: name the job and the tests it will run (so that --fetch knows, from the log
    alone, which tests a job that stopped early never reported), find or fetch the bundle, define aot_test,
    then one aot_test line per test."""
    path = dtype["path"]
    steps = ["echo AOTH-JOB %s" % job_name]
    steps += ["echo AOTH-PLAN %s %s" % (job_name, " ".join(tests[i:i + 40])) for i in range(0, len(tests), 40)]
    if dtype["bundle"] == "fetch":  # a fresh directory per job: a static device keeps no stale bundle
        steps += ['AOT=$(mktemp -d %s.XXXXXX) || lava-test-raise "cannot create %s.XXXXXX"' % (path, path),
                 '{ curl -fsSL "%s" || wget -qO- "%s"; } | tar xzf - -C "$AOT" || lava-test-raise "cannot fetch %s"'
                 % (bundle_url, bundle_url, bundle_url)]
    else:
        steps.append('AOT=%s' % path)
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


def make_job(dtype_name, dtype, tests, shard, count, args):
    values = {"bundle_url": args.bundle_url, "rootfs_url": args.rootfs_url or "", "path": dtype["path"]}
    name = "aot-harness-%s-shard-%d-of-%d" % (dtype_name, shard, count)
    minutes = args.timeout_minutes
    job = {"job_name": name, "device_type": dtype_name, "visibility": args.visibility, "priority": args.priority,
           "timeouts": {"job": {"minutes": minutes}, "action": {"minutes": minutes - 5},
                        "connection": {"minutes": 2}},
           "metadata": {"aot-harness.shard": "%d/%d" % (shard, count), "aot-harness.tests": str(len(tests)),
                        "aot-harness.label": args.label},
           "actions": [
               {"deploy": dict(fill(dtype["deploy"], values), timeout={"minutes": 10})},
               {"boot": dict(fill(dtype["boot"], values), timeout={"minutes": 10})},
               {"test": {"timeout": {"minutes": minutes - 5},
                         "definitions": [{"from": "inline", "name": "aot-harness", "path": "inline/aot-harness.yaml",
                                          "repository": {"metadata": {"format": "Lava-Test Test Definition 1.0",
                                                                      "name": name,
                                                                      "description": "aot-harness tests, shard %d of %d"
                                                                                     % (shard, count)},
                                                         "run": {"steps": shell_steps(tests, dtype, args.bundle_url, name)}}}]}},
           ]}
    if dtype.get("context"):
        job["context"] = fill(dtype["context"], values)
    if dtype["bundle"] == "overlay" and "{rootfs_url}" in json.dumps(dtype["deploy"]) and not args.rootfs_url:
        raise data.InputError("device type %s boots a root file system image: pass --rootfs-url URL" % dtype_name)
    return job


def validate(job):
    """LAVA's own schema check (Debian's lava-common); raises InputError with LAVA's message."""
    try:
        from lava_common.schemas import validate as lava_validate
    except ImportError:
        raise data.InputError("lava-common is not installed (apt-get install lava-common, or scripts/setup); "
                              "it validates the jobs")
    import voluptuous
    try:
        lava_validate(job, strict=True)
    except voluptuous.Invalid as e:
        raise data.InputError("job %s is not a valid LAVA job: %s" % (job.get("job_name"), e))


def to_yaml(job):
    import yaml
    return yaml.safe_dump(job, sort_keys=False, width=1000)


def write_jobs(args):
    types = device_types(args.device_types)
    for t in args.device_type:
        if t not in types:
            raise data.InputError("unknown device type '%s': built in are %s; describe others in --device-types FILE"
                                  % (t, ", ".join(sorted(BUILTIN))))
    tests = bundle_tests(args.bundle, args.label)
    if not tests:
        raise data.InputError("the bundle lists no %s tests; stage a build with them (scripts/device-ctest --bundle)"
                              % args.label)
    if args.shards > len(tests):
        raise data.InputError("--shards %d, but the bundle lists only %d %s test(s); pass --shards from 1 to %d"
                              % (args.shards, len(tests), args.label, len(tests)))
    by_shard = {i: [x for x in tests if shard_of(x, args.shards) == i] for i in range(1, args.shards + 1)}
    empty = [i for i, mine in by_shard.items() if not mine]
    if empty:
        raise data.InputError("with --shards %d, shard %s would get no test (%d tests hash unevenly); pass fewer --shards"
                              % (args.shards, ", ".join("%d/%d" % (i, args.shards) for i in empty), len(tests)))
    outputs, index = [], []
    for t in args.device_type:
        for i in range(1, args.shards + 1):
            job = make_job(t, types[t], by_shard[i], i, args.shards, args)
            validate(job)
            path = os.path.join(args.out, "%s-shard-%d-of-%d.yaml" % (t, i, args.shards))
            outputs.append((path, to_yaml(job)))
            index.append({"job": os.path.basename(path), "name": job["job_name"], "device_type": t, "shard": i,
                          "shards": args.shards, "tests": by_shard[i]})
    outputs.append((os.path.join(args.out, "jobs.json"),
                    json.dumps({"bundle_url": args.bundle_url, "label": args.label, "jobs": index}, indent=1)))
    jsonio.write_all_atomic(outputs)  # every job and the index, or none of them
    for (path, _), j in zip(outputs, index):
        print("lava-job: %s: %d tests" % (path, len(j["tests"])))
    return 0


def main(argv=None):
    ap = data.arg_parser("lava-job", __doc__)
    ap.add_argument("--fetch", nargs="+", metavar="LOG", help="LAVA job logs (YAML) to turn into JUnit + results.json")
    ap.add_argument("--bundle", help="the staged bundle (scripts/device-ctest --bundle FILE.tar.gz)")
    ap.add_argument("--bundle-url", help="where the devices' dispatcher (or the device) downloads the bundle")
    ap.add_argument("--rootfs-url", help="root file system image for device types that boot one (qemu)")
    ap.add_argument("--device-type", action="append", default=[], help="LAVA device type (repeatable)")
    ap.add_argument("--device-types", help="JSON file describing more device types (see above)")
    ap.add_argument("--shards", type=toolmain.whole(1, 10000), default=1, help="jobs per device type (default 1)")
    ap.add_argument("--label", choices=("precommit", "nightly", "all"), default="precommit",
                    help="which cases (default precommit)")
    ap.add_argument("--timeout-minutes", type=toolmain.whole(10, 24 * 60), default=120,
                    help="job timeout, 10 to 1440 (default 120)")
    ap.add_argument("--priority", default="medium", help="LAVA priority: high, medium, low (default medium)")
    ap.add_argument("--visibility", default="public", help="LAVA visibility (default public)")
    ap.add_argument("--out", default="out/lava", help="output directory (default out/lava)")
    args = ap.parse_args(argv)
    if args.fetch:
        from . import lavafetch
        return lavafetch.fetch(args.fetch, args.out)
    if not (args.bundle and args.bundle_url and args.device_type):
        raise data.InputError("pass --bundle FILE, --bundle-url URL and at least one --device-type "
                              "(or --fetch LOG...); see --help")
    return write_jobs(args)


if __name__ == "__main__":
    sys.exit(toolmain.run("lava-job", main))
