#!/usr/bin/env bash
# instructor/tests/judge_w31.sh — week 31's judge by itself, without a GPU
# (instructor/README.md, "The judge and the runner"; instructor/judge_w31.c).
# The judge is staged: written and tested here, not yet used by the grader
# (no JUDGED_WEEKS line, no JUDGES row), so this tests it alone, not the
# grader's comparison. It lists all eight checkpoints (none left to the
# linked test); over the reference's runner, as a plain child and in the
# sandbox, w31.moments (CPU functions, judged through a runner that opens no
# GPU) is PASS and the other seven SKIP (w31.welford-stable's CPU part
# passes, its GPU part cannot run); over the starter's, w31.moments and
# w31.welford-stable FAIL and the rest SKIP, never PASS; the runners hold
# the week's seven functions and no results writer; calibration without a
# GPU says w31.layernorm-bw and w31.rmsnorm-bw were not run. Needs a
# working bwrap. On a GPU: the commands in instructor/README.md's week 31
# entry.
. "$(dirname "$0")/lib.sh"
t_begin instructor-judge-w31

label="week 31's judge by itself, without a GPU"
staged_judge_begin 31 "$label"
bad=
bad="$bad$(runners_hold phase6/week31 moments_sumsq moments_twopass moments_welford layernorm_twopass \
  layernorm_welford layernorm_sumsq rmsnorm)"
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
if [ -z "$bad" ]; then t_pass "$label" "eight checkpoints listed, w31.moments PASS over the reference's runner and FAIL over the starter's (w31.welford-stable SKIP and FAIL), every GPU checkpoint SKIP, plain and sandboxed; the runners hold the week's seven functions; calibration not run"
else t_fail "$label" "$bad (see $log)"; fi
t_end
