#!/usr/bin/env bash
# instructor/tests/judge_w14.sh — week 14 graded with its judge without a GPU
# (instructor/README.md, "The judge and the runner"; instructor/judge_w14.c).
# The week is judged by the grader (JUDGED_WEEKS): its class of two (the
# reference and the starter) graded without a GPU with --judge 1 and
# without gives the same cells, and the judge by itself as below. It
# lists the week's eight correctness checkpoints and two of its speed ones
# (w14.sort-speed is left to the linked test); the runners hold the week's
# functions, the yard runner beside the judge calls cuBLAS and holds none
# of them, the judge neither; the judge by itself over the reference's and the
# starter's runners, as a plain child and in the sandbox: w14.tf32 (a CPU
# checkpoint, judged through a runner that opens no GPU) PASS over the
# reference's runner (2 tests) and FAIL over the starter's (its
# blas_tf32_round returns x unrounded: the cases and the random floats
# both fail); the nine GPU checkpoints SKIP, never PASS; calibration
# without a GPU says the two speed checkpoints were not run, and that
# w14.sort-speed is not formed by judge-w14. Its staged form, judge-w14-sort
# (judge_w14.c built with W14_JUDGE_SORT_SPEED on), lists all eleven, and by
# itself over both runners, plain and sandboxed, gives w14.tf32 as above and
# every GPU checkpoint, w14.sort-speed too, SKIP; the yard runner holds CUB's
# SortPairs (judge_w14_kernels.cu), judge-w14-sort none of the week's
# functions. Needs a working bwrap. On a GPU: the commands in
# instructor/README.md's week 14 entry.
. "$(dirname "$0")/lib.sh"
t_begin instructor-judge-w14

label="week 14 judged outside the student's process, without a GPU"
judged_week_begin 14 phase3/week14 "$label" phase3/week14/solution/*.cu
fns="blas_tf32_round blas_axpy blas_dot blas_gemm blas_gemm_batched blas_gemm_strided cubdev_sum cubdev_scan
  cubdev_sort_pairs cubblock_row_argmax cubblock_row_amax thr_sqdist thr_sort_by_key"
# shellcheck disable=SC2086
bad=
bad="$bad$(cpu_first_cells 11 "$log" correct starter)"
bad="$bad$(grader_says_judged 14 phase3/week14 "w14.sort-speed")"
bad="$bad$(runners_hold phase3/week14 $fns)"
# shellcheck disable=SC2086
bad="$bad$(yard_runner_only 14 "" "$(echo $fns)")"
nm "$BUILD/instructor/judge-w14-yard-runner" | grep -q ' U cublasSgemm' || bad="$bad the yard runner does not call cublasSgemm;"
for s in $fns; do
  nm "$BUILD/instructor/judge-w14" | grep -q " [TU] $s\$" && bad="$bad the judge links $s;"
done
for impl in solution starter; do
  nm "$BUILD/phase3/week14/$impl/judge-runner" | grep -Eq ' [TtWw] (wb_results_|wb_test_main|srunner_)' &&
    bad="$bad the $impl's runner links a results writer or the test harness;"
done
# the judge by itself, plain and sandboxed
skips=$(printf ',skip%.0s' $(seq 9))
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
  "w14.tf32 w14.blas1 w14.gemm w14.batched w14.mathmodes w14.tf32-speed w14.strided-speed w14.cubdev w14.blockwarp w14.thrust" \
  "w14.tf32-speed w14.strided-speed")"
cal=$(bash instructor/judge_calibrate.sh "$BUILD" phase3/week14)
[[ $cal == *"w14.sort-speed not formed by judge-w14"* ]] || bad="$bad calibration of week 14 without a GPU: $cal;"
# w14.sort-speed, staged: judge-w14-sort (the switch on)
ids11="w14.tf32 w14.blas1 w14.gemm w14.batched w14.mathmodes w14.tf32-speed w14.strided-speed w14.cubdev w14.sort-speed w14.blockwarp w14.thrust"
got=$("$BUILD/instructor/judge-w14-sort" --list | tr '\n' ' ')
[ "$got" = "$ids11 " ] || bad="$bad judge-w14-sort --list: $got;"
nm "$BUILD/instructor/judge-w14-yard-runner" | grep -q ' T jd_w14_cub_sort_pairs$' ||
  bad="$bad the yard runner lacks CUB's SortPairs (jd_w14_cub_sort_pairs);"
for s in $fns; do
  nm "$BUILD/instructor/judge-w14-sort" | grep -q " [TU] $s\$" && bad="$bad judge-w14-sort links $s;"
done
skips=$(printf ',skip%.0s' $(seq 10))
for how in plain sandbox; do
  for pair in "solution=pass$skips" "starter=fail$skips"; do
    impl=${pair%%=*} want=${pair#*=}
    got=$(judge_alone 14-sort phase3/week14 "$impl" $how "$log")
    [ "$got" = "$want" ] || bad="$bad judge-w14-sort over the $impl's runner ($how): $got, expected $want;"
    n=$(awk -F'\t' '$2 == "w14.sort-speed" { print $3 }' "$log/alone-w14-sort-$impl-$how.tsv")
    [ "$n" = skip ] || bad="$bad judge-w14-sort's w14.sort-speed over the $impl's runner ($how): ${n:-missing};"
  done
done
if [ -z "$bad" ]; then t_pass "$label" "judged and linked cells alike; ten checkpoints listed (w14.sort-speed left to the linked test); w14.tf32 PASS over the reference's runner and FAIL over the starter's, the nine GPU checkpoints SKIP, plain and sandboxed; the runners holding the week's functions, the yard runner cuBLAS alone, the judge none; calibration not run; w14.sort-speed staged: judge-w14-sort lists eleven, its w14.sort-speed SKIP without a GPU over both runners, plain and sandboxed, CUB's SortPairs in the yard runner"
else t_fail "$label" "$bad (see $log)"; fi
t_end
