#!/usr/bin/env bash
# instructor/tests/judge_w28.sh — week 28 graded with its judge without a GPU
# (instructor/README.md, "The judge and the runner"; instructor/judge_w28.c,
# judge_hgemm.c). Every checkpoint of week 28 needs a GPU, so without one
# each must be SKIP, never PASS: graded with --judge 1 (the runner linked in
# the sandbox from each student's gemm_epilogue.o) the cells are those of
# the same class graded without it; the judge lists all three (none left
# to the linked test); the runners hold gemm_epilogue_bias_act and
# gemm_epilogue_act, the yard runner beside the judge holds the given
# cuBLASLt yardstick and neither of those; the judge by itself over the
# reference's and the starter's runners, as a plain child and in the
# sandbox, writes three SKIP records; calibration without a GPU says
# w28.fused-speed was not run. Needs libarchive and a working bwrap. On a
# GPU: the commands in instructor/README.md's week 28 entry.
. "$(dirname "$0")/lib.sh"
t_begin instructor-judge-w28

label="week 28 judged outside the student's process, without a GPU"
judged_week_begin 28 phase5/week28 "$label" phase5/week28/solution/gemm_epilogue.cu
bad=
# the three checkpoints in week.txt's order: fused bias-act fused-speed, every one SKIP both ways
bad="$bad$(all_skip_both 3 "$log")"
grep -q "phase5/week28: judged outside the student's process (--judge 1)$" "$log/judged.log" ||
  bad="$bad the grader did not say it judges week 28, leaving nothing to the test program;"
bad="$bad$(learner_runner_lacks "$log" phase5/week28 gemm_epilogue_bias_act gemm_epilogue_act)"
bad="$bad$(runners_hold phase5/week28 gemm_epilogue_bias_act gemm_epilogue_act)"
bad="$bad$(yard_runner_only 28 "yard_lt_open yard_lt_run" "gemm_epilogue_bias_act gemm_epilogue_act")"
nm "$BUILD/instructor/judge-w28-yard-runner" | grep -q " U cublasLtMatmul" ||
  bad="$bad the yard runner does not call cublasLtMatmul;"
for s in gemm_epilogue_bias_act gemm_epilogue_act; do
  nm "$BUILD/instructor/judge-w28" | grep -q " [TU] $s\$" && bad="$bad the judge links the student's $s;"
done
# the judge by itself: three SKIP records, plain and sandboxed, whoever's runner
bad="$bad$(judge_alone_each 28 phase5/week28 skip,skip,skip "$log")"
bad="$bad$(judge_lists_uncalibrated 28 phase5/week28 "w28.fused w28.bias-act w28.fused-speed" "w28.fused-speed")"
if [ -z "$bad" ]; then t_pass "$label" "all three checkpoints listed by the judge, SKIP without a GPU judged and linked alike; the judge alone SKIP over the reference's and the starter's runners, plain and sandboxed, the runners (the learners' in the sandbox too) holding the week's two functions, the yard runner cuBLASLt alone, calibration not run"
else t_fail "$label" "$bad (see $log)"; fi
t_end
