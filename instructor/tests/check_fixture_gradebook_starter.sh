#!/usr/bin/env bash
# check_fixture_gradebook_starter.sh GRADEBOOK — grading `partial` (week 01's
# vecadd.cu only) from an instructor's tree whose devquery.cu was edited
# until it does not compile, without a GPU (instructor/tests/fixtures.sh):
# devquery.cu must be the derived starter, so the week builds: w01.devquery
# (run on the CPU) fails on the starter's dq_peak_gbps, the GPU checkpoints
# are SKIP; the instructor's copy would fail the build (every cell 0.00).
set -u
gb=${1:?gradebook}
fb=${gb%.csv}-feedback
bad=0
[ "$(grep -c . "$gb")" = 2 ] || { echo "expected a header and 1 student in $gb"; bad=1; }
cells=$(awk -F, 'NR == 1 { for (i = 2; i <= NF; i++) if ($i ~ /^phase0\/week01 /) c[++n] = i; next }
  $1 == "partial" { for (k = 1; k <= n; k++) printf "%s%s", (k > 1 ? "," : ""), $(c[k]); print "" }' "$gb")
[ "$cells" = "0.00,SKIP,SKIP" ] || { echo "partial: cells $cells, expected 0.00,SKIP,SKIP (built; the starter's devquery)"; bad=1; }
grep -q "dq_peak_gbps" "$fb/partial.md" 2>/dev/null || { echo "partial: w01.devquery did not fail on the starter's dq_peak_gbps"; bad=1; }
! grep -qi "did not compile\|build failed" "$fb/partial.md" 2>/dev/null || { echo "partial: the build failed (the instructor's copy?)"; bad=1; }
grep -qF -- "- devquery.cu was not in the submission: the starter was graded." "$fb/partial.md" 2>/dev/null ||
  { echo "partial: its feedback does not say devquery.cu's starter was graded"; bad=1; }
[ $bad = 0 ] && echo "starter fixture gradebook: as expected"
exit $bad
