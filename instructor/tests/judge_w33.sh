#!/usr/bin/env bash
# instructor/tests/judge_w33.sh — week 33's judge by itself without a GPU
# (instructor/README.md, "The judge and the runner"; instructor/judge_w33.c).
# The judge is staged: written and tested here, not yet used by the grader
# (not in JUDGED_WEEKS), so this tests it alone, not against the grader.
# It lists all three checkpoints (none left to the linked test); the runners
# hold the week's two functions and no results writer, the judge neither of
# them; every checkpoint runs on the GPU (the week has no CPU function), so
# over the reference's runner and over the starter's all three SKIP, never
# PASS, plain and sandboxed. Needs a working bwrap. On a GPU: the commands
# in instructor/README.md's week 33 entry.
. "$(dirname "$0")/lib.sh"
t_begin instructor-judge-w33

label="week 33's judge alone, without a GPU"
staged_judge_begin 33 "$label"
fns="qkt_scores mask_scores"
bad=
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
if [ -z "$bad" ]; then t_pass "$label" "all three checkpoints listed, each SKIP over the reference's and the starter's runners, plain and sandboxed, the runners holding the week's two functions"
else t_fail "$label" "$bad (see $log)"; fi
t_end
