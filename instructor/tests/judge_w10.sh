#!/usr/bin/env bash
# instructor/tests/judge_w10.sh — week 10 graded with its judge without a GPU
# (instructor/README.md, "The judge and the runner"; instructor/judge_w10.c).
# Its CPU part, w10.calc's calculator checks (the test's hand-worked cases
# and the judge's drawn configurations, occ_blocks_per_sm and occ_fraction
# called by the runner), runs with or without a GPU: the starter FAILs it;
# the reference passes it and the checkpoint is SKIP for its GPU part (the
# runtime's grid), as the linked test's is. The class: the reference and the
# starter, graded with --judge 1 and without it: the same cells (every other
# checkpoint SKIP, never PASS). The grader says it leaves w10.sweep to the
# test program (judge-w10 --list does not name it). The runners the grader
# links hold the week's given kernels; the yard runner beside the judge holds
# the given full-occupancy kernel and no student function. The judge by
# itself over the reference's and the starter's runners, plain and in the
# sandbox; calibration without a GPU says w10.volkov-speed was not run.
# Needs libarchive and a working bwrap.
. "$(dirname "$0")/lib.sh"
t_begin instructor-judge-w10

label="grade --judge 1: week 10 judged outside the student's process, without a GPU"
grading_or_skip "$label"
log=$BUILD/instructor/judge-w10-test
w=phase2/week10
judge_class "$log" $w $w/solution/occupancy.cu $w/solution/volkov.cu
c=$log/class
bad=
judge_grade_twice 10 $w "$c" "$log" ||
  { t_fail "$label" "judge-w10 or the grader does not build (see $log/build.log)"; t_end; }
# the four checkpoints in week.txt's order: calc sweep volkov volkov-speed; the starter's calc FAILs (CPU)
bad="$bad$(cells_both 4 "$log" correct=SKIP,SKIP,SKIP,SKIP starter=0.00,SKIP,SKIP,SKIP)"
grep -q "$w: judged outside the student's process (--judge 1); left to its test program (.*): w10.sweep$" \
  "$log/judged.log" || bad="$bad the grader did not say it judges week 10 and leaves w10.sweep to the test program;"
grep -q "256 threads, 32 regs, 0+0 B shared: 0 blocks per SM, expected 8" "$log/judged-feedback/starter.md" 2>/dev/null ||
  bad="$bad the starter's FAIL does not name the first hand-worked case;"
# the runners: the student's functions and the week's given kernels; the yard runner: the given kernel alone
bad="$bad$(learner_runner_lacks "$log" $w occ_blocks_per_sm volkov_chains yard_fullocc_chains occk_max_active)"
bad="$bad$(runners_hold $w yard_fullocc_chains occk_max_active scale_launch)"
bad="$bad$(yard_runner_only 10 yard_fullocc_chains "volkov_chains occ_blocks_per_sm occ_fraction")"
[ "$("$BUILD/instructor/judge-w10" --list | tr '\n' ' ')" = "w10.calc w10.volkov w10.volkov-speed " ] ||
  bad="$bad judge-w10 --list: $("$BUILD/instructor/judge-w10" --list | tr '\n' ' ');"
# the judge by itself: the reference's runner and the starter's, plain and sandboxed
for impl in solution starter; do
  for how in plain sandbox; do
    got=$(judge_alone 10 $w $impl $how "$log")
    want=$([ $impl = solution ] && echo skip,skip,skip || echo fail,skip,skip)
    [ "$got" = "$want" ] || bad="$bad judge-w10 over the $impl's runner ($how): $got, expected $want;"
  done
done
grep -q "w10.calc fail: 256 threads, 32 regs, 0+0 B shared: 0 blocks per SM, expected 8" "$log/alone-w10-starter-plain.tsv.out" ||
  bad="$bad the judge alone over the starter does not name the first hand-worked case;"
c10=$(bash instructor/judge_calibrate.sh "$BUILD" $w)
[[ $c10 == *"w10.volkov-speed not run"* ]] || bad="$bad calibration of week 10 without a GPU: '$c10';"
if [ -z "$bad" ]; then t_pass "$label" "calc's CPU part judged through the runner (the starter FAILs, the reference SKIPs for the runtime's grid, as linked), volkov and volkov-speed SKIP, sweep left to the test program; the runners linked with the given kernels, the yard runner the given kernel alone; the judge alone the same, plain and sandboxed"
else t_fail "$label" "$bad (see $log)"; fi
t_end
