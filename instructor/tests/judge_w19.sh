#!/usr/bin/env bash
# instructor/tests/judge_w19.sh — week 19's judge by itself, without a GPU
# (instructor/README.md, "The judge and the runner"; instructor/judge_w19.c).
# The judge is staged: written and tested here, not yet used by the grader
# (no JUDGED_WEEKS line, no JUDGES row), so this tests it alone, not the
# grader's comparison. It lists the seven checkpoints it forms
# (w19.realtime and w19.steps-plot left to the linked test); every one
# needs a GPU, so over the reference's and the starter's runners, as a
# plain child and in the sandbox, it writes seven SKIP records, never PASS;
# the runners hold the week's nine functions; calibration without a GPU
# says w19.nbody-peak and w19.stencil-speed were not run. Needs a working
# bwrap. On a GPU: the commands in instructor/README.md's week 19 entry.
. "$(dirname "$0")/lib.sh"
t_begin instructor-judge-w19

label="week 19's judge by itself, without a GPU"
grading_or_skip "$label"
log=$BUILD/instructor/judge-w19-test
rm -rf "$log" && mkdir -p "$log" && chmod 755 "$log"
bad=
if ! $MAKE -s judge-w19 >"$log/build.log" 2>&1; then
  tail -n 20 "$log/build.log"
  t_fail "$label" "judge-w19 does not build (see $log/build.log)"
  t_end
fi
[ "$("$BUILD/instructor/judge-w19" --list | tr '\n' ' ')" = \
  "w19.forces w19.nbody-peak w19.step w19.energy w19.grid w19.stencil w19.stencil-speed " ] ||
  bad="$bad judge-w19 --list: $("$BUILD/instructor/judge-w19" --list | tr '\n' ' ');"
bad="$bad$(runners_hold phase4/week19 nbody_accel_naive nbody_accel_tiled leapfrog_step cg_workspace_bytes cg_build \
  cg_count_pairs stencil_naive stencil_tiled stencil_stream)"
for impl in solution starter; do
  nm "$BUILD/phase4/week19/$impl/judge-runner" | grep -Eq ' [TtWw] (wb_results_|wb_test_main|srunner_)' &&
    bad="$bad the $impl's runner links a results writer or the test harness;"
done
# the judge by itself: seven SKIP records, plain and sandboxed, whoever's runner
bad="$bad$(judge_alone_each 19 phase4/week19 skip,skip,skip,skip,skip,skip,skip "$log")"
c19=$(bash instructor/judge_calibrate.sh "$BUILD" phase4/week19)
for id in w19.nbody-peak w19.stencil-speed; do
  [[ $c19 == *"$id not run"* ]] || bad="$bad calibration of week 19 without a GPU: '$c19';"
done
if [ -z "$bad" ]; then t_pass "$label" "seven checkpoints listed by the judge (realtime and steps-plot left to the linked test), SKIP without a GPU over the reference's and the starter's runners, plain and sandboxed; the runners hold the week's nine functions; calibration not run"
else t_fail "$label" "$bad (see $log)"; fi
t_end
