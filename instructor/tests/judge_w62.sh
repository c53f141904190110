#!/usr/bin/env bash
# instructor/tests/judge_w62.sh — week 62 graded with its judge without a GPU
# (instructor/README.md, "The judge and the runner"; instructor/judge_w62.c).
# The week is judged by the grader (JUDGED_WEEKS): its class of two (the
# reference and the starter) graded without a GPU with --judge 1 and
# without gives the same cells, and the judge by itself as below. It
# lists all three checkpoints (none left to the linked test); the runners
# hold fa3_fwd and fa3_fwd_desc, the yard runner it uses (week 38's, beside
# the judge) holds the given cuDNN SDPA yardstick and neither of them, the
# judge none of them; the judge by itself over the reference's and the
# starter's runners, as a plain child and in the sandbox: w62.desc (a CPU
# checkpoint, judged through a runner that opens no GPU) PASS over the
# reference's runner and FAIL over the starter's (its fa3_fwd_desc refuses
# everything), 2 tests either way; w62.fwd and w62.fwd-speed SKIP, never
# PASS; calibration without a GPU says w62.fwd-speed was not run. Needs a
# working bwrap. On a GPU: the commands in instructor/README.md's week 62
# entry.
. "$(dirname "$0")/lib.sh"
t_begin instructor-judge-w62

label="week 62 judged outside the student's process, without a GPU"
judged_week_begin 62 phase6/week62 "$label" phase6/week62/solution/*.cu
bad=
bad="$bad$(cpu_first_cells 3 "$log" correct starter)"
bad="$bad$(grader_says_judged 62 phase6/week62)"
bad="$bad$(runners_hold phase6/week62 fa3_fwd fa3_fwd_desc)"
bad="$bad$(yard_runner_only 38 "yard_sdpa_cudnn_fwd yard_sdpa_cudnn_prepare" "fa3_fwd fa3_fwd_desc")"
for s in fa3_fwd fa3_fwd_desc yard_sdpa_cudnn_fwd; do
  nm "$BUILD/instructor/judge-w62" | grep -q " [TU] $s\$" && bad="$bad the judge links $s;"
done
for impl in solution starter; do
  nm "$BUILD/phase6/week62/$impl/judge-runner" | grep -Eq ' [TtWw] (wb_results_|wb_test_main|srunner_|yard_sdpa_)' &&
    bad="$bad the $impl's runner links a results writer, the test harness or the cuDNN yardstick;"
done
# the judge by itself, plain and sandboxed: desc PASS over the reference's runner, FAIL over the starter's
for how in plain sandbox; do
  for pair in solution=pass,skip,skip starter=fail,skip,skip; do
    impl=${pair%%=*} want=${pair#*=}
    got=$(judge_alone 62 phase6/week62 "$impl" $how "$log")
    [ "$got" = "$want" ] || bad="$bad judge-w62 over the $impl's runner ($how): $got, expected $want;"
    n=$(awk -F'\t' '$2 == "w62.desc" { print $13 "/" $14 }' "$log/alone-w62-$impl-$how.tsv")
    [ "$n" = "$([ "$impl" = solution ] && echo 2/0 || echo 2/1)" ] ||
      bad="$bad the $impl's w62.desc ($how): tests/failed $n;"
  done
done
grep -q "w62.desc fail: QK (K-major), tile at 0, k16 step 0: returned -1" \
  "$log/alone-w62-starter-plain.tsv.out" || bad="$bad the starter's w62.desc failure does not name tile 0, step 0;"
bad="$bad$(judge_lists_uncalibrated 62 phase6/week62 "w62.desc w62.fwd w62.fwd-speed" "w62.fwd-speed")"
if [ -z "$bad" ]; then t_pass "$label" "judged and linked cells alike; three checkpoints listed (none left to the linked test); w62.desc PASS over the reference's runner and FAIL over the starter's, w62.fwd and w62.fwd-speed SKIP, plain and sandboxed; the runners holding fa3_fwd and fa3_fwd_desc, week 38's yard runner the given cuDNN SDPA yardstick alone; calibration not run"
else t_fail "$label" "$bad (see $log)"; fi
t_end
