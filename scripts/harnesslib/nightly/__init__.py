"""harnesslib.nightly: `aot-harness nightly` (build, run, ingest, compare, dashboard) and its summary."""
