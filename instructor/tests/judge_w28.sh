#!/usr/bin/env bash
# instructor/tests/judge_w28.sh — week 28's judge by itself without a GPU
# (instructor/README.md, "The judge and the runner"; instructor/judge_w28.c,
# judge_hgemm.c). The judge is staged: written and tested here, not yet
# used by the grader (not in JUDGED_WEEKS), so this tests it alone, not
# against the grader. Every checkpoint of week 28 needs a GPU, so without
# one each must be SKIP, never PASS: the judge lists all three (none left
# to the linked test); the runners hold gemm_epilogue_bias_act and
# gemm_epilogue_act, the yard runner beside the judge holds the given
# cuBLASLt yardstick and neither of those; the judge by itself over the
# reference's and the starter's runners, as a plain child and in the
# sandbox, writes three SKIP records; calibration without a GPU says
# w28.fused-speed was not run. Needs a working bwrap. On a GPU: the
# commands in instructor/README.md's week 28 entry.
. "$(dirname "$0")/lib.sh"
t_begin instructor-judge-w28

label="week 28's judge alone, without a GPU"
staged_judge_begin 28 "$label"
bad=
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
if [ -z "$bad" ]; then t_pass "$label" "all three checkpoints listed, SKIP without a GPU over the reference's and the starter's runners, plain and sandboxed, the runners holding the week's two functions, the yard runner cuBLASLt alone, calibration not run"
else t_fail "$label" "$bad (see $log)"; fi
t_end
