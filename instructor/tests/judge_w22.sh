#!/usr/bin/env bash
# instructor/tests/judge_w22.sh — week 22's judge without a GPU (instructor/
# README.md, "The judge and the runner"; instructor/judge_w22.c). Both of
# its checkpoints need a GPU, so without one each must be SKIP, never PASS:
# graded with --judge 1 (the runner linked in the sandbox from each
# student's tiled.o, started there, the record written by the judge) the
# cells are those of the same class graded without it; the judge lists
# both (none left to the linked test); the runners hold tiled.h's three
# functions, the yard runner beside the judge none of them; the judge by
# itself over the reference's and the starter's runners, as a plain child
# and in the sandbox, writes two SKIP records; calibration without a GPU
# says w22.tiled-speed was not run. Needs libarchive and a working bwrap.
# On a GPU: the commands in instructor/README.md's week 22 entry.
. "$(dirname "$0")/lib.sh"
t_begin instructor-judge-w22

label="week 22 judged outside the student's process, without a GPU"
grading_or_skip "$label"
log=$BUILD/instructor/judge-w22-test
c=$log/class
judge_class "$log" phase5/week22 phase5/week22/solution/tiled.cu
bad=
judge_grade_twice 22 phase5/week22 "$c" "$log" ||
  { t_fail "$label" "judge-w22 or the grader does not build (see $log/build.log)"; t_end; }
# the two checkpoints in week.txt's order: tiled tiled-speed
bad="$bad$(all_skip_both 2 "$log")"
grep -q "phase5/week22: judged outside the student's process (--judge 1)$" "$log/judged.log" ||
  bad="$bad the grader did not say it judges week 22, leaving nothing to the test program;"
bad="$bad$(learner_runner_lacks "$log" phase5/week22 tiled_sgemm_t tiled_sgemm tiled_sgemm_blocks_per_sm)"
bad="$bad$(runners_hold phase5/week22 tiled_sgemm_t tiled_sgemm tiled_sgemm_blocks_per_sm)"
y=$BUILD/instructor/judge-gemm-yard-runner
[ -x "$y" ] || bad="$bad no $y beside the judge;"
for s in tiled_sgemm_t tiled_sgemm tiled_sgemm_blocks_per_sm; do nm "$y" 2>/dev/null | grep -q " T $s\$" && bad="$bad the yard runner holds the student's $s;"; done
[ "$("$BUILD/instructor/judge-w22" --list | tr '\n' ' ')" = "w22.tiled w22.tiled-speed " ] ||
  bad="$bad judge-w22 --list: $("$BUILD/instructor/judge-w22" --list | tr '\n' ' ');"
# the judge by itself: two SKIP records, plain and sandboxed, whoever's runner
bad="$bad$(judge_alone_each 22 phase5/week22 skip,skip "$log")"
c22=$(bash instructor/judge_calibrate.sh "$BUILD" phase5/week22)
[[ $c22 == *"w22.tiled-speed not run"* ]] || bad="$bad calibration of week 22 without a GPU: '$c22';"
if [ -z "$bad" ]; then t_pass "$label" "both checkpoints listed by the judge, SKIP without a GPU judged and linked alike, the runners linked with tiled.h's three functions, the yard runner with none, the judge alone the same, plain and sandboxed, calibration not run"
else t_fail "$label" "$bad (see $log)"; fi
t_end
