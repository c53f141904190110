#!/usr/bin/env bash
# instructor/tests/judge_w55.sh — week 55 graded with its judge without a GPU
# (instructor/README.md, "The judge and the runner"; instructor/judge_w55.c).
# The week is judged by the grader (JUDGED_WEEKS): its class of two (the
# reference and the starter) graded without a GPU with --judge 1 and
# without gives the same cells, and the judge by itself as below
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

label="week 55 judged outside the student's process, without a GPU"
judged_week_begin 55 phase5/week55 "$label" phase5/week55/solution/*.cu
bad="$(bf16_judge_alone 55 phase5/week55 "ws_schedule ws_gemm_bf16 ws_gemm_bf16_grid" \
  "w55.schedule w55.gemm w55.gemm-speed" "256 x 512 x 320, grid 2, CTA 0")"
bad="$bad$(cpu_first_cells 3 "$log" correct starter)"
bad="$bad$(grader_says_judged 55 phase5/week55)"
if [ -z "$bad" ]; then t_pass "$label" "judged and linked cells alike; three checkpoints listed; w55.schedule PASS for the reference and FAIL for the starter, w55.gemm and w55.gemm-speed SKIP, over either runner, plain and sandboxed; the runners holding the week's functions, week 54's yard runner cuBLAS's call alone; calibration not run"
else t_fail "$label" "$bad (see $log)"; fi
t_end
