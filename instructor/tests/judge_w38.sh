#!/usr/bin/env bash
# instructor/tests/judge_w38.sh — week 38 graded with its judge without a GPU
# (instructor/README.md, "The judge and the runner"; instructor/judge_w38.c).
# The week is judged by the grader (JUDGED_WEEKS): its class of two (the
# reference and the starter) graded without a GPU with --judge 1 and
# without gives the same cells, and the judge by itself as below. It
# lists the two checkpoints it forms (w38.more-shapes and w38.plot left to
# the linked test); the runners hold flash_attn_fwd, the yard runner beside
# the judge holds the given cuDNN SDPA yardstick and not flash_attn_fwd, the
# judge neither; the judge by itself over the reference's and the starter's
# runners, as a plain child and in the sandbox: both checkpoints SKIP, never
# PASS (the week has no CPU checkpoint); calibration without a GPU says
# w38.fwd-speed was not run. Needs a working bwrap. On a GPU: the commands
# in instructor/README.md's week 38 entry.
. "$(dirname "$0")/lib.sh"
t_begin instructor-judge-w38

label="week 38 judged outside the student's process, without a GPU"
judged_week_begin 38 phase6/week38 "$label" phase6/week38/solution/*.cu
bad=
bad="$bad$(all_skip_both 4 "$log")"
bad="$bad$(grader_says_judged 38 phase6/week38 "w38.more-shapes, w38.plot")"
bad="$bad$(runners_hold phase6/week38 flash_attn_fwd)"
bad="$bad$(yard_runner_only 38 "yard_sdpa_cudnn_fwd yard_sdpa_cudnn_prepare" flash_attn_fwd)"
for s in flash_attn_fwd yard_sdpa_cudnn_fwd; do
  nm "$BUILD/instructor/judge-w38" | grep -q " [TU] $s\$" && bad="$bad the judge links $s;"
done
for impl in solution starter; do
  nm "$BUILD/phase6/week38/$impl/judge-runner" | grep -Eq ' [TtWw] (wb_results_|wb_test_main|srunner_|yard_sdpa_)' &&
    bad="$bad the $impl's runner links a results writer, the test harness or the cuDNN yardstick;"
done
# the judge by itself, plain and sandboxed: both GPU checkpoints SKIP over either runner
bad="$bad$(judge_alone_each 38 phase6/week38 skip,skip "$log")"
grep -q "w38.fwd" "$log/alone-w38-solution-plain.tsv" || bad="$bad the record names no w38.fwd;"
bad="$bad$(judge_lists_uncalibrated 38 phase6/week38 "w38.fwd w38.fwd-speed" "w38.fwd-speed")"
if [ -z "$bad" ]; then t_pass "$label" "judged and linked cells alike; two checkpoints listed (w38.more-shapes and w38.plot left to the linked test); both SKIP over the reference's and the starter's runners, plain and sandboxed; the runners holding flash_attn_fwd, the yard runner the given cuDNN SDPA yardstick alone; calibration not run"
else t_fail "$label" "$bad (see $log)"; fi
t_end
