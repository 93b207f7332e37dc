"""Where the tools work: the project, its build, its goldens and out/.

`aot-harness <tool>` (an outside project's, or this repository's build) says so in the environment:
AOT_HARNESS_PROJECT_DIR (out/ lives there; the history's git commit is its commit), AOT_HARNESS_BIN (the
aot-harness the tools run), AOT_HARNESS_GOLDEN_DIR. Without it (scripts/nightly, scripts/compare, ... in
this repository's checkout) the checkout is the project: build/bin, golden/, out/. An installed tool run
directly, outside both, works on the current directory.
"""

import os

_HERE = os.path.dirname(os.path.abspath(__file__))
_CHECKOUT = os.path.dirname(os.path.dirname(_HERE))  # scripts/harnesslib/../.. in this repository


def _in_checkout():
    return os.path.basename(os.path.dirname(_HERE)) == "scripts" and os.path.isdir(os.path.join(_CHECKOUT, "harness"))


def project_dir():
    return os.environ.get("AOT_HARNESS_PROJECT_DIR") or (_CHECKOUT if _in_checkout() else os.getcwd())


def out_dir(*parts):
    return os.path.join(project_dir(), "out", *parts)


def bin_dir():
    return os.environ.get("AOT_HARNESS_BIN") or os.path.join(project_dir(), "build", "bin")


def golden_dir():
    return os.environ.get("AOT_HARNESS_GOLDEN_DIR") or os.path.join(project_dir(), "golden")


def default_db():
    return out_dir("history.sqlite")
