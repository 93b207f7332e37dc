"""scripts/merge SHARD.json... --out RESULTS.json: join the results of shards (`aot-harness run --shard i/n
--json`, scripts/device-ctest, scripts/lava-job --fetch) into the results of one run.

The runs are concatenated in a stable order (pipeline, profile, case, mode); the summary is recomputed; the
environment is the first file's, and every file's host and shard are kept under "shards". A test in two
files (shards that overlap: made with different n, or one file given twice) is an error, as is, when the
files say which shard they are, a shard missing or two files claiming the same one (--allow-partial to
merge what is there). Exit 0 merged, 2 bad input.
"""
import json
import os
import sys

from . import data


def run_key(r):
    return (r.get("pipeline"), r.get("profile"), r.get("case"), r.get("mode", "host"), r.get("fallback_for", ""))


def summary(runs):
    s = {}
    for r in runs:
        o = r.get("outcome", "ERROR")
        s[o] = s.get(o, 0) + 1
    s["total"] = len(runs)
    s["worst"] = data.worst(r.get("outcome", "ERROR") for r in runs)
    return s


def merge(paths, allow_partial=False):
    docs = []
    for p in paths:
        d = data.read_json(p)
        if data.kind_of(d) != "results":
            raise data.InputError("%s is not a results file (no \"runs\"); pass the files `aot-harness run --json` wrote" % p)
        docs.append((p, d))
    owner, runs, shards = {}, [], []
    for p, d in docs:
        for r in d["runs"]:
            k = run_key(r)
            if k in owner:
                raise data.InputError("%s is in both %s and %s: the shards overlap (made with different --shard n, "
                                      "or one file given twice)" % ("/".join(x for x in k[:4] if x), owner[k], p))
            owner[k] = p
            runs.append(r)
        env = d.get("environment") or {}
        shards.append({"file": os.path.abspath(p), "shard": d.get("shard") or env.get("shard"), "runs": len(d["runs"]),
                       "host": env.get("hostname") or env.get("host") or ""})
    declared = [s["shard"] for s in shards if s["shard"]]
    if declared and not allow_partial:
        counts = {str(x).split("/")[1] for x in declared}
        if len(counts) > 1 or len(declared) != len(shards):
            raise data.InputError("the files come from different shardings (%s); merge the shards of one --shard "
                                  "i/n split" % ", ".join(str(s["shard"]) for s in shards))
        n = int(counts.pop())
        have = sorted(int(str(x).split("/")[0]) for x in declared)
        if have != list(range(1, n + 1)):
            missing = sorted(set(range(1, n + 1)) - set(have))
            twice = sorted({i for i in have if have.count(i) > 1})
            raise data.InputError("shards of %d: %s%s; pass all of them (or --allow-partial)" % (
                n, ("missing %s" % ", ".join("%d/%d" % (i, n) for i in missing)) if missing else "",
                ("%s given twice" % ", ".join("%d/%d" % (i, n) for i in twice)) if twice else ""))
    runs.sort(key=lambda r: tuple(str(x or "") for x in run_key(r)))
    return {"environment": docs[0][1].get("environment") if docs else {}, "runs": runs, "summary": summary(runs),
            "shards": shards}


def main(argv=None):
    ap = data.arg_parser("merge", __doc__)
    ap.add_argument("files", nargs="+", metavar="RESULTS.json")
    ap.add_argument("--out", required=True, help="merged results file ('-' = stdout)")
    ap.add_argument("--allow-partial", action="store_true", help="merge even if shards are missing")
    args = ap.parse_args(argv)
    try:
        doc = merge(args.files, args.allow_partial)
        text = json.dumps(doc, indent=1) + "\n"
        if args.out == "-":
            sys.stdout.write(text)
        else:
            tmp = args.out + ".tmp"
            try:
                os.makedirs(os.path.dirname(os.path.abspath(args.out)), exist_ok=True)
                with open(tmp, "w", encoding="utf-8") as f:
                    f.write(text)
                os.replace(tmp, args.out)
            except OSError as e:
                raise data.InputError("cannot write %s: %s; choose a writable path" % (args.out, e.strerror))
    except data.InputError as e:
        print("merge: %s" % e, file=sys.stderr)
        return 2
    s = doc["summary"]
    print("merge: %d files, %d runs (%s); worst %s%s" % (
        len(args.files), s["total"], ", ".join("%d %s" % (v, k) for k, v in s.items() if k not in ("total", "worst")),
        s["worst"], "" if args.out == "-" else "; " + args.out), file=sys.stderr)
    return 0


if __name__ == "__main__":
    sys.exit(main())
