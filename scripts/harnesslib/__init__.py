"""harnesslib: the Python tools over the harness's JSON files (scripts/*), run as python3 -m harnesslib.<module>."""
