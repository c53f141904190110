#!/usr/bin/env bash
# instructor/tests/judge_w17.sh — week 17 graded with its judge without a GPU
# (instructor/README.md, "The judge and the runner"; instructor/judge_w17.c).
# The week is judged by the grader (JUDGED_WEEKS): its class of two (the
# reference and the starter) graded without a GPU with --judge 1 and
# without gives the same cells, and the judge by itself as below. It
# lists all ten checkpoints (none left to the linked test); the runners hold the week's PGM functions and kernels' entry points, the
# yard runner beside the judge the given cuDNN yardstick and none of them,
# the judge none of them; the judge by itself over the
# reference's and the starter's runners, as a plain child and in the
# sandbox: w17.pgm (CPU functions, judged through a runner that opens no
# GPU, its files in its own $TMPDIR) PASS over the reference's runner and
# FAIL over the starter's (its pgm_decode refuses every file), every GPU
# checkpoint SKIP, never PASS; calibration without a GPU says w17.conv-bw,
# w17.conv-speed and w17.pipeline-speed were not run. Needs a working bwrap. On a GPU: the commands
# in instructor/README.md's week 17 entry.
. "$(dirname "$0")/lib.sh"
t_begin instructor-judge-w17

label="week 17 judged outside the student's process, without a GPU"
judged_week_begin 17 phase4/week17 "$label" phase4/week17/solution/*.cu
fns="pgm_decode pgm_encode pgm_read pgm_write pgm_free conv2d_naive conv2d_set_weights conv2d_tiled sep_set_weights
  sep_rows sep_cols eq_histogram eq_lut eq_apply resize_bilinear sobel pipeline_workspace_bytes pipeline_apply"
# shellcheck disable=SC2086
bad=
bad="$bad$(cpu_first_cells 10 "$log" correct starter)"
bad="$bad$(grader_says_judged 17 phase4/week17)"
bad="$bad$(runners_hold phase4/week17 $fns)"
bad="$bad$(yard_runner_only 17 "yard_cudnn_conv_open yard_cudnn_conv_plan yard_cudnn_conv" "$fns")"
for s in $fns; do
  nm "$BUILD/instructor/judge-w17" | grep -q " [TU] $s\$" && bad="$bad the judge links $s;"
done
for impl in solution starter; do
  nm "$BUILD/phase4/week17/$impl/judge-runner" | grep -Eq ' [TtWw] (wb_results_|wb_test_main|srunner_|yard_cudnn_)' &&
    bad="$bad the $impl's runner links a results writer, the test harness or the cuDNN yardstick;"
done
# the judge by itself, plain and sandboxed
for how in plain sandbox; do
  for pair in solution=pass,skip,skip,skip,skip,skip,skip,skip,skip,skip starter=fail,skip,skip,skip,skip,skip,skip,skip,skip,skip; do
    impl=${pair%%=*} want=${pair#*=}
    got=$(judge_alone 17 phase4/week17 "$impl" $how "$log")
    [ "$got" = "$want" ] || bad="$bad judge-w17 over the $impl's runner ($how): $got, expected $want;"
    n=$(awk -F'\t' '$2 == "w17.pgm" { print $13 "/" $14 }' "$log/alone-w17-$impl-$how.tsv")
    [ "$n" = "$([ "$impl" = solution ] && echo 14/0 || echo 14/13)" ] ||
      bad="$bad the $impl's w17.pgm ($how): tests/failed $n;"
  done
done
grep -q "w17.pgm fail: pgm_decode refused a valid file (plain P5): returned -1" "$log/alone-w17-starter-plain.tsv.out" ||
  bad="$bad the starter's w17.pgm failure does not name the first valid file;"
bad="$bad$(judge_lists_uncalibrated 17 phase4/week17 \
  "w17.pgm w17.conv2d w17.conv-bw w17.conv-speed w17.separable w17.equalize w17.resize w17.sobel w17.pipeline w17.pipeline-speed" \
  "w17.conv-bw w17.conv-speed w17.pipeline-speed")"
if [ -z "$bad" ]; then t_pass "$label" "judged and linked cells alike; all ten checkpoints listed (none left to the linked test); w17.pgm PASS over the reference's runner and FAIL over the starter's, the nine GPU ones SKIP, plain and sandboxed; the runners holding the week's functions, the yard runner the given cuDNN yardstick alone, the judge none; calibration not run"
else t_fail "$label" "$bad (see $log)"; fi
t_end
