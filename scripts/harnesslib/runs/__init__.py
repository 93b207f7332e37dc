"""harnesslib.runs: comparisons of runs (compare, driver-diff, merge, verdict-diff, flake-check) and what they rest
on: the statistics (stats), the two sides of a comparison (sides) and noise-aware verdicts (machine)."""
