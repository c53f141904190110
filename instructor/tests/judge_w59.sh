#!/usr/bin/env bash
# instructor/tests/judge_w59.sh — week 59 graded with its judge without a GPU
# (instructor/README.md, "The judge and the runner"; instructor/judge_w59.c).
# The week is judged by the grader (JUDGED_WEEKS): its class of two (the
# reference and the starter) graded without a GPU with --judge 1 and
# without gives the same cells, and the judge by itself as below. It
# lists one checkpoint, w59.bwd (w59.errors, a report, and w59.bwd-speed are
# left to the linked test); the runners hold flash_bwd and
# flash_bwd_workspace_bytes, and neither the given forward nor cuDNN's
# yardstick; the judge holds the given forward (it makes O and lse) and none
# of the student's functions; the judge by itself over the reference's and
# the starter's runners, as a plain child and in the sandbox: w59.bwd SKIPs,
# never PASSes (the week has no CPU checkpoint). Needs a working bwrap. On a
# GPU: the commands in instructor/README.md's week 59 entry.
. "$(dirname "$0")/lib.sh"
t_begin instructor-judge-w59

label="week 59 judged outside the student's process, without a GPU"
judged_week_begin 59 phase6/week59 "$label" phase6/week59/solution/*.cu
bad=
bad="$bad$(all_skip_both 3 "$log")"
bad="$bad$(grader_says_judged 59 phase6/week59 "w59.errors, w59.bwd-speed")"
bad="$bad$(runners_hold phase6/week59 flash_bwd flash_bwd_workspace_bytes)"
for s in flash_bwd flash_bwd_workspace_bytes; do
  nm "$BUILD/instructor/judge-w59" | grep -q " [TU] $s\$" && bad="$bad the judge links $s;"
done
nm "$BUILD/instructor/judge-w59" | grep -q " T attn_fwd_lse\$" || bad="$bad the judge lacks the given forward attn_fwd_lse;"
for impl in solution starter; do
  nm "$BUILD/phase6/week59/$impl/judge-runner" |
    grep -Eq ' [TtWw] (wb_results_|wb_test_main|srunner_|yard_sdpa_|attn_fwd_lse$)' &&
    bad="$bad the $impl's runner links a results writer, the test harness, the given forward or the cuDNN yardstick;"
done
# the judge by itself, plain and sandboxed: the GPU checkpoint SKIPs over either runner
bad="$bad$(judge_alone_each 59 phase6/week59 skip "$log")"
grep -q "w59.bwd" "$log/alone-w59-solution-plain.tsv" || bad="$bad the record names no w59.bwd;"
bad="$bad$(judge_lists_uncalibrated 59 phase6/week59 "w59.bwd" "")"
if [ -z "$bad" ]; then t_pass "$label" "judged and linked cells alike; one checkpoint listed (w59.errors, a report, and w59.bwd-speed left to the linked test); it SKIPs over the reference's and the starter's runners, plain and sandboxed; the runners holding flash_bwd and flash_bwd_workspace_bytes, the judge the given forward and neither of them"
else t_fail "$label" "$bad (see $log)"; fi
t_end
