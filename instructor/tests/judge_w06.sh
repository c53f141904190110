#!/usr/bin/env bash
# instructor/tests/judge_w06.sh — week 06 graded with its judge without a GPU
# (instructor/README.md, "The judge and the runner"; build/instructor/judge-w06).
# Every checkpoint of week 06 needs a GPU, so without one the judge's
# verdicts cannot be seen here: what is tested is the plumbing around them.
# The class: the reference and the starter, graded with --judge 1 and
# without it: the same cells (every checkpoint SKIP, never PASS). The
# grader says which checkpoint it leaves to the test program
# (w06.strided-plot: judge-w06 --list does not name it). The judge by itself
# over the reference's and the starter's runners, plain and in the sandbox:
# every checkpoint SKIP. Calibration without a GPU says w06.transpose-bw was
# not run. Needs libarchive and a working bwrap.
. "$(dirname "$0")/lib.sh"
t_begin instructor-judge-w06

label="grade --judge 1: week 06 judged outside the student's process, without a GPU"
grading_or_skip "$label"
log=$BUILD/instructor/judge-w06-test
rm -rf "$log" && mkdir -p "$log/scratch/judged" "$log/scratch/linked" && chmod 755 "$log" "$log/scratch" "$log/scratch/judged" "$log/scratch/linked"
c=$log/class
bad=
mkdir -p "$c/correct/phase1/week06" "$c/starter/phase1/week06"
cp phase1/week06/solution/*.cu "$c/correct/phase1/week06/"
put_starters phase1/week06 "$c/starter/phase1/week06"
judge_grade_twice 06 phase1/week06 "$c" "$log" ||
  { t_fail "$label" "judge-w06 or the grader does not build (see $log/build.log)"; t_end; }
# the six checkpoints in week.txt's order: transpose transpose-bw strided strided-plot localmem const
cells() { awk -F, -v who="$2" '$1 == who { print $2 "," $3 "," $4 "," $5 "," $6 "," $7 }' "$log/$1.csv"; }
for who in correct starter; do
  for how in judged linked; do
    got=$(cells $how $who)
    [ "$got" = "SKIP,SKIP,SKIP,SKIP,SKIP,SKIP" ] || bad="$bad $who: $how $got, expected every checkpoint SKIP;"
  done
done
grep -q "phase1/week06: judged outside the student's process (--judge 1); left to its test program (.*): w06.strided-plot$" \
  "$log/judged.log" || bad="$bad the grader did not say it judges week 06 and leaves w06.strided-plot to the test program;"
# the judge by itself: the reference's runner and the starter's, plain and sandboxed; every checkpoint SKIP
for impl in solution starter; do
  for how in plain sandbox; do
    got=$(judge_alone 06 phase1/week06 $impl $how "$log")
    [ "$got" = skip,skip,skip,skip,skip ] || bad="$bad judge-w06 over the $impl's runner ($how): $got, expected skip x5;"
  done
done
[ "$("$BUILD/instructor/judge-w06" --list | tr '\n' ' ')" = "w06.transpose w06.transpose-bw w06.strided w06.localmem w06.const " ] ||
  bad="$bad judge-w06 --list: $("$BUILD/instructor/judge-w06" --list | tr '\n' ' ');"
c6=$(bash instructor/judge_calibrate.sh "$BUILD" phase1/week06)
[[ $c6 == *"w06.transpose-bw not run"* ]] || bad="$bad calibration of week 06 without a GPU: '$c6';"
if [ -z "$bad" ]; then t_pass "$label" "every checkpoint SKIP without a GPU, judged and linked alike, strided-plot left to the test program; the judge alone the same over both runners, plain and sandboxed"
else t_fail "$label" "$bad (see $log)"; fi
t_end
