"""scripts/verdict-diff A.json B.json: do two results files of `aot-harness run` give the same verdicts?

Compares every run (pipeline/profile/case/mode) by outcome, message and recorded result (what a
TEARDOWN_FAULT or TIMEOUT had recorded); times, metrics' timings and output tails may differ. Prints
the differences, or one line with the count and the outcomes; exit 0 when identical, 1 when not, 2 on
an unreadable file. For checking that a change to how runs are scheduled (batches, jobs) changes no
verdict, e.g. the same matrix with `--batch 1` and with the default.
Usage: scripts/verdict-diff A.json B.json"""

import sys

from .. import formats, toolmain


def verdicts(doc):
    """(pipeline, profile, case, mode, fallback_for) -> (outcome, message, result_outcome)."""
    out = {}
    for r in doc.get("runs", []):
        key = (r["pipeline"], r["profile"], r["case"], r.get("mode", "host"), r.get("fallback_for", ""))
        out[key] = (r["outcome"], r.get("message", ""), r.get("result_outcome", ""))
    return out


def differences(a, b):
    """Lines naming every run that is in one file only or whose verdict differs."""
    lines = []
    for k in sorted(set(a) | set(b)):
        name = "/".join(x for x in k if x)
        if k not in a or k not in b:
            lines.append("%s: only in %s" % (name, "the first" if k in a else "the second"))
        elif a[k] != b[k]:
            lines.append("%s:\n  first:  %s: %s\n  second: %s: %s" % (name, a[k][0], a[k][1], b[k][0], b[k][1]))
    return lines


def main(argv):
    if len(argv) == 2 and argv[1] in ("-h", "--help"):
        print(__doc__)
        return 0
    if len(argv) != 3:
        raise formats.InputError("pass two results files, A.json B.json; see verdict-diff --help")
    docs = [formats.load_checked(path, ("results",))[1] for path in argv[1:]]  # one line naming a bad file
    a, b = verdicts(docs[0]), verdicts(docs[1])
    diff = differences(a, b)
    for line in diff:
        print(line)
    if diff:
        print("%d of %d runs differ" % (len(diff), len(set(a) | set(b))))
        return 1
    outcomes = {}
    for v in a.values():
        outcomes[v[0]] = outcomes.get(v[0], 0) + 1
    print(
        "%d runs, identical verdicts (%s)" % (len(a), ", ".join("%d %s" % (n, o) for o, n in sorted(outcomes.items())))
    )
    return 0


if __name__ == "__main__":
    sys.exit(toolmain.run("verdict-diff", lambda argv: main(sys.argv)))
