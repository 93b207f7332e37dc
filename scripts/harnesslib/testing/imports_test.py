"""No import cycles inside harnesslib (function-level imports included): each module's relative imports, in
every sub-package, form a graph without cycles. Usage: python3 -m harnesslib.testing.imports_test [-v]"""

import ast
import os
import unittest

PACKAGE = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))  # scripts/harnesslib


def modules(package=PACKAGE):
    """Dotted name under harnesslib ("data", "runs.compare"; a package: its own name) -> file."""
    found = {}
    for d, dirs, files in os.walk(package):
        dirs[:] = sorted(x for x in dirs if x != "__pycache__")
        rel = os.path.relpath(d, package)
        parts = [] if rel == "." else rel.split(os.sep)
        for f in sorted(files):
            if f.endswith(".py"):
                found[".".join(parts + ([] if f == "__init__.py" else [f[:-3]]))] = os.path.join(d, f)
    return found


def import_graph(package=PACKAGE):
    """Module -> the modules of harnesslib it imports (`from .. import x` and `from .x.y import z` alike)."""
    known = modules(package)
    graph = {}
    for name, path in known.items():
        with open(path, encoding="utf-8") as src:
            tree = ast.parse(src.read())
        here = name.split(".") if name else []
        if not path.endswith("__init__.py"):
            here = here[:-1]
        deps = set()
        for node in ast.walk(tree):
            if isinstance(node, ast.ImportFrom) and node.level > 0:
                base = here[: len(here) - (node.level - 1)] + (node.module.split(".") if node.module else [])
                for a in node.names:
                    sub = ".".join(base + [a.name])
                    deps.add(sub if sub in known else ".".join(base))
        graph[name] = deps - {name}
    return graph


def find_cycle(graph):
    """A list of modules forming a cycle, or None."""
    state = {}

    def visit(m, path):
        state[m] = "open"
        for d in sorted(graph.get(m, ())):
            if state.get(d) == "open":
                return path + [d]
            if d not in state:
                found = visit(d, path + [d])
                if found:
                    return found
        state[m] = "done"
        return None

    for m in sorted(graph):
        if m not in state:
            found = visit(m, [m])
            if found:
                return found
    return None


class Imports(unittest.TestCase):
    def test_no_cycles(self):
        self.assertIsNone(find_cycle(import_graph()))

    def test_sees_the_sub_packages(self):
        graph = import_graph()
        self.assertIn("data", graph["lava.lavajob"])  # from .. import data
        self.assertIn("runs.compare", graph["nightly.nightly"])  # from ..runs import compare
        self.assertIn("jsonio", graph["runs.machine"])  # from ..jsonio import InputError

    def test_detects_a_cycle(self):
        self.assertEqual(find_cycle({"data": {"history"}, "history": {"data"}}), ["data", "history", "data"])


if __name__ == "__main__":
    unittest.main()
