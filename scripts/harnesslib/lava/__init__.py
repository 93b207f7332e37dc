"""harnesslib.lava: LAVA jobs (lavajob), their submission (lavasubmit) and results (lavafetch), and a local LAVA lab
(lavalab, lavalabroot, lavaboot)."""
