#!/usr/bin/env bash
# instructor/tests/release.sh — `make release` tested as an instructor and a
# learner would use it (instructor/tests/release_smoke.sh: one ledger line a step).
. "$(dirname "$0")/lib.sh"
t_begin instructor-release

$MAKE -s "$WB" "$BUILD/instructor/leakcheck" >/dev/null
tsv=$BUILD/instructor/release.tsv
rm -f "$tsv"
bash instructor/tests/release_smoke.sh "$ABS_CHECK_DIR" "$NVCC" "$tsv" >"$BUILD/instructor/release.log" 2>&1 ||
  { grep -E '^FAIL' "$tsv"; echo "(release smoke test: see $BUILD/instructor/release.log)"; }
[ -s "$tsv" ] || t_fail "release: smoke test" "no result; see $BUILD/instructor/release.log"
t_tsv "$tsv"
t_end
