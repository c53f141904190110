#!/usr/bin/env bash
# instructor/tests/judge_w24.sh — week 24's judge without a GPU (instructor/
# README.md, "The judge and the runner"; instructor/judge_w24.c). Its four
# checkpoints need a GPU, so without one each must be SKIP, never PASS:
# graded with --judge 1 (the runner linked in the sandbox from each
# student's vec4.o, dbuf.o and warptile.o, started there, the record
# written by the judge) the cells are those of the same class graded
# without it; the judge lists all four (none left to the linked test); the
# runners hold the three SGEMMs, the yard runner beside the judge none of
# them; the judge by itself over the reference's and the starter's runners,
# as a plain child and in the sandbox, writes four SKIP records;
# calibration without a GPU says w24.warptile-speed was not run. Needs
# libarchive and a working bwrap. On a GPU: the commands in
# instructor/README.md's week 24 entry.
. "$(dirname "$0")/lib.sh"
t_begin instructor-judge-w24

label="week 24 judged outside the student's process, without a GPU"
grading_or_skip "$label"
log=$BUILD/instructor/judge-w24-test
c=$log/class
judge_class "$log" phase5/week24 phase5/week24/solution/vec4.cu phase5/week24/solution/dbuf.cu phase5/week24/solution/warptile.cu
judge_grade_twice 24 phase5/week24 "$c" "$log" ||
  { t_fail "$label" "judge-w24 or the grader does not build (see $log/build.log)"; t_end; }
# the four checkpoints in week.txt's order: vec4 dbuf warptile warptile-speed
bad="$(all_skip_both 4 "$log")"
bad="$bad$(gemm_judged 24 phase5/week24 "$log" "w24.vec4 w24.dbuf w24.warptile w24.warptile-speed" "vec4_sgemm dbuf_sgemm warptile_sgemm" skip,skip,skip,skip)"
if [ -z "$bad" ]; then t_pass "$label" "all four checkpoints listed by the judge, SKIP without a GPU judged and linked alike, the runners linked with the three SGEMMs, the yard runner with none, the judge alone the same, plain and sandboxed, calibration not run"
else t_fail "$label" "$bad (see $log)"; fi
t_end
