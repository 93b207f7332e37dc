"""genfuzz's check: what the harness made of each random generator, held against what the fuzzer planted.

Every generator the fuzzer writes can have a meaningful case (genfuzz_model.py makes it so), so each one
must get a meaningful verdict (zerospec.py). Every reason it did not is classified by its text and judged
against the planted properties:
  true        a true statement about the generator that no case can get round (an element type the
              harness does not support, used by the generator; a smallest case the cpu variant did not
              finish within the derivation trial's time limit);
  limitation  explained by a property the fuzzer planted, which a better derivation would handle (two
              scalars bounding a range given lo >= hi, a fixed input bound the case exceeds, an output's
              fixed non-zero min the case ignores): the harness's to improve, named precisely;
  false       explained by nothing planted: the harness's bug;
  invalid     the generator itself failed (a C++ or Halide error building it): the fuzzer's bug.
A NONDET flag is false: the fuzzer plants no race and no reduction a schedule reorders.
It also holds the derived cases against the planted constraints: a scalar outside the range the
generator states, an output whose fixed bounds the case does not keep, output estimates stated only for
an autoscheduler that no case uses.
"""

import os
import re

from .. import zerospec

# (class, regex over one reason): the first match names a reason's class.
CLASSES = [
    ("unsupported-type", r"unsupported element type (\w+)"),
    ("does-not-compile", r"does not compile"),
    ("does-not-link", r"does not link"),
    ("too-slow", r"did not finish the case within"),
    ("fixed-input-bounds", r"Applying the constraints on Input buffer"),
    ("no-golden", r"has no entry in golden/MANIFEST\.json"),
    ("generator-failed", r"generator .*(failed|exited|killed)|variant .* (failed|not built)"),
    ("input-too-small", r"(is accessed at|accessed at) -?\d+.*(beyond|which is beyond)|Input buffer \w+ is accessed"),
    ("output-constraint", r"Output buffer .*(constrained|extent|min)|constrained to be"),
    ("scalar-range", r"(is|was) (greater|less) than|must be (at least|at most)|out of range"),
    ("nondeterministic", r"^NONDET|non-deterministic"),
    ("degenerate", r"degenerate"),
    ("no-case", r"no case could be made"),
    ("timeout", r"^TIMEOUT|timed out"),
    ("crash", r"^CRASH|signal"),
    ("halide-error", r"Error:|halide_error"),
]


def classify(reason):
    for cls, rx in CLASSES:
        m = re.search(rx, reason)
        if m:
            return cls, (m.group(1) if m.groups() and cls == "unsupported-type" else "")
    return "other", ""


def judge(cls, detail, planted):
    """true, limitation, false or invalid (see above) for a reason of class cls."""
    if cls == "unsupported-type":
        return "true" if detail in planted["types"] else "false"
    if cls in ("generator-failed", "does-not-compile"):
        return "invalid"
    if cls == "too-slow":  # measured, not planted: its smallest case outlasted the derivation's trial
        return "true"
    half = ("float16", "bfloat16")
    explained = {
        "fixed-input-bounds": bool(planted["fixed_inputs"]),
        "output-constraint": any(v[0] != 0 for f in planted["fixed_outputs"].values() for v in f.values()),
        "no-golden": any(t in half for t in planted.get("output_types", [])),
    }
    if cls == "degenerate":
        return "limitation" if detail else "false"
    return "limitation" if explained.get(cls) else "false"


def degenerate_cause(planted, describe):
    """Why a generator built to vary got a degenerate golden, from the scalars its cases were given:
    a range pair given lo >= hi (clamp(v, lo, hi) is then constant), a gain of 0; else ""."""
    causes = set()
    for c in describe.get("cases", []):
        sc = c.get("scalars") or {}
        for name, info in planted["scalars"].items():
            if info["role"] == "lo":
                hi = info.get("partner", "")
                if name in sc and hi in sc and sc[name] >= sc[hi]:
                    causes.add("range-pair-lo>=hi")
            if info["role"] == "gain" and sc.get(name) == 0:
                causes.add("gain-0")
        # The harness says it searched its guesses and none made the output mean something: a range
        # pair (clamp(v, lo, hi)) whose guessed ends miss the values v takes is the derivation's limit.
        notes = " ".join(c.get("notes") or [])
        if planted.get("range_pairs") and ("every combination" in notes or "none of the" in notes):
            causes.add("range-pair-guesses-exhausted")
    if planted.get("bool_outputs") and len(planted["bool_outputs"]) == planted["outputs"]:
        causes.add("bool-output")
    return "+".join(sorted(causes))


def claims(gen_planted, describe):
    """Derived cases that contradict what the generator states: [text]."""
    bad = []
    for c in describe.get("cases", []):
        if c.get("error"):
            continue
        for s, info in gen_planted["scalars"].items():
            v = (c.get("scalars") or {}).get(s)
            rng = info.get("range")
            if rng and isinstance(v, (int, float)) and not rng[0] <= v <= rng[1]:
                bad.append(
                    "case %s: scalar %s = %g outside the range [%g, %g] the generator states"
                    % (c["name"], s, v, rng[0], rng[1])
                )
        for o, fixed in gen_planted["fixed_outputs"].items():
            out = (c.get("outputs") or {}).get(o)
            if not out:
                continue
            for k, (m, e) in fixed.items():
                k = int(k)
                mins = out.get("min") or [0] * len(out["shape"])
                if k < len(out["shape"]) and (out["shape"][k] != e or mins[k] != m):
                    bad.append(
                        "case %s: output %s dimension %d is [%d, +%d), the generator fixes [%d, +%d)"
                        % (c["name"], o, k, mins[k], out["shape"][k], m, e)
                    )
    names = [c["name"] for c in describe.get("cases", [])]
    auto = [o for o in gen_planted.get("output_estimates", {}).values()]
    # The estimates' own case, or another case of the same shape (a small estimate is the small case).
    extents = gen_planted.get("output_estimate_extents", {})
    # A Tuple output is described per component (output.0, output.1).
    sized = any(
        list(shape.get("shape") or []) == e
        for c in describe.get("cases", [])
        for o, e in extents.items()
        for name, shape in (c.get("outputs") or {}).items()
        if name == o or name.startswith(o + ".")
    )
    if auto and all(m == "autoscheduler" for m in auto) and "estimate" not in names and not sized:
        bad.append(
            "the outputs' estimates, stated only for an autoscheduler, give no case (the estimates probe failed?)"
        )
    return bad


