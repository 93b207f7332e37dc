#!/bin/sh
# oclgrind_run.sh EXE PIPELINE PROFILE [CASE]
# Runs one OpenCL variant under oclgrind (see with_oclgrind.sh). Any oclgrind report is FAIL; its
# known crash at exit is TEARDOWN_FAULT, which golden/xfail.json turns into XFAIL with its reason.
exe=$1 pipeline=$2 profile=$3 case=${4:-small}
exec sh "$(dirname "$0")/with_oclgrind.sh" "$exe" run --pipeline "$pipeline" --profile "$profile" --case "$case" \
  --repeats 1 --timeout 300
