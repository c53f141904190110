#!/usr/bin/env bash
# instructor/tests/judge_w19.sh — week 19 graded with its judge without a GPU
# (instructor/README.md, "The judge and the runner"; instructor/judge_w19.c).
# Every checkpoint of week 19 needs a GPU, so without one each must be
# SKIP, never PASS: graded with --judge 1 (the runner linked in the sandbox
# from each student's four objects, started there, the record written by
# the judge) the cells are those of the same class graded without it; the
# judge lists the seven checkpoints it forms and the grader says it leaves
# w19.realtime (steps timed with the state carried from step to step) and
# w19.steps-plot (files the student's run writes) to the test program; the
# runners hold the week's nine functions and no results writer; the judge
# by itself over the reference's and the starter's runners, as a plain
# child and in the sandbox, writes seven SKIP records; calibration without
# a GPU says w19.nbody-peak and w19.stencil-speed were not run. Needs
# libarchive and a working bwrap. On a GPU: the commands in
# instructor/README.md's week 19 entry.
. "$(dirname "$0")/lib.sh"
t_begin instructor-judge-w19

label="week 19 judged outside the student's process, without a GPU"
w=phase4/week19
judged_week_begin 19 $w "$label" $w/solution/*.cu
bad=
# the nine checkpoints in week.txt's order, every one SKIP both ways
bad="$bad$(all_skip_both 9 "$log")"
grep -q "$w: judged outside the student's process (--judge 1); left to its test program (.*): w19.realtime, w19.steps-plot$" \
  "$log/judged.log" || bad="$bad the grader did not say it judges week 19 and leaves w19.realtime and w19.steps-plot to the test program;"
[ "$("$BUILD/instructor/judge-w19" --list | tr '\n' ' ')" = \
  "w19.forces w19.nbody-peak w19.step w19.energy w19.grid w19.stencil w19.stencil-speed " ] ||
  bad="$bad judge-w19 --list: $("$BUILD/instructor/judge-w19" --list | tr '\n' ' ');"
fns="nbody_accel_naive nbody_accel_tiled leapfrog_step cg_workspace_bytes cg_build cg_count_pairs stencil_naive stencil_tiled
  stencil_stream"
# shellcheck disable=SC2086
bad="$bad$(runners_hold $w $fns)"
# shellcheck disable=SC2086
bad="$bad$(learner_runner_lacks "$log" $w $fns)"
for impl in solution starter; do
  nm "$BUILD/$w/$impl/judge-runner" | grep -Eq ' [TtWw] (wb_results_|wb_test_main|srunner_)' &&
    bad="$bad the $impl's runner links a results writer or the test harness;"
done
# the judge by itself: seven SKIP records, plain and sandboxed, whoever's runner
bad="$bad$(judge_alone_each 19 $w skip,skip,skip,skip,skip,skip,skip "$log")"
c19=$(bash instructor/judge_calibrate.sh "$BUILD" $w)
for id in w19.nbody-peak w19.stencil-speed; do
  [[ $c19 == *"$id not run"* ]] || bad="$bad calibration of week 19 without a GPU: '$c19';"
done
if [ -z "$bad" ]; then t_pass "$label" "seven checkpoints listed by the judge, SKIP without a GPU judged and linked alike, w19.realtime and w19.steps-plot left to the test program; the runners (the learners' in the sandbox too) hold the week's nine functions and no results writer; the judge alone the same, plain and sandboxed; calibration not run"
else t_fail "$label" "$bad (see $log)"; fi
t_end
