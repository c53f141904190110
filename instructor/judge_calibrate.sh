#!/usr/bin/env bash
# instructor/judge_calibrate.sh BUILD — before week 01 is graded with its
# judge (JUDGE=1, make grade's default): the judge over the reference's
# runner (the instructor's own code, started as a plain child), once, on
# this host's GPU. It prints the reference's judged figure against this
# GPU's target and warns when that leaves less than the workbook's 10 %
# margin: the judge times through a runner, and its figure for the
# reference has been lower than the linked test's (0.87-0.89 of COPY
# against 1.04 on an H200), so on a GPU whose target was set from the
# linked test, correct work could lose speed credit. It never stops the
# grading; the instructor decides (JUDGE=0, or a target for this GPU model
# in week.txt, AUTHORING.md "Speed targets").
b=${1:-build}
rec=$b/instructor/judge-calibrate.tsv log=$b/instructor/judge-calibrate.log
if [ -n "${JUDGE_CALIBRATE_RECORD:-}" ]; then rec=$JUDGE_CALIBRATE_RECORD   # tests: a record given, no run
else
  rm -f "$rec"
  "$b/instructor/judge-w01" --record "$rec" --checkpoint w01.vecadd-bw --week-dir phase0/week01 \
    "$b/phase0/week01/solution/judge-runner" >"$log" 2>&1
fi
row=$(awk -F'\t' '$2 == "w01.vecadd-bw" { print $3 "\t" $4 "\t" $9 "\t" $10 "\t" $12 }' "$rec" 2>/dev/null)
IFS=$'\t' read -r status reason ratio target gpu <<<"$row"
case "$status" in
  pass|fail)
    if awk -v r="$ratio" -v t="$target" 'BEGIN { exit !(r >= 1.1 * t) }'; then
      echo "judge calibration: the reference's w01.vecadd-bw judged at $ratio of COPY on $gpu, target $target: margin $(awk -v r="$ratio" -v t="$target" 'BEGIN { printf "%+.0f %%", (r / t - 1) * 100 }')"
    else
      echo "judge calibration: WARNING: the reference's w01.vecadd-bw judged at $ratio of COPY on $gpu, target $target:" \
           "under the 10 % margin, so correct work may lose speed credit under the judge on this GPU." \
           "Grade with JUDGE=0, or give this GPU model its own target in phase0/week01/week.txt ($log)"
    fi ;;
  skip) echo "judge calibration: not run ($reason: no GPU here; every GPU checkpoint is SKIP)" ;;
  *) echo "judge calibration: the judge gave no figure for the reference (see $log)" ;;
esac
exit 0
