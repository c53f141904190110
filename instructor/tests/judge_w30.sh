#!/usr/bin/env bash
# instructor/tests/judge_w30.sh — week 30 graded with its judge without a GPU
# (instructor/README.md, "The judge and the runner"; instructor/judge_w30.c).
# w30.online-cpu is a CPU function, judged through a runner that opens no
# GPU: full marks for the reference, 0 for the starter; every other
# checkpoint needs a GPU and must be SKIP, never PASS. The class: the
# reference and the starter, graded with --judge 1 (the runner linked in
# the sandbox from each student's online.o and rowsoftmax.o) and without
# it: the same cells. The judge lists the six checkpoints it forms and the
# grader says it leaves w30.ladder (the CSV and the PNG the student's run
# writes) to the test program; the runners (the learners' in the sandbox
# too) hold online_stats and the three softmax functions, the yard
# runner beside the judge holds the given cuDNN yardstick and none of them,
# the judge none of them; the judge by itself over the reference's and the
# starter's runners, as a plain child and in the sandbox: w30.online-cpu (a
# CPU function, judged through a runner that opens no GPU) PASS for the
# reference and FAIL for the starter, every GPU checkpoint SKIP, never
# PASS; calibration without a GPU says w30.speed and w30.cudnn were not
# run. Needs libarchive and a working bwrap. On a GPU: the commands in
# instructor/README.md's week 30 entry.
. "$(dirname "$0")/lib.sh"
t_begin instructor-judge-w30

label="week 30 judged outside the student's process, without a GPU"
judged_week_begin 30 phase6/week30 "$label" phase6/week30/solution/*.cu
fns="online_stats rowsoftmax_warp rowsoftmax_block rowsoftmax_online"
bad=
# the seven checkpoints in week.txt's order: online-cpu (CPU) full marks for the reference, 0 for the
# starter; warp block online speed cudnn ladder SKIP; the same both ways
bad="$bad$(cpu_first_cells 7 "$log" correct starter)"
grep -q "phase6/week30: judged outside the student's process (--judge 1); left to its test program (.*): w30.ladder$" \
  "$log/judged.log" || bad="$bad the grader did not say it judges week 30 and leaves w30.ladder to the test program;"
# shellcheck disable=SC2086
bad="$bad$(learner_runner_lacks "$log" phase6/week30 $fns)"
# shellcheck disable=SC2086
bad="$bad$(runners_hold phase6/week30 $fns)"
bad="$bad$(yard_runner_only 30 "yard_cudnn_open yard_cudnn_softmax" "$fns")"
for s in $fns; do
  nm "$BUILD/instructor/judge-w30" | grep -q " [TU] $s\$" && bad="$bad the judge links the student's $s;"
done
for impl in solution starter; do
  nm "$BUILD/phase6/week30/$impl/judge-runner" | grep -Eq ' [TtWw] (wb_results_|wb_test_main|srunner_|yard_cudnn_)' &&
    bad="$bad the $impl's runner links a results writer, the test harness or the cuDNN yardstick;"
done
# the judge by itself, plain and sandboxed: the CPU checkpoint decided, the five GPU ones SKIP
for how in plain sandbox; do
  got=$(judge_alone 30 phase6/week30 solution $how "$log")
  [ "$got" = pass,skip,skip,skip,skip,skip ] || bad="$bad judge-w30 over the solution's runner ($how): $got;"
  got=$(judge_alone 30 phase6/week30 starter $how "$log")
  [ "$got" = fail,skip,skip,skip,skip,skip ] || bad="$bad judge-w30 over the starter's runner ($how): $got;"
done
grep -q "online_stats, n=[0-9]*, uniform in \[-20, 20\]: m = 12345, expected" "$log/alone-w30-starter-plain.tsv.out" ||
  bad="$bad the starter's w30.online-cpu failure is not the first case's m;"
bad="$bad$(judge_lists_uncalibrated 30 phase6/week30 "w30.online-cpu w30.warp w30.block w30.online w30.speed w30.cudnn" \
  "w30.speed w30.cudnn")"
if [ -z "$bad" ]; then t_pass "$label" "six checkpoints listed by the judge, w30.ladder left to the test program; judged and linked alike (w30.online-cpu the reference full marks, the starter 0, the rest SKIP); the judge alone w30.online-cpu PASS over the reference's runner and FAIL over the starter's, the five GPU ones SKIP, plain and sandboxed; the runners holding the week's four functions, the yard runner the given cuDNN yardstick alone; calibration not run"
else t_fail "$label" "$bad (see $log)"; fi
t_end
