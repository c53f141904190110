#!/usr/bin/env bash
# instructor/tests/judge_w11.sh — week 11's judge without a GPU (instructor/
# README.md, "The judge and the runner"; instructor/judge_w11.c). Both of
# its checkpoints need a GPU, so without one each must be SKIP, never PASS:
# graded with --judge 1 (the runner linked in the sandbox from each
# student's polyt.o and the week's given support/yard_slow.o, started
# there, the record written by the judge) the cells are those of the same
# class graded without it; the judge lists both (none left to the linked
# test); the runners hold the given kernel, and the yard runner beside the
# judge holds it and no polyt; the judge by itself over the reference's and
# the starter's runners, as a plain child and in the sandbox, writes two
# SKIP records; calibration without a GPU says w11.polyt-speed was not run.
# Needs libarchive and a working bwrap. On a GPU: the commands at the end of
# instructor/README.md's week 11 entry.
. "$(dirname "$0")/lib.sh"
t_begin instructor-judge-w11

label="week 11 judged outside the student's process, without a GPU"
grading_or_skip "$label"
log=$BUILD/instructor/judge-w11-test
c=$log/class
judge_class "$log" phase2/week11 phase2/week11/solution/polyt.cu
bad=
judge_grade_twice 11 phase2/week11 "$c" "$log" ||
  { t_fail "$label" "judge-w11 or the grader does not build (see $log/build.log)"; t_end; }
# the two checkpoints in week.txt's order: polyt polyt-speed
cells() { awk -F, -v who="$2" '$1 == who { print $2 "," $3 }' "$log/$1.csv"; }
for who in correct starter; do
  for how in judged linked; do
    [ "$(cells $how $who)" = "SKIP,SKIP" ] || bad="$bad $who: $how $(cells $how $who), expected SKIP on both;"
  done
done
grep -q "phase2/week11: judged outside the student's process (--judge 1)$" "$log/judged.log" ||
  bad="$bad the grader did not say it judges week 11, leaving nothing to the test program;"
# the runners: the student's polyt and the week's given kernel; the yard runner: the given kernel alone
bad="$bad$(runners_hold phase2/week11 yard_polyt_given)"
bad="$bad$(yard_runner_only 11 yard_polyt_given polyt)"
[ "$("$BUILD/instructor/judge-w11" --list | tr '\n' ' ')" = "w11.polyt w11.polyt-speed " ] ||
  bad="$bad judge-w11 --list: $("$BUILD/instructor/judge-w11" --list | tr '\n' ' ');"
# the judge by itself: two SKIP records, plain and sandboxed, whoever's runner
bad="$bad$(judge_alone_each 11 phase2/week11 skip,skip "$log")"
c11=$(bash instructor/judge_calibrate.sh "$BUILD" phase2/week11)
[[ $c11 == *"w11.polyt-speed not run"* ]] || bad="$bad calibration of week 11 without a GPU: '$c11';"
if [ -z "$bad" ]; then t_pass "$label" "both checkpoints listed by the judge, SKIP without a GPU judged and linked alike, the runners linked with the week's given kernel, the yard runner the given kernel alone, the judge alone the same, plain and sandboxed, calibration not run"
else t_fail "$label" "$bad (see $log)"; fi
t_end
