#!/usr/bin/env bash
# instructor/tests/judge_w34.sh — week 34 graded with its judge without a GPU
# (instructor/README.md, "The judge and the runner"; instructor/judge_w34.c).
# The week is judged by the grader (JUDGED_WEEKS): its class of two (the
# reference and the starter) graded without a GPU with --judge 1 and
# without gives the same cells, and the judge by itself as below.
# It lists five checkpoints (w34.report, a report with no target, is left to
# the linked test); the runners hold the week's six functions and week 33's
# two (linked as the week's test links them) and no results writer, the
# judge none of them; w34.traffic is host functions the judge checks
# without a GPU through a runner that opens none: over the reference's
# runner PASS, over the starter's FAIL (its attention_naive_bytes returns 0
# where 32 bytes are due), 6 shapes either way; the four GPU checkpoints
# SKIP, never PASS; the same plain and sandboxed; calibration without a GPU
# says w34.softmax-bw was not run. Needs a working bwrap. On a GPU: the
# commands in instructor/README.md's week 34 entry.
. "$(dirname "$0")/lib.sh"
t_begin instructor-judge-w34

label="week 34 judged outside the student's process, without a GPU"
judged_week_begin 34 phase6/week34 "$label" phase6/week34/solution/*.cu
fns="softmax_scores pv_output attention attention_naive_bytes attention_fused_bytes attention_flops"
bad=
bad="$bad$(cpu_first_cells 6 "$log" correct starter)"
bad="$bad$(grader_says_judged 34 phase6/week34 "w34.report")"
# shellcheck disable=SC2086
bad="$bad$(runners_hold phase6/week34 $fns qkt_scores mask_scores)"
for s in $fns qkt_scores mask_scores; do
  nm "$BUILD/instructor/judge-w34" | grep -q " [TU] $s\$" && bad="$bad the judge links $s;"
done
for impl in solution starter; do
  nm "$BUILD/phase6/week34/$impl/judge-runner" | grep -Eq ' [TtWw] (wb_results_|wb_test_main|srunner_)' &&
    bad="$bad the $impl's runner links a results writer or the test harness;"
done
for how in plain sandbox; do
  for pair in solution=pass,skip,skip,skip,skip starter=fail,skip,skip,skip,skip; do
    impl=${pair%%=*} want=${pair#*=}
    got=$(judge_alone 34 phase6/week34 "$impl" $how "$log")
    [ "$got" = "$want" ] || bad="$bad judge-w34 over the $impl's runner ($how): $got, expected $want;"
    n=$(awk -F'\t' '$2 == "w34.traffic" { print $13 "/" $14 }' "$log/alone-w34-$impl-$how.tsv")
    [ "$n" = "$([ "$impl" = solution ] && echo 6/0 || echo 1/1)" ] ||
      bad="$bad the $impl's w34.traffic ($how): tests/failed $n;"
  done
done
grep -q "w34.traffic fail: attention_naive_bytes(B=1, H=1, L=1, D=1, causal=0) = 0, expected 32" \
  "$log/alone-w34-starter-plain.tsv.out" || bad="$bad the starter's w34.traffic failure does not name the first shape;"
bad="$bad$(judge_lists_uncalibrated 34 phase6/week34 "w34.traffic w34.softmax w34.softmax-bw w34.pv w34.attention" \
  "w34.softmax-bw")"
if [ -z "$bad" ]; then t_pass "$label" "judged and linked cells alike; five checkpoints listed (w34.report left to the linked test), w34.traffic PASS over the reference's runner and FAIL over the starter's, the GPU ones SKIP, plain and sandboxed, the runners holding the week's six functions and week 33's two, calibration not run"
else t_fail "$label" "$bad (see $log)"; fi
t_end
