#!/usr/bin/env bash
# instructor/tests/sandbox.sh — the sandbox, unpacker and object checker's
# own Check tests (instructor/Makefile.sandbox test). Needs libarchive and a
# working bubblewrap; without them SKIP with the reason.
. "$(dirname "$0")/lib.sh"
t_begin instructor-sandbox

have_libarchive || t_end   # unit.sh has said SKIP for this step
label="sandbox, unpack, objcheck: module tests"
if ! why=$(sandbox_ok); then
  # (the fixture classes, graded in the sandbox, are fixtures.sh's to skip)
  t_skip "$label" "no working bubblewrap here ($why); .ci/run installs it"
  t_end
fi
if $MAKE -s -f instructor/Makefile.sandbox OUT="$BUILD/sandbox" NVCC="$NVCC" \
     CHECK_DIR="$ABS_CHECK_DIR" test >"$BUILD/instructor/sandbox.log" 2>&1; then
  t_pass "$label"
else
  tail -n 20 "$BUILD/instructor/sandbox.log"; t_fail "$label" "see $BUILD/instructor/sandbox.log"
fi
t_end
