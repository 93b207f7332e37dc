"""harnesslib.devices: device-ctest (this build's tests on another device) and JUnit XML (junitxml)."""
