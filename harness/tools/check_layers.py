#!/usr/bin/env python3
"""The layer check of harness/src: reads the #include lines and fails on an include that breaks the order.

    check_layers.py --root harness base= values=base golden=values,base ...  [--graph] [--doc ARCHITECTURE.md]

The layers are given bottom up, each with the layers it may include (its DEPENDS in harness/CMakeLists.txt,
where the order is stated). A file in src/<layer>/ may include headers of its own layer and of the layers it
names, spelled "<layer>/<file>.h"; a public header (include/harness/<name>.h) belongs to the layer whose folder
holds <name>.cpp. Fails (exit 1, one line per problem, file:line first) on:
  - an include of a layer above the file's own (upward),
  - an include of a lower layer the file's layer does not name (undeclared),
  - two folders that include each other,
  - a layer naming a layer above it, a folder of src/ that is no layer, a public header with no source,
  - an internal header included without its folder ("html.h" instead of "report/html.h").
--doc also checks that the document's "## Layers" table has one row per layer, in this order, each naming
its folder (`src/<layer>/`). --graph prints the include edges between folders (with the number of include
lines) when all is well.
"""

import argparse
import os
import re
import sys

INCLUDE = re.compile(r'^\s*#\s*include\s*"([^"]+)"')


def parse_layers(specs):
    order, deps = [], {}
    for spec in specs:
        name, _, names = spec.partition("=")
        order.append(name)
        deps[name] = [d for d in names.split(",") if d]
    return order, deps


def includes(path):
    with open(path, encoding="utf-8", errors="replace") as f:
        for number, line in enumerate(f, 1):
            m = INCLUDE.match(line)
            if m:
                yield number, m.group(1)


def check(root, order, deps):
    """Returns (problems, edges): problems as lines, edges {(from, to): include lines}."""
    problems = []
    rank = {name: i for i, name in enumerate(order)}
    src = os.path.join(root, "src")
    public_dir = os.path.join(root, "include", "harness")
    for name in order:
        for d in deps[name]:
            if d not in rank or rank[d] >= rank[name]:
                problems.append(f"layer {name} names {d}, which is not a layer below it (order: {' < '.join(order)})")
    folders = sorted(e for e in os.listdir(src) if os.path.isdir(os.path.join(src, e)))
    for folder in folders:
        if folder not in rank:
            problems.append(
                f"{os.path.join(src, folder)}: a folder that is no layer; add it to the layers "
                f"(harness/CMakeLists.txt) or move its files into one"
            )
    files = {}  # path -> layer
    internal = {}  # bare header name -> layer (to name the right spelling)
    for layer in order:
        folder = os.path.join(src, layer)
        if not os.path.isdir(folder):
            continue
        for f in sorted(os.listdir(folder)):
            if f.endswith((".cpp", ".h")):
                files[os.path.join(folder, f)] = layer
            if f.endswith(".h"):
                internal[f] = layer
    public = {}  # "harness/x.h" -> layer
    if os.path.isdir(public_dir):
        for f in sorted(os.listdir(public_dir)):
            if not f.endswith(".h"):
                continue
            stem = f[:-2]
            owners = [layer for layer in order if os.path.exists(os.path.join(src, layer, stem + ".cpp"))]
            path = os.path.join(public_dir, f)
            if len(owners) != 1:
                problems.append(
                    f"{path}: a public header needs exactly one {stem}.cpp in a layer folder "
                    f"to belong to (found {len(owners)})"
                )
                continue
            public["harness/" + f] = owners[0]
            files[path] = owners[0]
    edges = {}
    for path, layer in sorted(files.items()):
        allowed = set(deps[layer]) | {layer}
        for number, name in includes(path):
            where = f"{path}:{number}"
            if name in public:
                target = public[name]
            elif "/" in name and name.split("/", 1)[0] in rank:
                target = name.split("/", 1)[0]
            elif name in internal:
                problems.append(f'{where}: includes "{name}" without its folder; write "{internal[name]}/{name}"')
                continue
            else:
                continue  # Halide's, the system's and third-party headers
            if target != layer:
                edges[(layer, target)] = edges.get((layer, target), 0) + 1
            if rank[target] > rank[layer]:
                problems.append(
                    f'{where}: includes "{name}" of layer {target}, above its own layer {layer}; move '
                    f"the declaration down or the file up (order: {' < '.join(order)})"
                )
            elif target not in allowed:
                problems.append(
                    f'{where}: includes "{name}" of layer {target}, which layer {layer} does not name; '
                    f"add {target} to its DEPENDS in harness/CMakeLists.txt"
                )
    for a, b in sorted(edges):
        if a < b and (b, a) in edges:
            problems.append(
                f"folders {a} and {b} include each other ({edges[(a, b)]} and {edges[(b, a)]} "
                f"include lines); move what both need into the lower one"
            )
    return problems, edges


def check_doc(path, order):
    """Problems of the "## Layers" table of `path`: its rows that name a src/<folder>/ must be the layers, in order."""
    with open(path, encoding="utf-8") as f:
        text = f.read()
    section = text.split("\n## Layers", 1)[-1].split("\n## ", 1)[0]
    rows = [line.split("|")[1].strip() for line in section.split("\n") if re.search(r"`src/[a-z_]+/`", line)]
    if rows != order:
        return [
            f"{path}: the Layers table lists {' < '.join(rows) or 'no layer'}; the build has "
            f"{' < '.join(order)}; give each layer its row (with `src/<layer>/`), in order"
        ]
    return []


def main(argv=None):
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--root", required=True, help="the harness directory (src/ and include/harness/)")
    parser.add_argument("--graph", action="store_true", help="print the include edges between folders")
    parser.add_argument("--doc", help="a document whose Layers table must list the layers in order")
    parser.add_argument("layers", nargs="+", help="layer=dep,dep ... bottom up")
    args = parser.parse_args(argv)
    order, deps = parse_layers(args.layers)
    problems, edges = check(args.root, order, deps)
    if args.doc:
        problems += check_doc(args.doc, order)
    for p in problems:
        print(f"check_layers: {p}", file=sys.stderr)
    if problems:
        return 1
    if args.graph:
        for (a, b), n in sorted(edges.items(), key=lambda e: (order.index(e[0][0]), -order.index(e[0][1]))):
            print(f"{a} -> {b} ({n})")
    return 0


if __name__ == "__main__":
    sys.exit(main())
