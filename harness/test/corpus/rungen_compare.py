"""Halide's RunGen on the corpus, as the peer of the harness's zero-spec cases (corpus_test.sh).

For every <pipeline>.rungen in BIN (RunGen linked with the pipeline's cpu variant), runs RunGen with
each of its default-input flag sets and keeps what it made of it: the exit status, the output's shape
and how many distinct values it holds (a meaningful output is one that is not degenerate, each output
judged by the harness's rule, zerospec.is_degenerate()). Writes OUT (JSON): {pipeline: {flag set: {ok, shape, distinct,
meaningful, error}}}.

Usage: python3 rungen_compare.py BIN OUT [--timeout S]
"""

import argparse
import json
import os
import subprocess
import sys
import tempfile

import numpy as np

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "..", "..", "scripts"))
from harnesslib.zerospec import any_degenerate, distinct_values  # noqa: E402

FLAG_SETS = {
    # RunGen's one-flag default: estimates for buffers (else the bounds query), scalars and outputs.
    "estimate_all": ["--estimate_all"],
    # Random inputs sized by the bounds query of the estimated outputs, scalars from estimate or default.
    "random_estimate": [
        "--default_input_buffers=random:0:estimate_then_auto",
        "--default_input_scalars=estimate,default",
        "--output_extents=estimate",
    ],
    # The plain defaults a user types first: random inputs, default scalars, a 64x48(x3...) output.
    "random_default": ["--default_input_buffers=random:0:auto", "--default_input_scalars=default"],
}
PLAIN_EXTENTS = [64, 48, 3, 2, 2]


def degenerate(arrays):
    """(distinct values up to 5 over all outputs, whether any output is degenerate)."""
    return distinct_values(arrays, 5)[0], any_degenerate(arrays)


def describe(exe, timeout):
    out = subprocess.run([exe, "--describe"], capture_output=True, text=True, timeout=timeout)
    outputs, dims = [], {}
    for line in out.stdout.splitlines():
        line = line.strip()
        if line.startswith('Output "'):
            name = line.split('"')[1]
            outputs.append(name)
            dims[name] = int(line.split("with ")[1].split(" ")[0]) if "with " in line else 0
    return outputs, dims


def run_one(exe, flags, outputs, dims, timeout):
    with tempfile.TemporaryDirectory() as tmp:
        args = [exe] + flags + ["%s=%s" % (o, os.path.join(tmp, o + ".npy")) for o in outputs]
        if flags == FLAG_SETS["random_default"] and outputs:
            args.append("--output_extents=[%s]" % ",".join(str(e) for e in PLAIN_EXTENTS[: dims[outputs[0]]]))
        try:
            p = subprocess.run(args, capture_output=True, text=True, timeout=timeout)
        except subprocess.TimeoutExpired:
            return {"ok": False, "error": "timeout after %d s" % timeout}
        if p.returncode != 0:
            err = (p.stderr.strip().splitlines() or ["exit %d" % p.returncode])[-1]
            return {"ok": False, "error": err[:300]}
        arrays = []
        for o in outputs:
            try:
                arrays.append(np.load(os.path.join(tmp, o + ".npy")))
            except (OSError, ValueError) as e:
                return {"ok": False, "error": "output %s not saved: %s" % (o, e)}
        distinct, degen = degenerate(arrays)
        return {"ok": True, "shape": [list(a.shape) for a in arrays], "distinct": distinct, "meaningful": not degen}


def main():
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("bin")
    ap.add_argument("out")
    ap.add_argument("--timeout", type=int, default=120)
    a = ap.parse_args()
    result = {}
    for f in sorted(os.listdir(a.bin)):
        if not f.endswith(".rungen"):
            continue
        name = f[: -len(".rungen")]
        exe = os.path.join(a.bin, f)
        try:
            outputs, dims = describe(exe, a.timeout)
        except (subprocess.TimeoutExpired, OSError) as e:
            result[name] = {k: {"ok": False, "error": "describe: %s" % e} for k in FLAG_SETS}
            continue
        result[name] = {k: run_one(exe, flags, outputs, dims, a.timeout) for k, flags in FLAG_SETS.items()}
        best = [k for k, r in result[name].items() if r.get("meaningful")]
        print("rungen: %-26s %s" % (name, ", ".join(best) if best else "no meaningful output"), file=sys.stderr)
    with open(a.out + ".tmp", "w") as f:
        json.dump(result, f, indent=1)
    os.replace(a.out + ".tmp", a.out)


if __name__ == "__main__":
    main()
