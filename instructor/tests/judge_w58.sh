#!/usr/bin/env bash
# instructor/tests/judge_w58.sh — week 58 graded with its judge without a GPU
# (instructor/README.md, "The judge and the runner"; instructor/judge_w58.c).
# The week is judged by the grader (JUDGED_WEEKS): its class of two (the
# reference and the starter) graded without a GPU with --judge 1 and
# without gives the same cells, and the judge by itself as below. It
# lists all four checkpoints (none left to the linked test); the runners
# hold the week's two functions, the
# judge neither; the judge by itself over the reference's and the
# starter's runners, as a plain child and in the sandbox: w58.decode and
# w58.prefill SKIP over the reference's runner (their CPU parts, the given
# quantiser's checks and the refusals on made-up pointers, pass; the shapes
# need a GPU) and FAIL over the starter's (its calls return cudaSuccess for
# M < 0), the two speed checkpoints SKIP over both, never PASS; calibration
# without a GPU says both speed checkpoints were not run. Needs a working bwrap. On a GPU: the commands in instructor/README.md's week 58 entry.
. "$(dirname "$0")/lib.sh"
t_begin instructor-judge-w58

label="week 58 judged outside the student's process, without a GPU"
judged_week_begin 58 phase6/week58 "$label" phase6/week58/solution/*.cu
fns="w4a16_decode w4a16_prefill"
# shellcheck disable=SC2086
bad=
bad="$bad$(cells_both 4 "$log" correct=SKIP,SKIP,SKIP,SKIP starter=0.00,0.00,SKIP,SKIP)"
bad="$bad$(grader_says_judged 58 phase6/week58)"
bad="$bad$(runners_hold phase6/week58 $fns)"
for s in $fns; do
  nm "$BUILD/instructor/judge-w58" | grep -q " [TU] $s\$" && bad="$bad the judge links $s;"
done
for impl in solution starter; do
  nm "$BUILD/phase6/week58/$impl/judge-runner" | grep -Eq ' [TtWw] (wb_results_|wb_test_main|srunner_)' &&
    bad="$bad the $impl's runner links a results writer or the test harness;"
done
# the judge by itself, plain and sandboxed: the correctness checkpoints SKIP over the reference's runner and
# FAIL over the starter's; the speed checkpoints SKIP over both
for how in plain sandbox; do
  for pair in solution=skip,skip,skip,skip starter=fail,fail,skip,skip; do
    impl=${pair%%=*} want=${pair#*=}
    got=$(judge_alone 58 phase6/week58 "$impl" $how "$log")
    [ "$got" = "$want" ] || bad="$bad judge-w58 over the $impl's runner ($how): $got, expected $want;"
  done
done
for ex in decode prefill; do
  grep -q "w58.$ex fail: w4a16_$ex(M=-1, N=8, K=128): M < 0 must return cudaErrorInvalidValue, got cudaSuccess" \
    "$log/alone-w58-starter-plain.tsv.out" || bad="$bad the starter's w58.$ex failure does not name M < 0;"
done
bad="$bad$(judge_lists_uncalibrated 58 phase6/week58 "w58.decode w58.prefill w58.decode-speed w58.prefill-speed" \
  "w58.decode-speed w58.prefill-speed")"
if [ -z "$bad" ]; then t_pass "$label" "judged and linked cells alike; four checkpoints listed (none left to the linked test); w58.decode and w58.prefill SKIP over the reference's runner and FAIL over the starter's (M < 0 accepted), the speed checkpoints SKIP over both, plain and sandboxed; the runners holding the week's functions, the judge none; calibration not run"
else t_fail "$label" "$bad (see $log)"; fi
t_end