def check(work, planted, profiles):
    """Per generator: its verdict, the class of each reason, whether true; and the totals."""
    rows = []
    by_name = {v["name"]: v for v in zerospec.verdicts(work, profiles)}
    for name, p in sorted(planted.items()):
        v = by_name.get(name)
        if v is None:
            rows.append(
                {
                    "name": name,
                    "missing": True,
                    "meaningful": False,
                    "built": False,
                    "classes": [("missing", "", False, "not registered: the harness does not list it")],
                }
            )
            continue
        d = zerospec.load(os.path.join(work, "describe", name + ".json"))
        v["claims"] = claims(p, d)
        v["classes"] = []
        if not v["meaningful"]:
            for reason in v["reasons"] or ["no verdict and no reason given"]:
                cls, detail = classify(reason)
                if cls == "degenerate":
                    detail = degenerate_cause(p, d)
                v["classes"].append((cls, detail, judge(cls, detail, p), reason))
        v["planted"] = p
        rows.append(v)
    return rows


def summary(rows):
    n = len(rows)
    built = [r for r in rows if r.get("built")]
    meaningful = [r for r in built if r["meaningful"]]
    failing_verdicts = [r for r in meaningful if r.get("failed_profiles")]
    by_worst, classes = {"true": [], "limitation": [], "false": [], "invalid": []}, {}
    for r in rows:
        if r["meaningful"]:
            continue
        for cls, detail, judged, reason in r["classes"]:
            key = cls + (":" + detail if detail else "")
            classes.setdefault(key, {"judged": judged, "generators": [], "example": reason})
            if r["name"] not in classes[key]["generators"]:
                classes[key]["generators"].append(r["name"])
        judged = {j for _, _, j, _ in r["classes"]}
        # A generator counts by its best-explained reason: one true reason is enough.
        worst = next(j for j in ("true", "limitation", "invalid", "false") if j in judged) if judged else "false"
        by_worst[worst].append(r["name"])
    return {
        "generators": n,
        "built": len(built),
        "meaningful": len(meaningful),
        "fail_verdicts": [r["name"] for r in failing_verdicts],
        "no_verdict": by_worst,
        "classes": classes,
        "claims": {r["name"]: r["claims"] for r in rows if r.get("claims")},
    }


def table(rows, s, profiles):
    lines = [
        "| generator | planted | built | cases (output shape) | %s | max error | distinct | why not meaningful |"
        % " | ".join(profiles),
        "|---|---|---|---|%s---|---|---|" % ("---|" * len(profiles)),
    ]
    for r in rows:
        if r.get("missing"):
            lines.append("| %s | | no | | %s | | | not registered |" % (r["name"], " | ".join("-" for _ in profiles)))
            continue
        p = r["planted"]
        tags = ",".join(
            p.get("features", [])
            + (["f16"] if "float16" in p["types"] else [])
            + (["negmin"] if p["input_mins"] else [])
            + (["bc"] if p["boundary"] else [])
        )
        why = "; ".join("%s%s (%s)" % (c, ":" + d if d else "", j) for c, d, j, _ in r["classes"])
        lines.append(
            "| %s | %s | %s | %s | %s | %.3g | %s | %s |"
            % (
                r["name"],
                tags,
                "yes" if r["built"] else "no",
                "; ".join(r["shapes"]),
                " | ".join(r["cells"]),
                r["max_error"],
                ", ".join(r["distinct"]) or "-",
                why or "-",
            )
        )
    lines.append("")
    nv = s["no_verdict"]
    lines.append(
        "%d generators: %d built, %d with a meaningful verdict on %s (%.0f %% of those built); "
        "%d with a FAIL verdict; without a verdict: %d with a true reason, %d a limitation of the "
        "derivation, %d a false reason, %d invalid generators (the fuzzer's)"
        % (
            s["generators"],
            s["built"],
            s["meaningful"],
            ", ".join(profiles),
            100.0 * s["meaningful"] / max(1, s["built"]),
            len(s["fail_verdicts"]),
            len(nv["true"]),
            len(nv["limitation"]),
            len(nv["false"]),
            len(nv["invalid"]),
        )
    )
    for key, c in sorted(s["classes"].items(), key=lambda kv: -len(kv[1]["generators"])):
        lines.append(
            "- %s (%s, %d): %s; e.g. %s"
            % (key, c["judged"], len(c["generators"]), ", ".join(c["generators"][:8]), c["example"][:240])
        )
    for name, bad in s["claims"].items():
        for b in bad:
            lines.append("- claim contradicted: %s: %s" % (name, b))
    return "\n".join(lines)
