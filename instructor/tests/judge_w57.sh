#!/usr/bin/env bash
# instructor/tests/judge_w57.sh — week 57's judge by itself without a GPU
# (instructor/README.md, "The judge and the runner"; instructor/judge_w57.c).
# The judge is staged: written and tested here, not yet used by the grader
# (not in JUDGED_WEEKS), so this tests it alone, not against the grader. It
# lists three checkpoints (w57.split, a report, left to the linked test);
# the runners hold paged_attn, paged_attn_merge and paged_attn_ws_floats,
# the judge none of them; the judge by itself over the reference's and the
# starter's runners, as a plain child and in the sandbox: every checkpoint
# SKIP, never PASS (the week has no CPU checkpoint); calibration without a
# GPU says w57.decode-speed was not run. Needs a working bwrap. On a GPU:
# the commands in instructor/README.md's week 57 entry.
. "$(dirname "$0")/lib.sh"
t_begin instructor-judge-w57

label="week 57's judge alone, without a GPU"
staged_judge_begin 57 "$label"
fns="paged_attn paged_attn_merge paged_attn_ws_floats paged_attn_ws_ml_floats"
# shellcheck disable=SC2086
bad="$(runners_hold phase6/week57 $fns)"
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
if [ -z "$bad" ]; then t_pass "$label" "three checkpoints listed (w57.split, a report, left to the linked test); all SKIP over the reference's and the starter's runners, plain and sandboxed; the runners holding the week's functions, the judge none; calibration not run"
else t_fail "$label" "$bad (see $log)"; fi
t_end
