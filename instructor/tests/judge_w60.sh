#!/usr/bin/env bash
# instructor/tests/judge_w60.sh — week 60 graded with its judge without a GPU
# (instructor/README.md, "The judge and the runner"; instructor/judge_w60.c).
# The week is judged by the grader (JUDGED_WEEKS): its class of two (the
# reference and the starter) graded without a GPU with --judge 1 and
# without gives the same cells, and the judge by itself as below. It
# lists all three checkpoints (none left to the linked test); the runners
# hold the week's four functions, the yard runner beside the judge holds the
# given cuBLASLt FP8 yardstick and none of them, the judge neither; the
# judge by itself over the reference's and the starter's runners, as a plain
# child and in the sandbox: w60.convert (a CPU checkpoint, judged through a
# runner that opens no GPU) PASS over the reference's runner and FAIL over
# the starter's (its fp8_convert_from_e4m3 gives 0 for code 0x01), 2 tests
# either way; w60.gemm (its CPU part, the refusals before any CUDA call,
# passes for both) and w60.fp8-speed SKIP, never PASS; calibration without
# a GPU says w60.fp8-speed was not run. Needs a working bwrap. On a GPU: the
# commands in instructor/README.md's week 60 entry.
. "$(dirname "$0")/lib.sh"
t_begin instructor-judge-w60

label="week 60 judged outside the student's process, without a GPU"
judged_week_begin 60 phase6/week60 "$label" phase6/week60/solution/*.cu
fns="fp8_convert_from_e4m3 fp8_convert_from_e5m2 fp8_convert_to_e4m3 fp8_convert_to_e5m2 fp8_gemm fp8_gemm_grid"
bad=
bad="$bad$(cpu_first_cells 3 "$log" correct starter)"
bad="$bad$(grader_says_judged 60 phase6/week60)"
# shellcheck disable=SC2086
bad="$bad$(runners_hold phase6/week60 $fns)"
bad="$bad$(yard_runner_only 60 "yard_fp8_open yard_fp8_run" "$fns")"
for s in $fns yard_fp8_open; do
  nm "$BUILD/instructor/judge-w60" | grep -q " [TU] $s\$" && bad="$bad the judge links $s;"
done
for impl in solution starter; do
  nm "$BUILD/phase6/week60/$impl/judge-runner" | grep -Eq ' [TtWw] (wb_results_|wb_test_main|srunner_|yard_fp8_)' &&
    bad="$bad the $impl's runner links a results writer, the test harness or the cuBLASLt yardstick;"
done
# the judge by itself, plain and sandboxed: convert PASS over the reference's runner, FAIL over the starter's
for how in plain sandbox; do
  for pair in solution=pass,skip,skip starter=fail,skip,skip; do
    impl=${pair%%=*} want=${pair#*=}
    got=$(judge_alone 60 phase6/week60 "$impl" $how "$log")
    [ "$got" = "$want" ] || bad="$bad judge-w60 over the $impl's runner ($how): $got, expected $want;"
    n=$(awk -F'\t' '$2 == "w60.convert" { print $13 "/" $14 }' "$log/alone-w60-$impl-$how.tsv")
    [ "$n" = "$([ "$impl" = solution ] && echo 2/0 || echo 1/1)" ] ||
      bad="$bad the $impl's w60.convert ($how): tests/failed $n;"
  done
done
grep -q "w60.convert fail: E4M3 code 0x01 is 0.001953125; fp8_convert_from gave 0" \
  "$log/alone-w60-starter-plain.tsv.out" || bad="$bad the starter's w60.convert failure does not name code 0x01;"
bad="$bad$(judge_lists_uncalibrated 60 phase6/week60 "w60.convert w60.gemm w60.fp8-speed" "w60.fp8-speed")"
if [ -z "$bad" ]; then t_pass "$label" "judged and linked cells alike; three checkpoints listed (none left to the linked test); w60.convert PASS over the reference's runner and FAIL over the starter's, w60.gemm and w60.fp8-speed SKIP, plain and sandboxed; the runners holding the week's functions, the yard runner the given cuBLASLt yardstick alone; calibration not run"
else t_fail "$label" "$bad (see $log)"; fi
t_end
