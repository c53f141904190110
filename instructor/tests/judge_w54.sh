#!/usr/bin/env bash
# instructor/tests/judge_w54.sh — week 54 graded with its judge without a GPU
# (instructor/README.md, "The judge and the runner"; instructor/judge_w54.c).
# The week is judged by the grader (JUDGED_WEEKS): its class of two (the
# reference and the starter) graded without a GPU with --judge 1 and
# without gives the same cells, and the judge by itself as below
# (bf16gemm_lib.sh's bf16_judge_alone): its three checkpoints listed; the
# runners holding the descriptor functions and wgmma_gemm_bf16, its yard
# runner cuBLAS's call alone, the judge neither; over the reference's and
# the starter's runners, plain and sandboxed, w54.desc (CPU) PASS for the
# reference and FAIL for the starter, the GPU checkpoints SKIP, never PASS;
# calibration without a GPU says w54.gemm-speed was not run. Needs a
# working bwrap. On a GPU: the commands in instructor/README.md's week 54 entry.
. "$(dirname "$0")/lib.sh"
. "$(dirname "$0")/bf16gemm_lib.sh"
t_begin instructor-judge-w54

label="week 54 judged outside the student's process, without a GPU"
judged_week_begin 54 phase5/week54 "$label" phase5/week54/solution/*.cu
bad="$(bf16_judge_alone 54 phase5/week54 "wgmma_desc_make wgmma_desc_advance wgmma_desc_bf16_sw128 wgmma_gemm_bf16" \
  "w54.desc w54.gemm w54.gemm-speed" "wgmma_desc_make(addr 0x400, lbo 16, sbo 1024")"
bad="$bad$(cpu_first_cells 3 "$log" correct starter)"
bad="$bad$(grader_says_judged 54 phase5/week54)"
if [ -z "$bad" ]; then t_pass "$label" "judged and linked cells alike; three checkpoints listed; w54.desc PASS for the reference and FAIL for the starter, w54.gemm and w54.gemm-speed SKIP, over either runner, plain and sandboxed; the runners holding the week's functions, the yard runner cuBLAS's call alone; calibration not run"
else t_fail "$label" "$bad (see $log)"; fi
t_end
