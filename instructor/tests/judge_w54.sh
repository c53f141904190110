#!/usr/bin/env bash
# instructor/tests/judge_w54.sh — week 54's judge by itself without a GPU
# (instructor/README.md, "The judge and the runner"; instructor/judge_w54.c).
# The judge is staged: written and tested here, not yet used by the grader
# (not in JUDGED_WEEKS), so this tests it alone, not against the grader. It
# lists the week's three checkpoints; the runners hold wgmma_desc_make and
# wgmma_gemm_bf16, the yard runner beside the judge holds cuBLAS's call and
# neither student function, the judge neither; the judge by itself over the
# reference's and the starter's runners, as a plain child and in the
# sandbox: w54.desc (CPU) PASS for the reference and FAIL for the starter,
# the GPU checkpoints SKIP, never PASS; calibration without a GPU says
# w54.gemm-speed was not run. Needs a working bwrap. On a GPU: the commands
# in instructor/README.md's week 54 entry.
. "$(dirname "$0")/lib.sh"
t_begin instructor-judge-w54

label="week 54's judge alone, without a GPU"
staged_judge_begin 54 "$label"
bad="$(runners_hold phase5/week54 wgmma_desc_make wgmma_desc_advance wgmma_desc_bf16_sw128 wgmma_gemm_bf16)"
bad="$bad$(yard_runner_only 54 "" "wgmma_gemm_bf16 wgmma_desc_make")"
nm "$BUILD/instructor/judge-w54-yard-runner" | grep -q " U cublasGemmEx" || bad="$bad the yard runner does not call cublasGemmEx;"
for s in wgmma_gemm_bf16 wgmma_desc_make; do
  nm "$BUILD/instructor/judge-w54" | grep -q " [TU] $s\$" && bad="$bad the judge links $s;"
done
for impl in solution starter; do
  nm "$BUILD/phase5/week54/$impl/judge-runner" | grep -Eq ' [TtWw] (wb_results_|wb_test_main|srunner_)' &&
    bad="$bad the $impl's runner links a results writer or the test harness;"
done
# the judge by itself, plain and sandboxed: w54.desc PASS (reference) / FAIL (starter), the GPU ones SKIP
for impl in solution starter; do
  want=pass,skip,skip
  [ $impl = starter ] && want=fail,skip,skip
  for how in plain sandbox; do
    got=$(judge_alone 54 phase5/week54 $impl $how "$log")
    [ "$got" = "$want" ] || bad="$bad judge-w54 over the $impl's runner ($how): $got, expected $want;"
  done
done
grep -q "wgmma_desc_make(addr 0x400, lbo 16, sbo 1024" "$log/alone-w54-starter-plain.tsv" ||
  bad="$bad the starter's w54.desc failure does not name the descriptor case;"
bad="$bad$(judge_lists_uncalibrated 54 phase5/week54 "w54.desc w54.gemm w54.gemm-speed" "w54.gemm-speed")"
if [ -z "$bad" ]; then t_pass "$label" "three checkpoints listed; w54.desc PASS for the reference and FAIL for the starter, w54.gemm and w54.gemm-speed SKIP, over either runner, plain and sandboxed; the runners holding the week's functions, the yard runner cuBLAS's call alone; calibration not run"
else t_fail "$label" "$bad (see $log)"; fi
t_end
