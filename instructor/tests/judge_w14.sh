#!/usr/bin/env bash
# instructor/tests/judge_w14.sh — week 14 graded with its judge without a GPU
# (instructor/README.md, "The judge and the runner"; instructor/judge_w14.c).
# The week is judged by the grader (JUDGED_WEEKS): its class of two (the
# reference and the starter) graded without a GPU with --judge 1 and
# without gives the same cells, and the grader says it judges the week
# and leaves nothing to the test program; the judge by itself as below. It
# lists all eleven checkpoints (w14.sort-speed among them, none left to the
# linked test); the runners hold the week's functions, the yard runner
# beside the judge calls cuBLAS and holds CUB's SortPairs
# (judge_w14_kernels.cu) and none of the week's functions, the judge
# neither; the judge by itself over the reference's and the starter's
# runners, as a plain child and in the sandbox: w14.tf32 (a CPU
# checkpoint, judged through a runner that opens no GPU) PASS over the
# reference's runner (2 tests) and FAIL over the starter's (its
# blas_tf32_round returns x unrounded: the cases and the random floats
# both fail); the ten GPU checkpoints, w14.sort-speed among them, SKIP,
# never PASS; calibration without a GPU says the three speed checkpoints
# (w14.tf32-speed, w14.strided-speed, w14.sort-speed) were not run. Needs
# libarchive and a working bwrap. On a GPU: the commands in
# instructor/README.md's week 14 entry.
. "$(dirname "$0")/lib.sh"
t_begin instructor-judge-w14

label="week 14 judged outside the student's process, without a GPU"
judged_week_begin 14 phase3/week14 "$label" phase3/week14/solution/*.cu
fns="blas_tf32_round blas_axpy blas_dot blas_gemm blas_gemm_batched blas_gemm_strided cubdev_sum cubdev_scan
  cubdev_sort_pairs cubblock_row_argmax cubblock_row_amax thr_sqdist thr_sort_by_key"
bad=
bad="$bad$(cpu_first_cells 11 "$log" correct starter)"
bad="$bad$(grader_says_judged 14 phase3/week14)"
# shellcheck disable=SC2086
bad="$bad$(runners_hold phase3/week14 $fns)"
bad="$bad$(yard_runner_only 14 "jd_w14_cub_sort_pairs" "$fns")"
nm "$BUILD/instructor/judge-w14-yard-runner" | grep -q ' U cublasSgemm' || bad="$bad the yard runner does not call cublasSgemm;"
for s in $fns; do
  nm "$BUILD/instructor/judge-w14" | grep -q " [TU] $s\$" && bad="$bad the judge links $s;"
done
for impl in solution starter; do
  nm "$BUILD/phase3/week14/$impl/judge-runner" | grep -Eq ' [TtWw] (wb_results_|wb_test_main|srunner_)' &&
    bad="$bad the $impl's runner links a results writer or the test harness;"
done
# the judge by itself, plain and sandboxed
skips=$(printf ',skip%.0s' $(seq 10))
for how in plain sandbox; do
  for pair in "solution=pass$skips" "starter=fail$skips"; do
    impl=${pair%%=*} want=${pair#*=}
    got=$(judge_alone 14 phase3/week14 "$impl" $how "$log")
    [ "$got" = "$want" ] || bad="$bad judge-w14 over the $impl's runner ($how): $got, expected $want;"
    n=$(awk -F'\t' '$2 == "w14.tf32" { print $13 "/" $14 }' "$log/alone-w14-$impl-$how.tsv")
    [ "$n" = "$([ "$impl" = solution ] && echo 2/0 || echo 2/2)" ] ||
      bad="$bad the $impl's w14.tf32 ($how): tests/failed $n;"
  done
done
grep -q "w14.tf32 fail: blas_tf32_round(0x1.002p+0) \[1 + 2^-11 (a tie: away from zero)\]" \
  "$log/alone-w14-starter-plain.tsv.out" || bad="$bad the starter's w14.tf32 failure does not name the first tie;"
bad="$bad$(judge_lists_uncalibrated 14 phase3/week14 \
  "w14.tf32 w14.blas1 w14.gemm w14.batched w14.mathmodes w14.tf32-speed w14.strided-speed w14.cubdev w14.sort-speed w14.blockwarp w14.thrust" \
  "w14.tf32-speed w14.strided-speed w14.sort-speed")"
if [ -z "$bad" ]; then t_pass "$label" "judged and linked cells alike, nothing left to the linked test; all eleven checkpoints listed (w14.sort-speed among them); w14.tf32 PASS over the reference's runner and FAIL over the starter's, the ten GPU checkpoints (w14.sort-speed among them) SKIP, plain and sandboxed; the runners holding the week's functions, the yard runner cuBLAS and CUB's SortPairs alone, the judge none; calibration of the three speed checkpoints not run"
else t_fail "$label" "$bad (see $log)"; fi
t_end
