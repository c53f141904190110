#!/usr/bin/env bash
# instructor/tests/judge_w40.sh — week 40 graded with its judge without a GPU
# (instructor/README.md, "The judge and the runner"; instructor/judge_w40.c).
# The week is judged by the grader (JUDGED_WEEKS): its class of two (the
# reference and the starter) graded without a GPU with --judge 1 and
# without gives the same cells (the grader's Python the sandbox can
# run: sandbox_python), and the judge by itself as below.
# It lists the week's one C checkpoint, w40.capi (the Python checkpoints are
# test_week40.py's, not the judge's); the runners hold softmax_checked and no
# results writer, the judge does not; the checkpoint runs on the GPU (the
# week has no CPU function), so over the reference's runner and over the
# starter's it SKIPs, never PASSes, plain and sandboxed. Needs a working
# bwrap. On a GPU: the commands in instructor/README.md's week 40 entry.
. "$(dirname "$0")/lib.sh"
t_begin instructor-judge-w40

label="week 40 judged outside the student's process, without a GPU"
sandbox_python "$label"
judged_week_begin 40 phase7/week40 "$label" phase7/week40/solution/*.cu
bad=
bad="$bad$(all_skip_both 12 "$log")"
bad="$bad$(grader_says_judged 40 phase7/week40)"
bad="$bad$(runners_hold phase7/week40 softmax_checked)"
nm "$BUILD/instructor/judge-w40" | grep -q " [TU] softmax_checked\$" && bad="$bad the judge links softmax_checked;"
for impl in solution starter; do
  nm "$BUILD/phase7/week40/$impl/judge-runner" | grep -Eq ' [TtWw] (wb_results_|wb_test_main|srunner_)' &&
    bad="$bad the $impl's runner links a results writer or the test harness;"
done
bad="$bad$(judge_alone_each 40 phase7/week40 skip "$log")"
got=$("$BUILD/instructor/judge-w40" --list | tr '\n' ' ')
[ "$got" = "w40.capi " ] || bad="$bad judge-w40 --list: $got;"
if [ -z "$bad" ]; then t_pass "$label" "judged and linked cells alike; w40.capi listed, SKIP over the reference's and the starter's runners, plain and sandboxed, the runners holding softmax_checked"
else t_fail "$label" "$bad (see $log)"; fi
t_end
