"""harnesslib.bisect: bisect-commit (bisectcommit) and its search over commits (bisectsearch)."""
