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
judge_grade_twice 22 phase5/week22 "$c" "$log" ||
  { t_fail "$label" "judge-w22 or the grader does not build (see $log/build.log)"; t_end; }
# the two checkpoints in week.txt's order: tiled tiled-speed
bad="$(all_skip_both 2 "$log")"
bad="$bad$(gemm_judged 22 phase5/week22 "$log" "w22.tiled w22.tiled-speed" "tiled_sgemm_t tiled_sgemm tiled_sgemm_blocks_per_sm" skip,skip)"
if [ -z "$bad" ]; then t_pass "$label" "both checkpoints listed by the judge, SKIP without a GPU judged and linked alike, the runners linked with tiled.h's three functions, the yard runner with none, the judge alone the same, plain and sandboxed, calibration not run"
else t_fail "$label" "$bad (see $log)"; fi
t_end
