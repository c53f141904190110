#!/usr/bin/env bash
# instructor/tests/judge_w32.sh — week 32 graded with its judge without a GPU
# (instructor/README.md, "The judge and the runner"; instructor/judge_w32.c).
# The class: the reference and the starter, graded with --judge 1 (the
# runner linked in the sandbox from each student's ln_host.o, ln_dx.o and
# ln_dgb.o) and without it: the same cells (w32.gradcheck the reference's
# full marks and the starter's 0, the other four SKIP). The judge lists
# all five checkpoints (none left to the linked test, as the grader
# says); the runners (the learners' in the sandbox too)
# hold the week's four functions and no results writer, the judge none of
# them; w32.gradcheck is a CPU function the judge checks without a GPU
# through a runner that opens none: over the reference's runner PASS, over
# the starter's FAIL (its ln_host_backward writes nothing: the poison, NaN,
# where dx[0] = 0 is due), 12 cases either way as the test's; the four GPU
# checkpoints SKIP, never PASS; the same plain and sandboxed; calibration
# without a GPU says both speed checkpoints were not run. Needs libarchive
# and a working bwrap. On a GPU: the commands in instructor/README.md's
# week 32 entry.
. "$(dirname "$0")/lib.sh"
t_begin instructor-judge-w32

label="week 32 judged outside the student's process, without a GPU"
judged_week_begin 32 phase6/week32 "$label" phase6/week32/solution/*.cu
fns="ln_host_backward ln_dx_backward ln_dgb_workspace_bytes ln_dgb_backward"
bad=
# the five checkpoints in week.txt's order: gradcheck (CPU) full marks for the reference, 0 for the starter,
# dx dgb dx-bw dgb-bw SKIP; the same both ways
bad="$bad$(cpu_first_cells 5 "$log" correct starter)"
grep -q "phase6/week32: judged outside the student's process (--judge 1)$" "$log/judged.log" ||
  bad="$bad the grader did not say it judges week 32, leaving nothing to the test program;"
# shellcheck disable=SC2086
bad="$bad$(learner_runner_lacks "$log" phase6/week32 $fns)"
# shellcheck disable=SC2086
bad="$bad$(runners_hold phase6/week32 $fns)"
for s in $fns; do
  nm "$BUILD/instructor/judge-w32" | grep -q " [TU] $s\$" && bad="$bad the judge links $s;"
done
for impl in solution starter; do
  nm "$BUILD/phase6/week32/$impl/judge-runner" | grep -Eq ' [TtWw] (wb_results_|wb_test_main|srunner_)' &&
    bad="$bad the $impl's runner links a results writer or the test harness;"
done
# the judge by itself, plain and sandboxed: gradcheck PASS over the reference's runner, FAIL over the starter's
for how in plain sandbox; do
  for pair in solution=pass,skip,skip,skip,skip starter=fail,skip,skip,skip,skip; do
    impl=${pair%%=*} want=${pair#*=}
    got=$(judge_alone 32 phase6/week32 "$impl" $how "$log")
    [ "$got" = "$want" ] || bad="$bad judge-w32 over the $impl's runner ($how): $got, expected $want;"
    # the gradcheck's cases: the test's 7 against differences and 5 against the reference
    n=$(awk -F'\t' '$2 == "w32.gradcheck" { print $13 "/" $14 }' "$log/alone-w32-$impl-$how.tsv")
    [ "$n" = "$([ "$impl" = solution ] && echo 12/0 || echo 12/11)" ] ||
      bad="$bad the $impl's w32.gradcheck ($how): tests/failed $n, expected the test's 12;"
  done
done
grep -q "w32.gradcheck fail: rows=1 cols=1, against central differences (h = 1e-05): 1 of 1 element wrong .*dx\[0\] expected 0 got -\?nan" \
  "$log/alone-w32-starter-plain.tsv.out" || bad="$bad the starter's w32.gradcheck failure does not name dx[0] of the first shape;"
bad="$bad$(judge_lists_uncalibrated 32 phase6/week32 "w32.gradcheck w32.dx w32.dgb w32.dx-bw w32.dgb-bw" "w32.dx-bw w32.dgb-bw")"
if [ -z "$bad" ]; then t_pass "$label" "all five checkpoints listed by the judge, judged and linked alike (w32.gradcheck the reference full marks, the starter 0, the rest SKIP); the judge alone w32.gradcheck PASS over the reference's runner and FAIL over the starter's (12 cases), the GPU ones SKIP, plain and sandboxed, the runners holding the week's four functions, calibration not run"
else t_fail "$label" "$bad (see $log)"; fi
t_end
