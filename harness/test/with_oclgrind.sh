#!/bin/sh
# with_oclgrind.sh EXE run ARGS...: runs the harness with oclgrind as the only OpenCL ICD, its
# memory, data-race, uninitialised-read and API checks on, and --fail-on-output set to oclgrind's
# reports, so that any report turns a PASS into FAIL. Exit 77 (SKIP) if oclgrind is not installed.
set -u
icd=/usr/lib/oclgrind/liboclgrind-rt-icd.so
[ -f "$icd" ] || { echo "SKIP: oclgrind is not installed ($icd missing): apt-get install oclgrind"; exit 77; }
vendors=$(mktemp -d)
trap 'rm -rf "$vendors"' EXIT
echo "$icd" > "$vendors/oclgrind.icd"
OCL_ICD_VENDORS=$vendors OCL_ICD_FILENAMES= OCLGRIND_DATA_RACES=1 OCLGRIND_UNINITIALIZED=1 OCLGRIND_CHECK_API=1 \
  HL_OCL_PLATFORM_NAME=Oclgrind \
  "$@" --fail-on-output 'Invalid (read|write)|[Dd]ata race|Uninitiali[sz]ed|Work-group divergence|[Oo]clgrind.*(error|Error)'
