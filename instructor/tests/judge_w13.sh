#!/usr/bin/env bash
# instructor/tests/judge_w13.sh — week 13's judge without a GPU (instructor/
# README.md, "The judge and the runner"; instructor/judge_w13.c). It forms
# all thirteen checkpoints; twelve need a GPU, so without one each must be
# SKIP, never PASS: graded with --judge 1 (the runner linked in the sandbox
# from each student's objects and the week's given support objects,
# started there, the record written by the judge) the cells are those of
# the same class graded without it (w13.masks, the CPU checkpoint, judged
# through a runner that opens no GPU: full marks for the reference and 0
# for the starter both ways); the grader says it leaves nothing to the test
# program; the runners hold the given support objects, and the yard runner
# beside the judge holds CUB's scan and row sums and no student function;
# the judge by itself over the reference's and the starter's runners, as a
# plain child and in the sandbox, passes w13.masks for the reference and
# fails it for the starter and writes a SKIP record for every other one;
# calibration without a GPU says its five speed checkpoints were not run.
# Needs libarchive and a working bwrap. On a GPU: the commands in
# instructor/README.md's week 13 entry.
. "$(dirname "$0")/lib.sh"
t_begin instructor-judge-w13

# what judge-w13 forms (--list), in week.txt's order: every checkpoint
FORMED="w13.masks w13.warpreduce w13.warpscan w13.vote w13.blockreduce w13.shfl-speed w13.shfl-cub w13.reduce-bw w13.gemv w13.gemv-bw w13.cg w13.scan1pass w13.scan-speed"

label="week 13 judged outside the student's process, without a GPU"
grading_or_skip "$label"
log=$BUILD/instructor/judge-w13-test
c=$log/class
judge_class "$log" phase3/week13 phase3/week13/solution/*.cu
bad=
judge_grade_twice 13 phase3/week13 "$c" "$log" ||
  { t_fail "$label" "judge-w13 or the grader does not build (see $log/build.log)"; t_end; }
# the thirteen checkpoints in week.txt's order: masks (CPU) first, every other one SKIP
cells() { awk -F, -v who="$2" '$1 == who { s = $2; for (i = 3; i <= 14; i++) s = s "," $i; print s }' "$log/$1.csv"; }
rest=$(printf ',SKIP%.0s' $(seq 12))
for who in correct starter; do
  for how in judged linked; do
    got=$(cells $how $who)
    if [ $who = correct ]; then
      [[ $got == *"$rest" && $got != SKIP,* && $got != 0.00,* && -n ${got%%,*} ]] ||
        bad="$bad $who: $how $got, expected masks full marks and SKIP on the other twelve;"
    else
      [ "$got" = "0.00$rest" ] || bad="$bad $who: $how $got, expected masks 0.00 and SKIP on the other twelve;"
    fi
  done
  [ "$(cells judged $who)" = "$(cells linked $who)" ] || bad="$bad $who: judged $(cells judged $who) but linked $(cells linked $who);"
done
grep -q "phase3/week13: judged outside the student's process (--judge 1)$" "$log/judged.log" ||
  bad="$bad the grader did not say it judges week 13, leaving nothing to the test program;"
# the learner's runner, linked in the sandbox from the student's objects and the week's given ones
bad="$bad$(learner_runner_lacks "$log" phase3/week13 scan1pass br_rowsum gv_gemv yard_cub_scan_i32)"
# the instructor's runners: the week's given objects too; the yard runner: CUB's scan alone
for impl in solution starter; do
  nm "$BUILD/phase3/week13/$impl/judge-runner" 2>/dev/null | grep -q ' T yard_rowsum_shared$' ||
    bad="$bad the $impl's runner lacks the week's given support objects;"
done
Y=$BUILD/instructor/judge-w13-yard-runner
if [ ! -x "$Y" ]; then bad="$bad no $Y beside the judge;"
elif ! nm "$Y" | grep -q ' T yard_cub_scan_i32$' || ! nm "$Y" | grep -q ' T yard_cub_rowsum_seg$' ||
  nm "$Y" | grep -Eq ' T (scan1pass|br_rowsum|br_sum|gv_gemv|wr_warp_reduce|cgr_sum)$'; then
  bad="$bad the yard runner is not the given yardsticks alone;"
fi
[ "$("$BUILD/instructor/judge-w13" --list | tr '\n' ' ')" = "$FORMED " ] ||
  bad="$bad judge-w13 --list: $("$BUILD/instructor/judge-w13" --list | tr '\n' ' '), expected $FORMED;"
# the judge by itself: w13.masks (CPU) PASS for the reference and FAIL for the starter, a SKIP record for
# each other checkpoint it forms, plain and sandboxed
skips=$(printf ',skip%.0s' $(seq $(($(wc -w <<<"$FORMED") - 1))))
for impl in solution starter; do
  for how in plain sandbox; do
    got=$(judge_alone 13 phase3/week13 $impl $how "$log")
    want=$([ $impl = solution ] && echo "pass$skips" || echo "fail$skips")
    [ "$got" = "$want" ] || bad="$bad judge-w13 over the $impl's runner ($how): $got, expected $want;"
  done
done
c13=$(bash instructor/judge_calibrate.sh "$BUILD" phase3/week13)
[[ $c13 == *"w13.shfl-speed not run"*"w13.shfl-cub not run"*"w13.reduce-bw not run"*"w13.gemv-bw not run"*"w13.scan-speed not run"* ]] ||
  bad="$bad calibration of week 13 without a GPU: '$c13';"
if [ -z "$bad" ]; then t_pass "$label" "all thirteen checkpoints listed by the judge, the GPU ones SKIP without a GPU, judged and linked alike (masks full marks and 0), none left to the test program, the runners linked with the week's given objects, the yard runner CUB's scan and row sums alone, the judge alone the same, plain and sandboxed, calibration not run"
else t_fail "$label" "$bad (see $log)"; fi
t_end
