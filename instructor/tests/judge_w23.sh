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
bad=
judge_grade_twice 23 phase5/week23 "$c" "$log" ||
  { t_fail "$label" "judge-w23 or the grader does not build (see $log/build.log)"; t_end; }
# the three checkpoints in week.txt's order: tile1d tile2d tile2d-speed
bad="$bad$(all_skip_both 3 "$log")"
grep -q "phase5/week23: judged outside the student's process (--judge 1)$" "$log/judged.log" ||
  bad="$bad the grader did not say it judges week 23, leaving nothing to the test program;"
bad="$bad$(learner_runner_lacks "$log" phase5/week23 tile1d_sgemm tile2d_sgemm)"
bad="$bad$(runners_hold phase5/week23 tile1d_sgemm tile2d_sgemm)"
y=$BUILD/instructor/judge-gemm-yard-runner
[ -x "$y" ] || bad="$bad no $y beside the judge;"
for s in tile1d_sgemm tile2d_sgemm; do nm "$y" 2>/dev/null | grep -q " T $s\$" && bad="$bad the yard runner holds the student's $s;"; done
[ "$("$BUILD/instructor/judge-w23" --list | tr '\n' ' ')" = "w23.tile1d w23.tile2d w23.tile2d-speed " ] ||
  bad="$bad judge-w23 --list: $("$BUILD/instructor/judge-w23" --list | tr '\n' ' ');"
# the judge by itself: three SKIP records, plain and sandboxed, whoever's runner
bad="$bad$(judge_alone_each 23 phase5/week23 skip,skip,skip "$log")"
c23=$(bash instructor/judge_calibrate.sh "$BUILD" phase5/week23)
[[ $c23 == *"w23.tile2d-speed not run"* ]] || bad="$bad calibration of week 23 without a GPU: '$c23';"
if [ -z "$bad" ]; then t_pass "$label" "all three checkpoints listed by the judge, SKIP without a GPU judged and linked alike, the runners linked with both SGEMMs, the yard runner with none, the judge alone the same, plain and sandboxed, calibration not run"
else t_fail "$label" "$bad (see $log)"; fi
t_end
