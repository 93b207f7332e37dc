"""harnesslib: the Python tools over the harness's JSON files (scripts/*), run as python3 -m harnesslib.<module>.

The shared core is this package's top level (jsonio: the one JSON reader; data: records and outcomes; formats;
paths; toolmain: the tools' command-line frame; zerospec). One sub-package a concern:
  runs       comparisons of runs: compare, driverdiff, merge, verdicts, flakecheck, and their statistics
             (stats), sides and machine (noise-aware verdicts)
  history    the history of runs (SQLite or PostgreSQL: db, migrate, pgserver)
  nightly    `aot-harness nightly` and its summary
  dashboard  the dashboard, its record pages and pictures (imaging), and its browser tests
  lava       LAVA jobs, their submission and results, and the local LAVA lab
  arm64      the arm64 root and the holders of its mounts (chroot_hold)
  devices    device-ctest and JUnit XML
  bisect     bisect-commit and its search
  testing    the test fixtures and the tests over the whole repository (imports, repo_refs, bad input, CLI)
  genfuzz    the generator fuzzer (scripts/genfuzz)
  explore    `aot-harness explore`"""
