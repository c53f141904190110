#!/usr/bin/env bash
# instructor/tests/judge_w29.sh — week 29's judge by itself without a GPU
# (instructor/README.md, "The judge and the runner"; instructor/judge_w29.c).
# The judge is staged: written and tested here, not yet used by the grader
# (not in JUDGED_WEEKS), so this tests it alone, not against the grader. It
# lists all four checkpoints (none left to the linked test); the runners
# hold the week's three functions and the judge none of them. Without a GPU
# the judge gives the runner host buffers: w29.limit (a CPU function) is
# judged in full, and the three GPU checkpoints' cases run too, where only a
# FAIL stands (a call that returns an error, as every kernel launch does
# here, leaves the checkpoint SKIP). So over the reference's runner, as a
# plain child and in the sandbox: w29.limit PASS, the other three SKIP,
# never PASS; over the starter's (its functions return cudaSuccess and
# write nothing, its naive_limit 0.0): all four FAIL, each for the reason
# a GPU run gives (the poison left in y where 1 is due; row 0 of the
# overflow case never written); calibration has no speed checkpoint to
# run. Needs a working bwrap. On a GPU: the commands in
# instructor/README.md's week 29 entry.
. "$(dirname "$0")/lib.sh"
t_begin instructor-judge-w29

label="week 29's judge alone, without a GPU"
staged_judge_begin 29 "$label"
fns="naive_softmax naive_limit stable_softmax"
bad=
# shellcheck disable=SC2086
bad="$bad$(runners_hold phase6/week29 $fns)"
for s in $fns; do
  nm "$BUILD/instructor/judge-w29" | grep -q " [TU] $s\$" && bad="$bad the judge links the student's $s;"
done
# the judge by itself, plain and sandboxed: the reference's runner PASS then SKIP, the starter's FAIL everywhere
for how in plain sandbox; do
  for pair in solution=pass,skip,skip,skip starter=fail,fail,fail,fail; do
    impl=${pair%%=*} want=${pair#*=}
    got=$(judge_alone 29 phase6/week29 "$impl" $how "$log")
    [ "$got" = "$want" ] || bad="$bad judge-w29 over the $impl's runner ($how): $got, expected $want;"
  done
done
out=$log/alone-w29-starter-plain.tsv.out
for want in "w29.limit fail: naive_limit(1) = 0.000000, expected ln(FLT_MAX / 1) = 88.722839" \
  "w29.naive fail: naive, rows=1 cols=1, x+0 y+0, logits in \[-10, 10\]: y\[0\] expected 1 got -\?nan (judged without a GPU" \
  "w29.overflow fail: naive, 8 rows x 1 cols: row 0 (small): 1 of 1 elements never written (still the poison)" \
  "w29.stable fail: stable, rows=1 cols=1, x+0 y+0: y\[0\] expected 1 got -\?nan (judged without a GPU"; do
  grep -q "$want" "$out" || bad="$bad the starter's record does not say '$want';"
done
grep -q "$SEED" "$out" && bad="$bad the judge's messages name the seed;"
bad="$bad$(judge_lists_uncalibrated 29 phase6/week29 "w29.limit w29.naive w29.overflow w29.stable" "")"
if [ -z "$bad" ]; then t_pass "$label" "all four checkpoints listed; without a GPU the reference's runner PASS w29.limit and SKIP the rest, the starter's FAIL all four (its GPU checkpoints' calls claim cudaSuccess on host buffers and leave the poison), plain and sandboxed; the runners hold the week's three functions, the judge none"
else t_fail "$label" "$bad (see $log)"; fi
t_end
