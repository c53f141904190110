#!/usr/bin/env bash
# instructor/tests/judge_w53.sh — week 53 graded with its judge without a GPU
# (instructor/README.md, "The judge and the runner"; instructor/judge_w53.c).
# The week is judged by the grader (JUDGED_WEEKS): its class of two (the
# reference and the starter) graded without a GPU with --judge 1 and
# without gives the same cells, and the judge by itself as below.
# It lists all three checkpoints (none left to the linked test); the
# runners hold the week's two functions and no results writer, the judge
# neither; w53.box is a CPU function the judge checks without a GPU through
# a runner that opens none: over the reference's runner PASS (24040 calls:
# the test's table and random shapes and the judge's own), over the
# starter's FAIL (its tma_box_plan refuses every shape); w53.tma-copy's
# contract passes for both (the starter's plan refuses everything, which the
# contract's shapes want), so it and w53.tma-copy-bw are SKIP, never PASS;
# the same plain and sandboxed; no hidden seed in the output; calibration
# without a GPU says w53.tma-copy-bw was not run. Needs a working bwrap. On
# a GPU: the commands in instructor/README.md's week 53 entry.
. "$(dirname "$0")/lib.sh"
t_begin instructor-judge-w53

label="week 53 judged outside the student's process, without a GPU"
judged_week_begin 53 phase5/week53 "$label" phase5/week53/solution/*.cu
fns="tma_box_plan tma_copy_f32"
bad=
bad="$bad$(cpu_first_cells 3 "$log" correct starter)"
bad="$bad$(grader_says_judged 53 phase5/week53)"
# shellcheck disable=SC2086
bad="$bad$(runners_hold phase5/week53 $fns)"
for s in $fns; do
  nm "$BUILD/instructor/judge-w53" | grep -q " [TU] $s\$" && bad="$bad the judge links $s;"
done
for impl in solution starter; do
  nm "$BUILD/phase5/week53/$impl/judge-runner" | grep -Eq ' [TtWw] (wb_results_|wb_test_main|srunner_)' &&
    bad="$bad the $impl's runner links a results writer or the test harness;"
done
# the judge by itself, plain and sandboxed: w53.box PASS over the reference's runner, FAIL over the starter's
for how in plain sandbox; do
  for pair in solution=pass,skip,skip starter=fail,skip,skip; do
    impl=${pair%%=*} want=${pair#*=}
    got=$(judge_alone 53 phase5/week53 "$impl" $how "$log")
    [ "$got" = "$want" ] || bad="$bad judge-w53 over the $impl's runner ($how): $got, expected $want;"
    n=$(awk -F'\t' '$2 == "w53.box" { print $13 "/" $14 }' "$log/alone-w53-$impl-$how.tsv")
    [ "$n" = "$([ "$impl" = solution ] && echo 24040/0 || echo 5/5)" ] ||
      bad="$bad the $impl's w53.box ($how): tests/failed $n;"
    grep -q "$SEED" "$log/alone-w53-$impl-$how.tsv.out" && bad="$bad the hidden seed is in the $impl's output ($how);"
  done
done
grep -q "w53.box fail: case 0: base 0x7f0000000000, 1 x 1, ld 4, 4-byte elements, box 128 x 32, swizzle 128: TMA_ERR_ARG, expected TMA_OK" \
  "$log/alone-w53-starter-plain.tsv.out" || bad="$bad the starter's w53.box failure does not name the first case;"
bad="$bad$(judge_lists_uncalibrated 53 phase5/week53 "w53.box w53.tma-copy w53.tma-copy-bw" "w53.tma-copy-bw")"
if [ -z "$bad" ]; then t_pass "$label" "judged and linked cells alike; all three checkpoints listed, w53.box PASS over the reference's runner (24040 calls) and FAIL over the starter's, the GPU ones SKIP, plain and sandboxed, the runners holding the week's two functions, calibration not run"
else t_fail "$label" "$bad (see $log)"; fi
t_end
