#!/usr/bin/env bash
# instructor/tests/judge_w56.sh — week 56 graded with its judge without a GPU
# (instructor/README.md, "The judge and the runner"; instructor/judge_w56.c).
# The week is judged by the grader (JUDGED_WEEKS): its class of two (the
# reference and the starter) graded without a GPU with --judge 1 and
# without gives the same cells, and the judge by itself as below.
# It lists all four checkpoints (none left to the linked test); the
# runners hold the week's three functions and no results writer, the judge
# none; w56.plan is a CPU function the judge checks without a GPU through a
# runner that opens none: over the reference's runner PASS (20025 calls:
# the test's table, p NULL and its random plans), over the starter's FAIL
# (its cluster_hist_plan refuses every plan); the contracts of w56.dsmem
# and w56.multicast pass for both (the starter refuses what they want
# refused), so those and w56.multicast-bw are SKIP, never PASS; the same
# plain and sandboxed; no hidden seed in the output; calibration without a
# GPU says w56.multicast-bw was not run. Needs a working bwrap. On a GPU:
# the commands in instructor/README.md's week 56 entry.
. "$(dirname "$0")/lib.sh"
t_begin instructor-judge-w56

label="week 56 judged outside the student's process, without a GPU"
judged_week_begin 56 phase5/week56 "$label" phase5/week56/solution/*.cu
fns="cluster_hist_plan cluster_hist tma_multicast_f32"
# shellcheck disable=SC2086
bad=
bad="$bad$(cpu_first_cells 4 "$log" correct starter)"
bad="$bad$(grader_says_judged 56 phase5/week56)"
bad="$bad$(runners_hold phase5/week56 $fns)"
for s in $fns; do
  nm "$BUILD/instructor/judge-w56" | grep -q " [TU] $s\$" && bad="$bad the judge links $s;"
done
for impl in solution starter; do
  nm "$BUILD/phase5/week56/$impl/judge-runner" | grep -Eq ' [TtWw] (wb_results_|wb_test_main|srunner_)' &&
    bad="$bad the $impl's runner links a results writer or the test harness;"
done
# the judge by itself, plain and sandboxed: w56.plan PASS over the reference's runner, FAIL over the starter's
for how in plain sandbox; do
  for pair in solution=pass,skip,skip,skip starter=fail,skip,skip,skip; do
    impl=${pair%%=*} want=${pair#*=}
    got=$(judge_alone 56 phase5/week56 "$impl" $how "$log")
    [ "$got" = "$want" ] || bad="$bad judge-w56 over the $impl's runner ($how): $got, expected $want;"
    n=$(awk -F'\t' '$2 == "w56.plan" { print $13 "/" $14 }' "$log/alone-w56-$impl-$how.tsv")
    [ "$n" = "$([ "$impl" = solution ] && echo 20025/0 || echo 1/1)" ] ||
      bad="$bad the $impl's w56.plan ($how): tests/failed $n;"
    grep -q "$SEED" "$log/alone-w56-$impl-$how.tsv.out" && bad="$bad the hidden seed is in the $impl's output ($how);"
  done
done
grep -q "w56.plan fail: case 0: 1 bins, cluster 0, limit 232448 bytes: CHIST_ERR_ARG, expected CHIST_OK" \
  "$log/alone-w56-starter-plain.tsv.out" || bad="$bad the starter's w56.plan failure does not name the first case;"
bad="$bad$(judge_lists_uncalibrated 56 phase5/week56 "w56.plan w56.dsmem w56.multicast w56.multicast-bw" "w56.multicast-bw")"
if [ -z "$bad" ]; then t_pass "$label" "judged and linked cells alike; all four checkpoints listed, w56.plan PASS over the reference's runner (20025 calls) and FAIL over the starter's, the GPU ones SKIP, plain and sandboxed, the runners holding the week's three functions, calibration not run"
else t_fail "$label" "$bad (see $log)"; fi
t_end
