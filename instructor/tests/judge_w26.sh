#!/usr/bin/env bash
# instructor/tests/judge_w26.sh — week 26 graded with its judge without a GPU
# (instructor/README.md, "The judge and the runner"; instructor/judge_w26.c,
# judge_hgemm.c). Every checkpoint of week 26 needs a GPU, so without one
# each must be SKIP, never PASS: graded with --judge 1 (the runner linked in
# the sandbox from each student's hgemm_mma.o, started there, the record
# written by the judge) the cells are those of the same class graded
# without it; the judge lists all three (none left to the linked test); the
# runners hold hgemm_mma, the yard runner beside the judge holds cuBLAS's
# call and the given SIMT GEMM and no hgemm_mma; the judge by itself over
# the reference's and the starter's runners, as a plain child and in the
# sandbox, writes three SKIP records; calibration without a GPU says
# w26.mma-speed and w26.tc-wins were not run. Needs libarchive and a
# working bwrap. On a GPU: the commands in instructor/README.md's week 26
# entry.
. "$(dirname "$0")/lib.sh"
t_begin instructor-judge-w26

label="week 26 judged outside the student's process, without a GPU"
grading_or_skip "$label"
log=$BUILD/instructor/judge-w26-test
c=$log/class
judge_class "$log" phase5/week26 phase5/week26/solution/hgemm_mma.cu
bad=
judge_grade_twice 26 phase5/week26 "$c" "$log" ||
  { t_fail "$label" "judge-w26 or the grader does not build (see $log/build.log)"; t_end; }
# the three checkpoints in week.txt's order: mma mma-speed tc-wins, every one SKIP both ways
bad="$bad$(all_skip_both 3 "$log")"
grep -q "phase5/week26: judged outside the student's process (--judge 1)$" "$log/judged.log" ||
  bad="$bad the grader did not say it judges week 26, leaving nothing to the test program;"
# the runners: the student's hgemm_mma; the yard runner: cuBLAS's call and the given SIMT GEMM, no hgemm_mma
bad="$bad$(runners_hold phase5/week26 hgemm_mma)"
bad="$bad$(learner_runner_lacks "$log" phase5/week26 hgemm_mma)"
bad="$bad$(yard_runner_only 26 yard_sgemm_simt hgemm_mma)"
nm "$BUILD/instructor/judge-w26-yard-runner" | grep -q " U cublasGemmEx" ||
  bad="$bad the yard runner does not call cublasGemmEx;"
[ "$("$BUILD/instructor/judge-w26" --list | tr '\n' ' ')" = "w26.mma w26.mma-speed w26.tc-wins " ] ||
  bad="$bad judge-w26 --list: $("$BUILD/instructor/judge-w26" --list | tr '\n' ' ');"
# the judge by itself: three SKIP records, plain and sandboxed, whoever's runner
bad="$bad$(judge_alone_each 26 phase5/week26 skip,skip,skip "$log")"
c26=$(bash instructor/judge_calibrate.sh "$BUILD" phase5/week26)
for id in w26.mma-speed w26.tc-wins; do
  [[ $c26 == *"$id not run"* ]] || bad="$bad calibration of week 26 without a GPU: '$c26';"
done
if [ -z "$bad" ]; then t_pass "$label" "all three checkpoints listed by the judge, SKIP without a GPU judged and linked alike, the runners holding hgemm_mma, the yard runner cuBLAS and the given SIMT GEMM alone, the judge alone the same, plain and sandboxed, calibration not run"
else t_fail "$label" "$bad (see $log)"; fi
t_end
