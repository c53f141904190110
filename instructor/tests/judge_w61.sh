#!/usr/bin/env bash
# instructor/tests/judge_w61.sh — week 61 graded with its judge without a GPU
# (instructor/README.md, "The judge and the runner"; instructor/judge_w61.c).
# The week is judged by the grader (JUDGED_WEEKS): its class of two (the
# reference and the starter) graded without a GPU with --judge 1 and
# without gives the same cells, and the judge by itself as below. It
# lists all three checkpoints (none left to the linked test); the runners
# hold the week's four functions and the given probe, the yard runner beside
# the judge calls cuBLAS and holds none of them, the judge neither; the
# judge by itself over the reference's and the starter's runners, as a plain
# child and in the sandbox: w61.pack (a CPU checkpoint, judged through a
# runner that opens no GPU) PASS over the reference's runner (4 tests) and
# FAIL over the starter's (its sp24_pack_prune writes nothing); w61.gemm
# (its CPU part, the refusals on made-up pointers before any CUDA call)
# SKIP over the reference's runner and FAIL over the starter's, whose
# sp24_gemm refuses nothing; w61.sparse-speed SKIP, never PASS; calibration
# without a GPU says w61.sparse-speed was not run. Needs a working bwrap. On
# a GPU: the commands in instructor/README.md's week 61 entry.
. "$(dirname "$0")/lib.sh"
t_begin instructor-judge-w61

label="week 61 judged outside the student's process, without a GPU"
judged_week_begin 61 phase6/week61 "$label" phase6/week61/solution/*.cu
fns="sp24_pack_prune sp24_pack_compress sp24_pack_decompress sp24_gemm"
# shellcheck disable=SC2086
bad=
bad="$bad$(cpu_first_cells 3 "$log" correct)$(cells_both 3 "$log" starter=0.00,0.00,SKIP)"
bad="$bad$(grader_says_judged 61 phase6/week61)"
bad="$bad$(runners_hold phase6/week61 $fns sp24_probe_one)"
bad="$bad$(yard_runner_only 61 "" "$fns sp24_probe_one")"
nm "$BUILD/instructor/judge-w61-yard-runner" | grep -q ' U cublasGemmEx' || bad="$bad the yard runner does not call cublasGemmEx;"
for s in $fns sp24_probe_one; do
  nm "$BUILD/instructor/judge-w61" | grep -q " [TU] $s\$" && bad="$bad the judge links $s;"
done
for impl in solution starter; do
  nm "$BUILD/phase6/week61/$impl/judge-runner" | grep -Eq ' [TtWw] (wb_results_|wb_test_main|srunner_)|cublasGemmEx' &&
    bad="$bad the $impl's runner links a results writer, the test harness or the cuBLAS yardstick;"
done
# the judge by itself, plain and sandboxed
for how in plain sandbox; do
  for pair in solution=pass,skip,skip starter=fail,fail,skip; do
    impl=${pair%%=*} want=${pair#*=}
    got=$(judge_alone 61 phase6/week61 "$impl" $how "$log")
    [ "$got" = "$want" ] || bad="$bad judge-w61 over the $impl's runner ($how): $got, expected $want;"
    n=$(awk -F'\t' '$2 == "w61.pack" { print $13 "/" $14 }' "$log/alone-w61-$impl-$how.tsv")
    [ "$n" = "$([ "$impl" = solution ] && echo 4/0 || echo 1/1)" ] ||
      bad="$bad the $impl's w61.pack ($how): tests/failed $n;"
  done
done
out="$log/alone-w61-starter-plain.tsv.out"
grep -q "w61.pack fail: group (0x0000, 0x0000, 0x0000, 0x0000) pruned to (0xffff," "$out" ||
  bad="$bad the starter's w61.pack failure does not name the first group;"
grep -q "w61.gemm fail: sp24_gemm(M=-1, N=16, K=64): M < 0 must return cudaErrorInvalidValue" "$out" ||
  bad="$bad the starter's w61.gemm failure does not name the first refusal;"
bad="$bad$(judge_lists_uncalibrated 61 phase6/week61 "w61.pack w61.gemm w61.sparse-speed" "w61.sparse-speed")"
if [ -z "$bad" ]; then t_pass "$label" "judged and linked cells alike; three checkpoints listed (none left to the linked test); w61.pack PASS over the reference's runner and FAIL over the starter's, w61.gemm SKIP over the reference's (its refusals pass) and FAIL over the starter's, w61.sparse-speed SKIP, plain and sandboxed; the runners holding the week's functions, the yard runner cuBLAS alone; calibration not run"
else t_fail "$label" "$bad (see $log)"; fi
t_end
