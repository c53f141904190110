#!/usr/bin/env bash
# instructor/tests/judge_w23.sh — week 23's judge without a GPU (instructor/
# README.md, "The judge and the runner"; instructor/judge_w23.c). Its three
# checkpoints need a GPU, so without one each must be SKIP, never PASS:
# graded with --judge 1 (the runner linked in the sandbox from each
# student's tile1d.o and tile2d.o, started there, the record written by the
# judge) the cells are those of the same class graded without it; the judge
# lists all three (none left to the linked test); the runners hold both
# SGEMMs, the yard runner beside the judge none of them; the judge by itself
# over the reference's and the starter's runners, as a plain child and in
# the sandbox, writes three SKIP records; calibration without a GPU says
# w23.tile2d-speed was not run. Needs libarchive and a working bwrap. On a
# GPU: the commands in instructor/README.md's week 23 entry.
. "$(dirname "$0")/lib.sh"
t_begin instructor-judge-w23

label="week 23 judged outside the student's process, without a GPU"
grading_or_skip "$label"
log=$BUILD/instructor/judge-w23-test
c=$log/class
judge_class "$log" phase5/week23 phase5/week23/solution/tile1d.cu phase5/week23/solution/tile2d.cu
judge_grade_twice 23 phase5/week23 "$c" "$log" ||
  { t_fail "$label" "judge-w23 or the grader does not build (see $log/build.log)"; t_end; }
# the three checkpoints in week.txt's order: tile1d tile2d tile2d-speed
bad="$(all_skip_both 3 "$log")"
bad="$bad$(gemm_judged 23 phase5/week23 "$log" "w23.tile1d w23.tile2d w23.tile2d-speed" "tile1d_sgemm tile2d_sgemm" skip,skip,skip)"
if [ -z "$bad" ]; then t_pass "$label" "all three checkpoints listed by the judge, SKIP without a GPU judged and linked alike, the runners linked with both SGEMMs, the yard runner with none, the judge alone the same, plain and sandboxed, calibration not run"
else t_fail "$label" "$bad (see $log)"; fi
t_end
