#!/usr/bin/env python3
"""access_widths.py: how wide a GPU variant's global memory accesses are, kernel by kernel, from the PTX of a
cuda variant's `.device_code` (Halide writes it beside the object: build/generators/<p>__cuda.device_code).

Usage: benchmarks/tools/access_widths.py [--help] DEVICE_CODE...

Prints one line per kernel entry: the counts of `ld.global` and `st.global` instructions by width (b8, b16,
b32, b64, b128, .v2/.v4 vectors), and of `.local` accesses (spills, or a register block that became an array).
A u8 pipeline whose accesses are all `b8` is one byte per instruction: the schedule, or Halide's alignment
knowledge (a buffer's declared host alignment), keeps it from wider ones. Exit 2 on an unreadable file.
"""

import re
import sys
from collections import Counter

ACCESS = re.compile(r"^\s*(?:@%p\d+\s+)?(ld|st)\.(global|local)((?:\.nc)?(?:\.v[24])?\.[a-z]+\d+)")
ENTRY = re.compile(r"^\.visible \.entry (\S+)\(")


def kernels(text):
    """{kernel name: Counter of 'ld.b8', 'st.v4.b32', 'local', ...} in the order the PTX has them."""
    out, name = {}, None
    for line in text.splitlines():
        m = ENTRY.match(line)
        if m:
            name = m.group(1)
            out[name] = Counter()
            continue
        m = ACCESS.match(line)
        if m and name:
            op, space, width = m.groups()
            key = "local" if space == "local" else op + width.replace(".nc", "")
            out[name][key] += 1
    return out


def main(argv):
    if not argv or argv[0] in ("-h", "--help"):
        print(__doc__.strip())
        return 0 if argv else 2
    for path in argv:
        try:
            text = open(path, encoding="utf-8", errors="replace").read()
        except OSError as e:
            print(f"access_widths: {path}: {e.strerror}; pass a cuda variant's .device_code", file=sys.stderr)
            return 2
        print(path)
        for name, c in kernels(text).items():
            print(f"  {name}: " + (", ".join(f"{k} {v}" for k, v in sorted(c.items())) or "no global access"))
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
