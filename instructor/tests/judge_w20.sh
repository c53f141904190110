#!/usr/bin/env bash
# instructor/tests/judge_w20.sh — week 20 graded with its judge without a GPU
# (instructor/README.md, "The judge and the runner"; instructor/judge_w20.c).
# The week is judged by the grader (JUDGED_WEEKS): its class of two (the
# reference and the starter) graded without a GPU with --judge 1 and
# without gives the same cells (w20.api full marks for the reference and 0
# for the starter, the rest as the linked test gives them), and the grader
# says it judges the week and leaves w20.py-errors and w20.py (the Python
# bindings) to the test program; the judge by itself as below. It lists
# five of the week's seven checkpoints; the runners hold libwbk's API and
# the program (wbk_*, app_standardize_columns, app_main), the yard runner
# beside the judge none of them (XFER only), the judge neither; the judge
# by itself over the reference's and the starter's runners, as a plain
# child and in the sandbox: w20.api (a CPU checkpoint, judged through a
# runner that opens no GPU) PASS over the reference's runner, 197 checks,
# and FAIL over the starter's (188 of them fail: its wbk_create(NULL, 0)
# returns WBK_OK, ...), every other checkpoint SKIP, never PASS;
# calibration without a GPU says w20.standardize-speed was not run. Needs
# libarchive and a working bwrap. On a GPU: the commands in
# instructor/README.md's week 20 entry.
. "$(dirname "$0")/lib.sh"
t_begin instructor-judge-w20

label="week 20 judged outside the student's process, without a GPU"
judged_week_begin 20 phase4/week20 "$label" phase4/week20/solution/*.cu
w=phase4/week20
fns="wbk_version wbk_status_name wbk_status_string wbk_last_error wbk_create wbk_create_on wbk_destroy wbk_device_count
  wbk_saxpy wbk_dot wbk_sum wbk_transpose wbk_standardize app_standardize_columns app_main"
bad=
# the seven cells in week.txt's order: w20.api full marks for the reference and 0 for the starter,
# w20.py-errors (the test program's, Python without a GPU) likewise, the rest SKIP; the same both ways
bad="$bad$(cells_both 7 "$log" correct=10.00,SKIP,SKIP,SKIP,10.00,SKIP,SKIP starter=0.00,SKIP,SKIP,SKIP,0.00,SKIP,SKIP)"
bad="$bad$(grader_says_judged 20 $w "w20.py-errors, w20.py")"
# shellcheck disable=SC2086
bad="$bad$(learner_runner_lacks "$log" $w $fns)"
# shellcheck disable=SC2086
bad="$bad$(runners_hold $w $fns)"
bad="$bad$(yard_runner_only 20 "" "$fns sl_saxpy reduce_sum transpose_padded")"
for s in $fns sl_saxpy reduce_sum transpose_padded; do
  nm "$BUILD/instructor/judge-w20" | grep -q " [TU] $s\$" && bad="$bad the judge links $s;"
done
for impl in solution starter; do
  nm "$BUILD/$w/$impl/judge-runner" | grep -Eq ' [TtWw] (wb_results_|wb_test_main|srunner_)' &&
    bad="$bad the $impl's runner links a results writer or the test harness;"
done
# the judge by itself, plain and sandboxed
for how in plain sandbox; do
  for pair in "solution=pass,skip,skip,skip,skip" "starter=fail,skip,skip,skip,skip"; do
    impl=${pair%%=*} want=${pair#*=}
    got=$(judge_alone 20 $w "$impl" $how "$log")
    [ "$got" = "$want" ] || bad="$bad judge-w20 over the $impl's runner ($how): $got, expected $want;"
    n=$(awk -F'\t' '$2 == "w20.api" { print $13 "/" $14 }' "$log/alone-w20-$impl-$how.tsv")
    [ "$n" = "$([ "$impl" = solution ] && echo "197/0" || echo "197/188")" ] ||
      bad="$bad the $impl's w20.api ($how): tests/failed $n;"
  done
done
grep -q "w20.api fail: wbk_create(NULL, 0) returned WBK_OK, expected WBK_ERR_INVALID_ARG" \
  "$log/alone-w20-starter-plain.tsv.out" || bad="$bad the starter's w20.api failure does not name wbk_create(NULL, 0);"
bad="$bad$(judge_lists_uncalibrated 20 $w "w20.api w20.ops w20.split w20.app w20.standardize-speed" \
  "w20.standardize-speed")"
if [ -z "$bad" ]; then t_pass "$label" "judged and linked cells alike, w20.py-errors and w20.py left to the linked test; five checkpoints listed (w20.py-errors and w20.py left to the linked test); w20.api PASS over the reference's runner (197 checks) and FAIL over the starter's, the GPU ones SKIP, plain and sandboxed; the runners holding libwbk's API and the program, the yard runner none of it; calibration not run"
else t_fail "$label" "$bad (see $log)"; fi
t_end
