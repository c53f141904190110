#!/usr/bin/env bash
# instructor/tests/judge_w25.sh — week 25 graded with its judge without a GPU
# (instructor/README.md, "The judge and the runner"; instructor/judge_w25.c,
# whose checks are judge_hgemm.c's, week 26's too). Both checkpoints need a
# GPU: without one, SKIP both ways, never PASS. The class: the reference's
# hgemm_wmma.cu and the starter, graded with --judge 1 and without. The
# judge lists w25.wmma and w25.wmma-speed (nothing left to the linked test);
# the runners, the instructor's and the learners' linked in the sandbox,
# hold hgemm_wmma; the yard runner beside the judge calls cublasGemmEx and
# holds no student function (nor week 26's SIMT GEMM: week 25 has none);
# the judge alone over both runners, plain and sandboxed, SKIP twice; the
# calibration says w25.wmma-speed was not run. Needs libarchive and a
# working bwrap. On a GPU: instructor/README.md's week 25 entry.
. "$(dirname "$0")/lib.sh"
t_begin instructor-judge-w25

label="week 25 judged outside the student's process, without a GPU"
grading_or_skip "$label"
log=$BUILD/instructor/judge-w25-test
judge_class "$log" phase5/week25 phase5/week25/solution/hgemm_wmma.cu
judge_grade_twice 25 phase5/week25 "$log/class" "$log" ||
  { t_fail "$label" "judge-w25 or the grader does not build (see $log/build.log)"; t_end; }
bad=$(all_skip_both 2 "$log")
grep -q "phase5/week25: judged outside the student's process (--judge 1)$" "$log/judged.log" ||
  bad="$bad no line of the grader's says week 25 is judged with nothing left to its test program;"
list=$("$BUILD/instructor/judge-w25" --list | tr '\n' ' ')
[ "$list" = "w25.wmma w25.wmma-speed " ] || bad="$bad judge-w25 --list: $list;"
bad="$bad$(runners_hold phase5/week25 hgemm_wmma)$(learner_runner_lacks "$log" phase5/week25 hgemm_wmma)"
bad="$bad$(yard_runner_only 25 "" "hgemm_wmma yard_sgemm_simt")"
nm "$BUILD/instructor/judge-w25-yard-runner" 2>/dev/null | grep -q " U cublasGemmEx" ||
  bad="$bad judge-w25-yard-runner makes no cublasGemmEx call;"
bad="$bad$(judge_alone_each 25 phase5/week25 skip,skip "$log")"
cal=$(bash instructor/judge_calibrate.sh "$BUILD" phase5/week25)
[[ $cal == *"w25.wmma-speed not run"* ]] || bad="$bad calibration of week 25 without a GPU: '$cal';"
if [ -z "$bad" ]; then t_pass "$label" "both checkpoints SKIP without a GPU, judged and linked alike; the runners hold hgemm_wmma, the yard runner cuBLAS alone; the judge alone SKIP over both runners, plain and sandboxed; calibration not run"
else t_fail "$label" "$bad (see $log)"; fi
t_end
