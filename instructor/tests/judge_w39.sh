#!/usr/bin/env bash
# instructor/tests/judge_w39.sh — week 39's judge by itself without a GPU
# (instructor/README.md, "The judge and the runner"; instructor/judge_w39.c).
# The judge is staged: written and tested here, not yet used by the grader
# (not in JUDGED_WEEKS), so this tests it alone, not against the grader.
# It lists the week's one C checkpoint, w39.capi (the Python checkpoints are
# test_week39.py's, not the judge's); the runners hold softmax_ext and no
# results writer, the judge does not; the checkpoint runs on the GPU (the
# week has no CPU function), so over the reference's runner and over the
# starter's it SKIPs, never PASSes, plain and sandboxed. Needs a working
# bwrap. On a GPU: the commands in instructor/README.md's week 39 entry.
. "$(dirname "$0")/lib.sh"
t_begin instructor-judge-w39

label="week 39's judge alone, without a GPU"
staged_judge_begin 39 "$label"
bad="$(runners_hold phase7/week39 softmax_ext)"
nm "$BUILD/instructor/judge-w39" | grep -q " [TU] softmax_ext\$" && bad="$bad the judge links softmax_ext;"
for impl in solution starter; do
  nm "$BUILD/phase7/week39/$impl/judge-runner" | grep -Eq ' [TtWw] (wb_results_|wb_test_main|srunner_)' &&
    bad="$bad the $impl's runner links a results writer or the test harness;"
done
bad="$bad$(judge_alone_each 39 phase7/week39 skip "$log")"
got=$("$BUILD/instructor/judge-w39" --list | tr '\n' ' ')
[ "$got" = "w39.capi " ] || bad="$bad judge-w39 --list: $got;"
if [ -z "$bad" ]; then t_pass "$label" "w39.capi listed, SKIP over the reference's and the starter's runners, plain and sandboxed, the runners holding softmax_ext"
else t_fail "$label" "$bad (see $log)"; fi
t_end
