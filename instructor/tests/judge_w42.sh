#!/usr/bin/env bash
# instructor/tests/judge_w42.sh — week 42 graded with its judge without a GPU
# (instructor/README.md, "The judge and the runner"; instructor/judge_w42.c).
# The week is judged by the grader (JUDGED_WEEKS): its class of two (the
# reference and the starter) graded without a GPU with --judge 1 and
# without gives the same cells (the grader's Python the sandbox can
# run: sandbox_python), and the judge by itself as below.
# It lists the week's one C checkpoint (none left to the linked test; the
# Python checkpoints are not the judge's); the runners hold the three
# functions the C test calls (ln_bwd_workspace_bytes, ln_bwd_f32,
# ln_bwd_f64) and no results writer, the judge none of them; the checkpoint
# runs on the GPU (the week has no CPU checkpoint), so over the reference's runner and over the
# starter's it SKIPs, never PASSes, plain and sandboxed. Needs a working
# bwrap. On a GPU: the commands in instructor/README.md's week 42 entry.
. "$(dirname "$0")/lib.sh"
t_begin instructor-judge-w42

label="week 42 judged outside the student's process, without a GPU"
sandbox_python "$label"
judged_week_begin 42 phase7/week42 "$label" phase7/week42/solution/*.cu
fns="ln_bwd_workspace_bytes ln_bwd_f32 ln_bwd_f64"
bad=
bad="$bad$(all_skip_both 7 "$log")"
bad="$bad$(grader_says_judged 42 phase7/week42)"
# shellcheck disable=SC2086
bad="$bad$(runners_hold phase7/week42 $fns)"
for s in $fns; do
  nm "$BUILD/instructor/judge-w42" | grep -q " [TU] $s\$" && bad="$bad the judge links $s;"
done
for impl in solution starter; do
  nm "$BUILD/phase7/week42/$impl/judge-runner" | grep -Eq ' [TtWw] (wb_results_|wb_test_main|srunner_)' &&
    bad="$bad the $impl's runner links a results writer or the test harness;"
done
bad="$bad$(judge_alone_each 42 phase7/week42 skip "$log")"
got=$("$BUILD/instructor/judge-w42" --list | tr '\n' ' ')
[ "$got" = "w42.kernel " ] || bad="$bad judge-w42 --list: $got;"
if [ -z "$bad" ]; then t_pass "$label" "judged and linked cells alike; w42.kernel listed, SKIP over the reference's and the starter's runners, plain and sandboxed, the runners holding the three functions the C test calls"
else t_fail "$label" "$bad (see $log)"; fi
t_end
