#!/usr/bin/env bash
# instructor/tests/judge_w33.sh — week 33 graded with its judge without a GPU
# (instructor/README.md, "The judge and the runner"; instructor/judge_w33.c).
# The week is judged by the grader (JUDGED_WEEKS): its class of two (the
# reference and the starter) graded without a GPU with --judge 1 and
# without gives the same cells, and the judge by itself as below.
# It lists all three checkpoints (none left to the linked test); the runners
# hold the week's two functions and no results writer, the judge neither of
# them; every checkpoint runs on the GPU (the week has no CPU function), so
# over the reference's runner and over the starter's all three SKIP, never
# PASS, plain and sandboxed. Needs a working bwrap. On a GPU: the commands
# in instructor/README.md's week 33 entry.
. "$(dirname "$0")/lib.sh"
t_begin instructor-judge-w33

label="week 33 judged outside the student's process, without a GPU"
judged_week_begin 33 phase6/week33 "$label" phase6/week33/solution/*.cu
fns="qkt_scores mask_scores"
bad=
bad="$bad$(all_skip_both 3 "$log")"
bad="$bad$(grader_says_judged 33 phase6/week33)"
# shellcheck disable=SC2086
bad="$bad$(runners_hold phase6/week33 $fns)"
for s in $fns; do
  nm "$BUILD/instructor/judge-w33" | grep -q " [TU] $s\$" && bad="$bad the judge links $s;"
done
for impl in solution starter; do
  nm "$BUILD/phase6/week33/$impl/judge-runner" | grep -Eq ' [TtWw] (wb_results_|wb_test_main|srunner_)' &&
    bad="$bad the $impl's runner links a results writer or the test harness;"
done
bad="$bad$(judge_alone_each 33 phase6/week33 skip,skip,skip "$log")"
got=$("$BUILD/instructor/judge-w33" --list | tr '\n' ' ')
[ "$got" = "w33.qkt w33.mask w33.scores " ] || bad="$bad judge-w33 --list: $got;"
if [ -z "$bad" ]; then t_pass "$label" "judged and linked cells alike; all three checkpoints listed, each SKIP over the reference's and the starter's runners, plain and sandboxed, the runners holding the week's two functions"
else t_fail "$label" "$bad (see $log)"; fi
t_end
