#!/usr/bin/env bash
# instructor/tests/release.sh — `make release` tested as an instructor and a
# learner would use it (instructor/tests/release_smoke.sh: one ledger line a step).
. "$(dirname "$0")/lib.sh"
t_begin instructor-release

$MAKE -s "$WB" "$BUILD/instructor/leakcheck" >/dev/null
tsv=$BUILD/instructor/release.tsv
rm -f "$tsv"
check_dir=${CHECK_DIR:+$(realpath -m -- "$CHECK_DIR")}
nvcc=${NVCC:-$(command -v nvcc || echo /usr/local/cuda/bin/nvcc)}
bash instructor/tests/release_smoke.sh "$check_dir" "$nvcc" "$tsv" >"$BUILD/instructor/release.log" 2>&1 ||
  { grep -E '^FAIL' "$tsv"; echo "(release smoke test: see $BUILD/instructor/release.log)"; }
[ -s "$tsv" ] || t_fail "release: smoke test" "no result; see $BUILD/instructor/release.log"
t_tsv "$tsv"
t_end
