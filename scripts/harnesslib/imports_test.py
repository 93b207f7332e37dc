"""No import cycles inside harnesslib (function-level imports included): each module's relative imports
form a graph without cycles. Usage: python3 -m harnesslib.imports_test [-v]"""
import ast
import os
import unittest

HERE = os.path.dirname(os.path.abspath(__file__))


def import_graph():
    graph = {}
    for f in sorted(os.listdir(HERE)):
        if not f.endswith(".py"):
            continue
        with open(os.path.join(HERE, f), encoding="utf-8") as src:
            tree = ast.parse(src.read())
        deps = set()
        for node in ast.walk(tree):
            if isinstance(node, ast.ImportFrom) and node.level == 1:
                deps |= {a.name for a in node.names} if node.module is None else {node.module}
        graph[f[:-3]] = deps
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

    def test_detects_a_cycle(self):
        self.assertEqual(find_cycle({"data": {"history"}, "history": {"data"}}), ["data", "history", "data"])


if __name__ == "__main__":
    unittest.main()
