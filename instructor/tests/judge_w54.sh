#!/usr/bin/env bash
# instructor/tests/judge_w54.sh — week 54's judge by itself without a GPU
# (instructor/README.md, "The judge and the runner"; instructor/judge_w54.c).
# The judge is staged: written and tested here, not yet used by the grader
# (not in JUDGED_WEEKS), so this tests it alone, not against the grader
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

label="week 54's judge alone, without a GPU"
staged_judge_begin 54 "$label"
bad="$(bf16_judge_alone 54 phase5/week54 "wgmma_desc_make wgmma_desc_advance wgmma_desc_bf16_sw128 wgmma_gemm_bf16" \
  "w54.desc w54.gemm w54.gemm-speed" "wgmma_desc_make(addr 0x400, lbo 16, sbo 1024")"
if [ -z "$bad" ]; then t_pass "$label" "three checkpoints listed; w54.desc PASS for the reference and FAIL for the starter, w54.gemm and w54.gemm-speed SKIP, over either runner, plain and sandboxed; the runners holding the week's functions, the yard runner cuBLAS's call alone; calibration not run"
else t_fail "$label" "$bad (see $log)"; fi
t_end
