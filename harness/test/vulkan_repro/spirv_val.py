"""Every SPIR-V module Halide emitted into the suite's Vulkan objects, through spirv-val (spirv-tools).

    python3 harness/test/vulkan_repro/spirv_val.py build/generators [--dump DIR] [--known FILE]

Halide embeds one SPIR-V module per kernel in each `<pipeline>__vulkan*.o` (a header, then per kernel a
binding preamble and the module). This finds each module by its magic number, cuts it at its last
OpFunctionEnd, writes it to DIR (default: a temp dir) as `<object>.<kernel>.spv` and runs
`spirv-val --target-env vulkan1.3` on it. Prints one line per module. Exit 0 when every module is valid or
its error is listed in FILE (default: spirv_val_known.txt beside this script, `<object-glob> <regex>`
lines: invalid SPIR-V from Halide 21 that stays until Halide fixes it) and every listed line still matches
a module (else it is stale: delete it), 1 otherwise, 77 without spirv-val.
"""

import argparse
import fnmatch
import glob
import os
import re
import shutil
import struct
import subprocess
import sys
import tempfile

MAGIC = b"\x03\x02\x23\x07"
OP_NAME, OP_ENTRY_POINT, OP_FUNCTION, OP_FUNCTION_END = 5, 15, 54, 56


def modules(data):
    """(entry point name, module bytes) for each SPIR-V module in `data`."""
    start = data.find(MAGIC)
    while start >= 0:
        words = len(data) // 4
        i, end, name = start // 4 + 5, None, ""
        while i < words:
            (w,) = struct.unpack_from("<I", data, i * 4)
            count, op = w >> 16, w & 0xFFFF
            if count == 0 or i + count > words:
                break
            if op == OP_ENTRY_POINT and not name:
                raw = data[(i + 3) * 4 : (i + count) * 4]
                name = raw.split(b"\0", 1)[0].decode("ascii", "replace")
            i += count
            if op == OP_FUNCTION_END:
                end = i
                (nxt,) = struct.unpack_from("<I", data, i * 4) if i < words else (0,)
                if nxt & 0xFFFF != OP_FUNCTION:
                    break
        if end and start % 4 == 0:
            yield name, data[start : end * 4]
        start = data.find(MAGIC, start + 4)


def main():
    here = os.path.dirname(os.path.abspath(__file__))
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("objects", help="a directory holding <pipeline>__vulkan*.o, or one object file")
    ap.add_argument("--dump", metavar="DIR", help="keep the .spv files in DIR")
    ap.add_argument("--known", default=os.path.join(here, "spirv_val_known.txt"))
    args = ap.parse_args()
    val = shutil.which("spirv-val")
    if not val:
        print("SKIP: spirv-val not found (Debian's spirv-tools; scripts/setup installs it)")
        return 77
    objs = (
        sorted(glob.glob(os.path.join(args.objects, "*__vulkan*.o"))) if os.path.isdir(args.objects) else [args.objects]
    )
    if not objs:
        print("no <pipeline>__vulkan*.o in %s; build the vulkan profiles first" % args.objects, file=sys.stderr)
        return 2
    known = []
    if os.path.exists(args.known):
        for line in open(args.known, encoding="utf-8"):
            if line.strip() and not line.startswith("#"):
                pattern, regex = line.strip().split(" ", 1)
                known.append((pattern, re.compile(regex)))
    out = args.dump or tempfile.mkdtemp(prefix="spirv-val-")
    os.makedirs(out, exist_ok=True)
    bad = total = 0
    seen = set()
    for obj in objs:
        base = os.path.basename(obj)[:-2]
        with open(obj, "rb") as f:
            data = f.read()
        for n, (entry, spv) in enumerate(modules(data)):
            total += 1
            path = os.path.join(out, "%s.%d.%s.spv" % (base, n, entry or "kernel"))
            with open(path, "wb") as f:
                f.write(spv)
            r = subprocess.run([val, "--target-env", "vulkan1.3", path], capture_output=True, text=True)
            msg = (r.stdout + r.stderr).strip().splitlines()
            first = msg[0] if msg else ""
            if r.returncode == 0:
                print("valid    %s %s" % (base, entry))
                continue
            hits = [k for k, (p, rx) in enumerate(known) if fnmatch.fnmatch(base, p) and rx.search(first)]
            seen.update(hits)
            listed = bool(hits)
            bad += not listed
            print("%s %s %s: %s" % ("KNOWN   " if listed else "INVALID ", base, entry, first))
    stale = [known[k] for k in range(len(known)) if k not in seen]
    for p, rx in stale:
        print(
            "STALE    %s %s: listed in %s but no module fails so; delete the line"
            % (p, rx.pattern, os.path.basename(args.known))
        )
    print(
        "%d modules in %d objects, %d invalid and not listed in %s%s"
        % (total, len(objs), bad, os.path.basename(args.known), "; .spv files in " + out if args.dump else "")
    )
    if not args.dump:
        shutil.rmtree(out, ignore_errors=True)
    return 1 if bad or stale or not total else 0


if __name__ == "__main__":
    sys.exit(main())
