#!/usr/bin/env bash
# instructor/tests/judge_w57.sh — week 57 graded with its judge without a GPU
# (instructor/README.md, "The judge and the runner"; instructor/judge_w57.c).
# The week is judged by the grader (JUDGED_WEEKS): its class of two (the
# reference and the starter) graded without a GPU with --judge 1 and
# without gives the same cells, and the judge by itself as below. It
# lists three checkpoints (w57.split, a report, left to the linked test);
# the runners hold paged_attn, paged_attn_merge and paged_attn_ws_floats,
# the judge none of them; the judge by itself over the reference's and the
# starter's runners, as a plain child and in the sandbox: every checkpoint
# SKIP, never PASS (the week has no CPU checkpoint); calibration without a
# GPU says w57.decode-speed was not run. Needs a working bwrap. On a GPU:
# the commands in instructor/README.md's week 57 entry.
. "$(dirname "$0")/lib.sh"
t_begin instructor-judge-w57

label="week 57 judged outside the student's process, without a GPU"
judged_week_begin 57 phase6/week57 "$label" phase6/week57/solution/*.cu
fns="paged_attn paged_attn_merge paged_attn_ws_floats paged_attn_ws_ml_floats"
bad=
bad="$bad$(all_skip_both 4 "$log")"
bad="$bad$(grader_says_judged 57 phase6/week57 "w57.split")"
# shellcheck disable=SC2086
bad="$bad$(runners_hold phase6/week57 $fns)"
for s in $fns; do
  nm "$BUILD/instructor/judge-w57" | grep -q " [TU] $s\$" && bad="$bad the judge links $s;"
done
for impl in solution starter; do
  nm "$BUILD/phase6/week57/$impl/judge-runner" | grep -Eq ' [TtWw] (wb_results_|wb_test_main|srunner_)' &&
    bad="$bad the $impl's runner links a results writer or the test harness;"
done
# the judge by itself, plain and sandboxed: the three GPU checkpoints SKIP over either runner
bad="$bad$(judge_alone_each 57 phase6/week57 skip,skip,skip "$log")"
grep -q "w57.decode-speed" "$log/alone-w57-solution-plain.tsv" || bad="$bad the record names no w57.decode-speed;"
bad="$bad$(judge_lists_uncalibrated 57 phase6/week57 "w57.merge w57.decode w57.decode-speed" "w57.decode-speed")"
if [ -z "$bad" ]; then t_pass "$label" "judged and linked cells alike; three checkpoints listed (w57.split, a report, left to the linked test); all SKIP over the reference's and the starter's runners, plain and sandboxed; the runners holding the week's functions, the judge none; calibration not run"
else t_fail "$label" "$bad (see $log)"; fi
t_end
