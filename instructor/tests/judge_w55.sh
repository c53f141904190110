#!/usr/bin/env bash
# instructor/tests/judge_w55.sh — week 55's judge by itself without a GPU
# (instructor/README.md, "The judge and the runner"; instructor/judge_w55.c).
# The judge is staged: written and tested here, not yet used by the grader
# (not in JUDGED_WEEKS), so this tests it alone, not against the grader
# (bf16gemm_lib.sh's bf16_judge_alone): its three checkpoints listed; the
# runners holding ws_schedule, ws_gemm_bf16 and ws_gemm_bf16_grid, week
# 54's yard runner (which this judge times cuBLAS through) cuBLAS's call
# alone, the judge none of them; over the reference's and the starter's
# runners, plain and sandboxed, w55.schedule (CPU) PASS for the reference
# and FAIL for the starter, the GPU checkpoints SKIP, never PASS;
# calibration without a GPU says w55.gemm-speed was not run. Needs a
# working bwrap. On a GPU: the commands in instructor/README.md's week 55 entry.
. "$(dirname "$0")/lib.sh"
. "$(dirname "$0")/bf16gemm_lib.sh"
t_begin instructor-judge-w55

label="week 55's judge alone, without a GPU"
staged_judge_begin 55 "$label"
bad="$(bf16_judge_alone 55 phase5/week55 "ws_schedule ws_gemm_bf16 ws_gemm_bf16_grid" \
  "w55.schedule w55.gemm w55.gemm-speed" "256 x 512 x 320, grid 2, CTA 0")"
if [ -z "$bad" ]; then t_pass "$label" "three checkpoints listed; w55.schedule PASS for the reference and FAIL for the starter, w55.gemm and w55.gemm-speed SKIP, over either runner, plain and sandboxed; the runners holding the week's functions, week 54's yard runner cuBLAS's call alone; calibration not run"
else t_fail "$label" "$bad (see $log)"; fi
t_end
