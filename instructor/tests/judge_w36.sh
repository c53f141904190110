#!/usr/bin/env bash
# instructor/tests/judge_w36.sh — week 36 graded with its judge without a GPU
# (instructor/README.md, "The judge and the runner"; instructor/judge_w36.c).
# The week is judged by the grader (JUDGED_WEEKS): its class of two (the
# reference and the starter) graded without a GPU with --judge 1 and
# without gives the same cells, and the judge by itself as below. It
# lists all seven checkpoints (none left to the linked test); the runners
# hold the week's four functions and no results writer, the yard runner
# beside the judge the given chain (yard_smx_unfused) and none of them, the
# judge none of them; the judge by itself over the reference's and the
# starter's runners, as a plain child and in the sandbox: w36.traffic (a
# CPU function, judged through a runner that opens no GPU) PASS for the
# reference and FAIL for the starter (its traffic_variant_bytes says 0);
# w36.split's CPU part (split_smx_tmp_bytes) FAIL for the starter (it says
# 0) and SKIP for the reference (the rest of it needs a GPU); every other
# checkpoint SKIP, never PASS; calibration without a GPU says the three
# speed checkpoints were not run. Needs a working bwrap. On a GPU: the
# commands in instructor/README.md's week 36 entry.
. "$(dirname "$0")/lib.sh"
t_begin instructor-judge-w36

label="week 36 judged outside the student's process, without a GPU"
judged_week_begin 36 phase6/week36 "$label" phase6/week36/solution/*.cu
fns="traffic_variant_bytes smx_fused split_smx_tmp_bytes split_smx"
bad=
bad="$bad$(cpu_first_cells 7 "$log" correct)$(cells_both 7 "$log" starter=0.00,SKIP,SKIP,0.00,SKIP,SKIP,SKIP)"
bad="$bad$(grader_says_judged 36 phase6/week36)"
# shellcheck disable=SC2086
bad="$bad$(runners_hold phase6/week36 $fns)"
bad="$bad$(yard_runner_only 36 yard_smx_unfused "$fns")"
for s in $fns; do
  nm "$BUILD/instructor/judge-w36" | grep -q " [TU] $s\$" && bad="$bad the judge links the student's $s;"
done
for impl in solution starter; do
  nm "$BUILD/phase6/week36/$impl/judge-runner" | grep -Eq ' [TtWw] (wb_results_|wb_test_main|srunner_|yard_smx_unfused)' &&
    bad="$bad the $impl's runner links a results writer, the test harness or the given chain;"
done
# the judge by itself, plain and sandboxed: the CPU parts decided, every GPU checkpoint SKIP
for how in plain sandbox; do
  got=$(judge_alone 36 phase6/week36 solution $how "$log")
  [ "$got" = pass,skip,skip,skip,skip,skip,skip ] || bad="$bad judge-w36 over the solution's runner ($how): $got;"
  got=$(judge_alone 36 phase6/week36 starter $how "$log")
  [ "$got" = fail,skip,skip,fail,skip,skip,skip ] || bad="$bad judge-w36 over the starter's runner ($how): $got;"
done
grep -q "w36.traffic fail: unfused (given), batch 100 rows 256 cols 4096 causal: traffic_variant_bytes says 0 bytes, the model gives 2516582400 " \
  "$log/alone-w36-starter-plain.tsv.out" || bad="$bad the starter's w36.traffic failure is not the first shape's unfused count;"
grep -q "w36.split fail: split_smx_tmp_bytes(1, 1, 1) = 0: one (max, sum) pair of floats for each of the 1 chunks of 1 rows needs 8" \
  "$log/alone-w36-starter-plain.tsv.out" || bad="$bad the starter's w36.split failure is not the first scratch size;"
bad="$bad$(judge_lists_uncalibrated 36 phase6/week36 "w36.traffic w36.smx w36.smx-speed w36.split w36.split-speed \
w36.model w36.hurts" "w36.smx-speed w36.split-speed w36.model")"
if [ -z "$bad" ]; then t_pass "$label" "judged and linked cells alike; seven checkpoints listed, w36.traffic PASS over the reference's runner and FAIL over the starter's, w36.split's scratch size FAIL for the starter (SKIP for the reference), every GPU checkpoint SKIP, plain and sandboxed; the runners hold the week's four functions, the yard runner the given chain alone; calibration not run"
else t_fail "$label" "$bad (see $log)"; fi
t_end
