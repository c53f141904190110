#!/usr/bin/env bash
# instructor/tests/judge_w37.sh — week 37 graded with its judge without a GPU
# (instructor/README.md, "The judge and the runner"; instructor/judge_w37.c).
# The week is judged by the grader (JUDGED_WEEKS): its class of two (the
# reference and the starter) graded without a GPU with --judge 1 and
# without gives the same cells, and the judge by itself as below.
# It lists all four checkpoints (none left to the linked test); the runners
# hold the week's three functions, the yard runner beside the judge holds
# the given cuBLAS attention and none of them, the judge none of them;
# w37.io is CPU functions the judge checks without a GPU through a runner
# that opens none: over the reference's runner PASS (every value of the
# test's grid and its seven bad arguments, 1897 calls), over the starter's
# FAIL (its naive count is 0 at S = 1); the three GPU checkpoints SKIP,
# never PASS; the same plain and sandboxed; calibration without a GPU says
# w37.flash-speed was not run. Needs a working bwrap. On a GPU: the
# commands in instructor/README.md's week 37 entry.
. "$(dirname "$0")/lib.sh"
t_begin instructor-judge-w37

label="week 37 judged outside the student's process, without a GPU"
judged_week_begin 37 phase6/week37 "$label" phase6/week37/solution/*.cu
fns="attn_io_naive_bytes attn_io_flash_bytes flash_attn"
bad=
bad="$bad$(cpu_first_cells 4 "$log" correct starter)"
bad="$bad$(grader_says_judged 37 phase6/week37)"
# shellcheck disable=SC2086
bad="$bad$(runners_hold phase6/week37 $fns)"
bad="$bad$(yard_runner_only 37 "yard_attn_cublas yard_attn_cublas_workspace_bytes" "$fns")"
for s in $fns yard_attn_cublas; do
  nm "$BUILD/instructor/judge-w37" | grep -q " [TU] $s\$" && bad="$bad the judge links $s;"
done
for impl in solution starter; do
  nm "$BUILD/phase6/week37/$impl/judge-runner" | grep -Eq ' [TtWw] (wb_results_|wb_test_main|srunner_)' &&
    bad="$bad the $impl's runner links a results writer or the test harness;"
done
# the judge by itself, plain and sandboxed: w37.io PASS over the reference's runner, FAIL over the starter's
for how in plain sandbox; do
  for pair in solution=pass,skip,skip,skip starter=fail,skip,skip,skip; do
    impl=${pair%%=*} want=${pair#*=}
    got=$(judge_alone 37 phase6/week37 "$impl" $how "$log")
    [ "$got" = "$want" ] || bad="$bad judge-w37 over the $impl's runner ($how): $got, expected $want;"
    n=$(awk -F'\t' '$2 == "w37.io" { print $13 "/" $14 }' "$log/alone-w37-$impl-$how.tsv")
    [ "$n" = "$([ "$impl" = solution ] && echo 1897/0 || echo 136/1)" ] ||
      bad="$bad the $impl's w37.io ($how): tests/failed $n;"
  done
done
grep -q "w37.io fail: attn_io_naive_bytes(bh=1, S=1, D=64) = 0, expected 1040" "$log/alone-w37-starter-plain.tsv.out" ||
  bad="$bad the starter's w37.io failure does not name the naive count at S = 1;"
bad="$bad$(judge_lists_uncalibrated 37 phase6/week37 "w37.io w37.flash w37.long w37.flash-speed" "w37.flash-speed")"
if [ -z "$bad" ]; then t_pass "$label" "judged and linked cells alike; all four checkpoints listed, w37.io PASS over the reference's runner (1897 calls) and FAIL over the starter's, the GPU ones SKIP, plain and sandboxed, the runners holding the week's three functions, the yard runner the given cuBLAS attention alone, calibration not run"
else t_fail "$label" "$bad (see $log)"; fi
t_end
