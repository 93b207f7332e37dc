"""harnesslib.explore: `aot-harness explore`: random pipelines and schedules with interval-checked
tolerances, their build, rounds, shrinking, triage and report."""
