#!/usr/bin/env bash
# instructor/tests/judge_w31.sh — week 31 graded with its judge without a GPU
# (instructor/README.md, "The judge and the runner"; instructor/judge_w31.c).
# The class: the reference and the starter, graded with --judge 1 (the
# runner linked in the sandbox from each student's moments.o, layernorm.o
# and rmsnorm.o) and without it: the same cells (the reference's
# w31.moments full marks and the rest SKIP, the starter's w31.moments and
# w31.welford-stable 0 and the rest SKIP). The judge lists all eight
# checkpoints (none left to the linked test, as the grader says); by
# itself over the reference's runner, as a plain child and in the
# sandbox, w31.moments (CPU functions, judged through a runner that opens no
# GPU) is PASS and the other seven SKIP (w31.welford-stable's CPU part
# passes, its GPU part cannot run); over the starter's, w31.moments and
# w31.welford-stable FAIL and the rest SKIP, never PASS; the runners hold
# the week's seven functions and no results writer; calibration without a
# GPU says w31.layernorm-bw and w31.rmsnorm-bw were not run. Needs
# libarchive and a working bwrap. On a GPU: the commands in
# instructor/README.md's week 31 entry.
. "$(dirname "$0")/lib.sh"
t_begin instructor-judge-w31

label="week 31 judged outside the student's process, without a GPU"
judged_week_begin 31 phase6/week31 "$label" phase6/week31/solution/*.cu
fns="moments_sumsq moments_twopass moments_welford layernorm_twopass layernorm_welford layernorm_sumsq rmsnorm"
bad=
# the eight checkpoints in week.txt's order: moments (CPU) full marks for the reference, welford-stable's
# CPU part FAILs the starter; the rest SKIP; the same both ways
bad="$bad$(cpu_first_cells 8 "$log" correct)"
bad="$bad$(cells_both 8 "$log" starter=0.00,0.00,SKIP,SKIP,SKIP,SKIP,SKIP,SKIP)"
grep -q "phase6/week31: judged outside the student's process (--judge 1)$" "$log/judged.log" ||
  bad="$bad the grader did not say it judges week 31, leaving nothing to the test program;"
# shellcheck disable=SC2086
bad="$bad$(learner_runner_lacks "$log" phase6/week31 $fns)"
# shellcheck disable=SC2086
bad="$bad$(runners_hold phase6/week31 $fns)"
for impl in solution starter; do
  nm "$BUILD/phase6/week31/$impl/judge-runner" | grep -Eq ' [TtWw] (wb_results_|wb_test_main|srunner_)' &&
    bad="$bad the $impl's runner links a results writer or the test harness;"
done
for s in moments_welford layernorm_welford rmsnorm; do
  nm "$BUILD/instructor/judge-w31" | grep -q " [TU] $s\$" && bad="$bad the judge links the student's $s;"
done
# the judge by itself, plain and sandboxed: the CPU checkpoint PASS for the reference, FAIL for the starter
for how in plain sandbox; do
  got=$(judge_alone 31 phase6/week31 solution $how "$log")
  [ "$got" = pass,skip,skip,skip,skip,skip,skip,skip ] || bad="$bad judge-w31 over the solution's runner ($how): $got;"
  got=$(judge_alone 31 phase6/week31 starter $how "$log")
  [ "$got" = fail,fail,skip,skip,skip,skip,skip,skip ] || bad="$bad judge-w31 over the starter's runner ($how): $got;"
done
bad="$bad$(judge_lists_uncalibrated 31 phase6/week31 "w31.moments w31.welford-stable w31.layernorm-twopass \
w31.layernorm-welford w31.layernorm-sumsq w31.rmsnorm w31.layernorm-bw w31.rmsnorm-bw" "w31.layernorm-bw w31.rmsnorm-bw")"
if [ -z "$bad" ]; then t_pass "$label" "eight checkpoints listed by the judge, judged and linked alike (w31.moments the reference full marks, the starter 0 there and at w31.welford-stable, the rest SKIP); the judge alone w31.moments PASS over the reference's runner and FAIL over the starter's (w31.welford-stable SKIP and FAIL), every GPU checkpoint SKIP, plain and sandboxed; the runners hold the week's seven functions; calibration not run"
else t_fail "$label" "$bad (see $log)"; fi
t_end
