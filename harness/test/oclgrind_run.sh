#!/bin/sh
# oclgrind_run.sh EXE PIPELINE PROFILE [CASE]
# Runs one OpenCL variant under oclgrind (as the only OpenCL ICD) with its memory, data-race,
# uninitialised-read and API checks on. Any oclgrind report is FAIL; its known crash at exit is
# TEARDOWN_FAULT, which golden/xfail.json turns into XFAIL with its reason. Exit 77 if oclgrind is
# not installed.
set -u
exe=$1 pipeline=$2 profile=$3 case=${4:-small}
icd=/usr/lib/oclgrind/liboclgrind-rt-icd.so
[ -f "$icd" ] || { echo "oclgrind is not installed ($icd missing): apt-get install oclgrind"; exit 77; }
vendors=$(mktemp -d)
trap 'rm -rf "$vendors"' EXIT
echo "$icd" > "$vendors/oclgrind.icd"
OCL_ICD_VENDORS=$vendors OCL_ICD_FILENAMES= OCLGRIND_DATA_RACES=1 OCLGRIND_UNINITIALIZED=1 OCLGRIND_CHECK_API=1 \
  HL_OCL_PLATFORM_NAME=Oclgrind \
  exec "$exe" run --pipeline "$pipeline" --profile "$profile" --case "$case" --repeats 1 --timeout 300 \
  --fail-on-output 'Invalid (read|write)|Data race|Uninitiali[sz]ed|[Oo]clgrind.*(error|Error)|Work-group divergence'
