#!/usr/bin/env bash
# instructor/tests/judge_w35.sh — week 35 graded with its judge without a GPU
# (instructor/README.md, "The judge and the runner"; instructor/judge_w35.c).
# The week is judged by the grader (JUDGED_WEEKS): its class of two (the
# reference and the starter) graded without a GPU with --judge 1 and
# without gives the same cells, and the judge by itself as below.
# It lists all six checkpoints (none left to the linked test); the runners
# hold the week's four functions and no results writer, the judge none of
# them; w35.philox is CPU functions the judge checks without a GPU through a
# runner that opens none: over the reference's runner PASS (412 checks:
# the test's known answers, words and keeps and the judge's random ones
# against its own model), over the starter's FAIL (its philox4x32_10 writes
# nothing: the runner's 0xdeadbeef comes back); the five GPU checkpoints
# SKIP, never PASS; the same plain and sandboxed; no hidden seed in the
# output; calibration without a GPU says w35.dropout-bw was not run. Needs
# a working bwrap. On a GPU: the commands in instructor/README.md's week 35
# entry.
. "$(dirname "$0")/lib.sh"
t_begin instructor-judge-w35

label="week 35 judged outside the student's process, without a GPU"
judged_week_begin 35 phase6/week35 "$label" phase6/week35/solution/*.cu
fns="philox4x32_10 philox_uniform philox_dropout_keep_host dropout_bias_residual"
bad=
bad="$bad$(cpu_first_cells 6 "$log" correct starter)"
bad="$bad$(grader_says_judged 35 phase6/week35)"
# shellcheck disable=SC2086
bad="$bad$(runners_hold phase6/week35 $fns)"
for s in $fns; do
  nm "$BUILD/instructor/judge-w35" | grep -q " [TU] $s\$" && bad="$bad the judge links $s;"
done
for impl in solution starter; do
  nm "$BUILD/phase6/week35/$impl/judge-runner" | grep -Eq ' [TtWw] (wb_results_|wb_test_main|srunner_)' &&
    bad="$bad the $impl's runner links a results writer or the test harness;"
done
# the judge by itself, plain and sandboxed: w35.philox PASS over the reference's runner, FAIL over the starter's
for how in plain sandbox; do
  for pair in solution=pass,skip,skip,skip,skip,skip starter=fail,skip,skip,skip,skip,skip; do
    impl=${pair%%=*} want=${pair#*=}
    got=$(judge_alone 35 phase6/week35 "$impl" $how "$log")
    [ "$got" = "$want" ] || bad="$bad judge-w35 over the $impl's runner ($how): $got, expected $want;"
    n=$(awk -F'\t' '$2 == "w35.philox" { print $13 "/" $14 }' "$log/alone-w35-$impl-$how.tsv")
    [ "$n" = "$([ "$impl" = solution ] && echo 412/0 || echo 184/184)" ] ||
      bad="$bad the $impl's w35.philox ($how): tests/failed $n;"
    grep -q "$SEED" "$log/alone-w35-$impl-$how.tsv.out" && bad="$bad the hidden seed is in the $impl's output ($how);"
  done
done
grep -q "w35.philox fail: philox4x32_10(ctr 00000000 00000000 00000000 00000000, key 00000000 00000000) gave deadbeef deadbeef deadbeef deadbeef, expected 6627e8d5" \
  "$log/alone-w35-starter-plain.tsv.out" || bad="$bad the starter's w35.philox failure does not name the first known answer;"
bad="$bad$(judge_lists_uncalibrated 35 phase6/week35 "w35.philox w35.dropout w35.mask-model w35.mask-stats w35.deterministic w35.dropout-bw" "w35.dropout-bw")"
if [ -z "$bad" ]; then t_pass "$label" "judged and linked cells alike; all six checkpoints listed, w35.philox PASS over the reference's runner (412 checks) and FAIL over the starter's, the GPU ones SKIP, plain and sandboxed, the runners holding the week's four functions, calibration not run"
else t_fail "$label" "$bad (see $log)"; fi
t_end
