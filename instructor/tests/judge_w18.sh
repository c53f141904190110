#!/usr/bin/env bash
# instructor/tests/judge_w18.sh — week 18 graded with its judge without a GPU
# (instructor/README.md, "The judge and the runner"; instructor/judge_w18.c).
# The week is judged by the grader (JUDGED_WEEKS): its class of two (the
# reference and the starter) graded without a GPU with --judge 1 and
# without gives the same cells (w18.load and w18.model full marks for the
# reference and 0 for the starter, w18.plan SKIP for the reference and 0 for
# the starter, every other cell SKIP), and the grader says it judges the
# week and leaves w18.throughput to the test program; the judge by itself
# as below. It lists thirteen of the week's fourteen checkpoints
# (w18.throughput is left to the linked test); the runners hold the week's
# functions, the yard runner beside the judge holds the given cuBLASLt
# yardstick and none of them, the judge neither; the judge by itself over
# the reference's and the starter's runners, as a plain child and in the
# sandbox: w18.load and w18.model (CPU checkpoints, judged through a runner
# that opens no GPU, the loaders' files in the runner's own $TMPDIR) PASS
# over the reference's runner and FAIL over the starter's (its loaders
# refuse every file), w18.plan (its CPU part, plan_mlp_bytes's formula)
# SKIP over the reference's (its PASS needs the GPU part) and FAIL over the
# starter's (0 bytes for 64 MiB), every other checkpoint SKIP, never PASS;
# calibration without a GPU says w18.layer-speed and w18.bf16-speed were
# not run. Needs libarchive and a working bwrap. On a GPU: the commands in
# instructor/README.md's week 18 entry.
. "$(dirname "$0")/lib.sh"
t_begin instructor-judge-w18

label="week 18 judged outside the student's process, without a GPU"
judged_week_begin 18 phase4/week18 "$label" phase4/week18/solution/*.cu
fns="model_io_mlp_load model_io_mlp_free model_io_digits_load model_io_digits_free fp32_linear fp32_softmax_argmax
  fp16_from_f32 fp16_linear int8_quantize_rows int8_linear plan_mlp_bytes plan_mlp_forward bf16_from_f32 bf16_linear"
bad=
# the fourteen cells in week.txt's order: w18.load and w18.model (CPU) full marks for the reference and 0
# for the starter, w18.plan's CPU part FAILs the starter, the rest (w18.throughput the test program's) SKIP;
# the same both ways
sk=SKIP,SKIP,SKIP,SKIP,SKIP,SKIP
bad="$bad$(cells_both 14 "$log" correct=10.00,10.00,$sk,SKIP,SKIP,SKIP,SKIP,SKIP,SKIP \
  starter=0.00,0.00,$sk,0.00,SKIP,SKIP,SKIP,SKIP,SKIP)"
sk=skip,skip,skip,skip,skip,skip
bad="$bad$(grader_says_judged 18 phase4/week18 w18.throughput)"
# shellcheck disable=SC2086
bad="$bad$(learner_runner_lacks "$log" phase4/week18 $fns)"
# shellcheck disable=SC2086
bad="$bad$(runners_hold phase4/week18 $fns)"
bad="$bad$(yard_runner_only 18 "yard_lt_layer_open_as yard_lt_layer_run" "$fns")"
for s in $fns yard_lt_layer_open_as; do
  nm "$BUILD/instructor/judge-w18" | grep -q " [TU] $s\$" && bad="$bad the judge links $s;"
done
for impl in solution starter; do
  nm "$BUILD/phase4/week18/$impl/judge-runner" | grep -Eq ' [TtWw] (wb_results_|wb_test_main|srunner_|yard_lt_)' &&
    bad="$bad the $impl's runner links a results writer, the test harness or the cuBLASLt yardstick;"
done
# the judge by itself, plain and sandboxed
for how in plain sandbox; do
  for pair in "solution=pass,pass,$sk,skip,skip,skip,skip,skip" "starter=fail,fail,$sk,fail,skip,skip,skip,skip"; do
    impl=${pair%%=*} want=${pair#*=}
    got=$(judge_alone 18 phase4/week18 "$impl" $how "$log")
    [ "$got" = "$want" ] || bad="$bad judge-w18 over the $impl's runner ($how): $got, expected $want;"
    n=$(awk -F'\t' '$2 == "w18.load" { print $13 "/" $14 } $2 == "w18.model" { print $13 "/" $14 }' \
      "$log/alone-w18-$impl-$how.tsv" | tr '\n' ' ')
    [ "$n" = "$([ "$impl" = solution ] && echo "93/0 1/0 " || echo "5/5 1/1 ")" ] ||
      bad="$bad the $impl's w18.load and w18.model ($how): tests/failed $n;"
  done
done
out=$log/alone-w18-starter-plain.tsv.out
grep -q "w18.load fail: model_io_mlp_load of the shipped mlp_digits.bin: returned -1 (refused it)" "$out" ||
  bad="$bad the starter's w18.load failure does not name the shipped model;"
grep -q "w18.plan fail: plan_mlp_bytes for the shipped model at batch 65536 (the plan states 64 MiB) = 0" "$out" ||
  bad="$bad the starter's w18.plan failure does not name the shipped model's 64 MiB;"
grep -q "CPU FP32: 1906 of 2000 held-out digits right" "$log/alone-w18-solution-plain.tsv.out" ||
  bad="$bad the reference's w18.model does not say 1906 of 2000;"
bad="$bad$(judge_lists_uncalibrated 18 phase4/week18 \
  "w18.load w18.model w18.fp32 w18.fp32-model w18.fp16 w18.fp16-model w18.int8 w18.int8-model w18.plan w18.layer-speed w18.bf16 w18.bf16-model w18.bf16-speed" \
  "w18.layer-speed w18.bf16-speed")"
if [ -z "$bad" ]; then t_pass "$label" "judged and linked cells alike, w18.throughput left to the linked test; thirteen checkpoints listed; w18.load and w18.model PASS over the reference's runner and FAIL over the starter's, w18.plan SKIP over the reference's and FAIL over the starter's, the GPU ones SKIP, plain and sandboxed; the runners holding the week's functions, the yard runner the given cuBLASLt yardstick alone, the judge none; calibration not run"
else t_fail "$label" "$bad (see $log)"; fi
t_end
