"""scripts/merge SHARD.json... --out RESULTS.json: join the results of shards (`aot-harness run --shard i/n
--json`, scripts/device-ctest, scripts/lava-job --fetch) into the results of one run.

The runs are concatenated in a stable order (pipeline, profile, case, mode); the summary is recomputed; the
environment is the first file's, and every file's host and shard are kept under "shards". A test in two
files (shards that overlap: made with different n, or one file given twice) is an error, as is, when the
files say which shard they are, a shard missing or two files claiming the same one (--allow-partial to
merge what is there). Shards of different harness commits, or of different shard counts, are refused
naming both files. Exit 0 merged, 2 bad input.
"""

import json
import os
import re
import sys

from .. import data, formats, jsonio, toolmain


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


def shard_of_file(path, doc):
    """(i, n) of a results file that says which shard it is, None if it does not; InputError if it says
    something that is not a shard i/n with 1 <= i <= n."""
    at = jsonio.At(doc, path, "pass the file `aot-harness run --shard i/n --json` wrote")
    spec = doc.get("shard") or (doc.get("environment") or {}).get("shard")
    if not spec:
        return None
    where = at.get("shard") if doc.get("shard") else at.get("environment").get("shard")
    m = re.fullmatch(r"([0-9]{1,9})/([0-9]{1,9})", str(spec))
    if not m or not 1 <= int(m.group(1)) <= int(m.group(2)):
        where.fail("'%s' is not a shard i/n with 1 <= i <= n" % spec)
    return int(m.group(1)), int(m.group(2))


def check_one_run(docs):
    """Refuses files of different harness commits or different shard counts, naming two that differ."""
    commits = [(p, (d.get("environment") or {}).get("harness_git_commit")) for p, d in docs]
    commits = [(p, c) for p, c in commits if c]
    for p, c in commits[1:]:
        if c != commits[0][1]:
            raise data.InputError(
                "%s is of harness commit %s, %s of %s: merge the shards of one build (run every "
                "shard with the same aot-harness)" % (commits[0][0], commits[0][1], p, c)
            )
    shards = [(p, shard_of_file(p, d)) for p, d in docs]
    with_shard = [(p, s) for p, s in shards if s]
    for p, s in shards:
        if with_shard and not s:
            raise data.InputError(
                "%s says it is shard %d/%d, %s says no shard: merge the files of one --shard i/n "
                "split" % (with_shard[0][0], with_shard[0][1][0], with_shard[0][1][1], p)
            )
        if s and s[1] != with_shard[0][1][1]:
            raise data.InputError(
                "%s is shard %d/%d, %s is shard %d/%d: merge the files of one --shard i/n split"
                % (with_shard[0][0], with_shard[0][1][0], with_shard[0][1][1], p, s[0], s[1])
            )
    return [s for _, s in with_shard]


def merge(paths, allow_partial=False):
    docs = [(p, formats.load_checked(p, ("results",))[1]) for p in paths]
    owner, runs, shards = {}, [], []
    for p, d in docs:
        for r in d["runs"]:
            k = run_key(r)
            if k in owner:
                raise data.InputError(
                    "%s is in both %s and %s: the shards overlap (made with different --shard n, "
                    "or one file given twice)" % ("/".join(x for x in k[:4] if x), owner[k], p)
                )
            owner[k] = p
            runs.append(r)
        env = d.get("environment") or {}
        shards.append(
            {
                "file": os.path.abspath(p),
                "shard": d.get("shard") or env.get("shard"),
                "runs": len(d["runs"]),
                "host": env.get("hostname") or env.get("host") or "",
            }
        )
    declared = check_one_run(docs)
    if declared and not allow_partial:
        n = declared[0][1]
        have = sorted(i for i, _ in declared)
        missing = sorted(set(range(1, n + 1)) - set(have))
        twice = sorted({i for i in have if have.count(i) > 1})
        if missing or twice:
            raise data.InputError(
                "shards of %d: %s; pass each shard once (or --allow-partial)"
                % (
                    n,
                    "; ".join(
                        x
                        for x in (
                            ("missing %s" % ", ".join("%d/%d" % (i, n) for i in missing)) if missing else "",
                            ("%s given twice" % ", ".join("%d/%d" % (i, n) for i in twice)) if twice else "",
                        )
                        if x
                    ),
                )
            )
    runs.sort(key=lambda r: tuple(str(x or "") for x in run_key(r)))
    return {
        "environment": docs[0][1].get("environment") if docs else {},
        "runs": runs,
        "summary": summary(runs),
        "shards": shards,
    }


def main(argv=None):
    ap = data.arg_parser("merge", __doc__)
    ap.add_argument("files", nargs="+", metavar="RESULTS.json")
    ap.add_argument("--out", required=True, help="merged results file ('-' = stdout)")
    ap.add_argument("--allow-partial", action="store_true", help="merge even if shards are missing")
    args = ap.parse_args(argv)
    doc = merge(args.files, args.allow_partial)
    text = json.dumps(doc, indent=1) + "\n"
    if args.out == "-":
        sys.stdout.write(text)
    else:
        jsonio.write_atomic(args.out, text)
    s = doc["summary"]
    print(
        "merge: %d files, %d runs (%s); worst %s%s"
        % (
            len(args.files),
            s["total"],
            ", ".join("%d %s" % (v, k) for k, v in s.items() if k not in ("total", "worst")),
            s["worst"],
            "" if args.out == "-" else "; " + args.out,
        ),
        file=sys.stderr,
    )
    return 0


if __name__ == "__main__":
    sys.exit(toolmain.run("merge", main))
