#!/usr/bin/env bash
# instructor/tests/judge_w07.sh — week 07's judge without a GPU (instructor/
# README.md, "The judge and the runner"; instructor/judge_w07.c). All ten
# of its checkpoints need a GPU, so without one each must be SKIP, never
# PASS: graded with --judge 1 (the runner linked in the sandbox from each
# student's five objects and the week's given support objects, started
# there, the record written by the judge; that runner holds the student's
# functions and the given ones) the cells are those of the same class
# graded without it; the judge lists all ten (none left to the
# linked test); the runners hold the given support objects, and the yard
# runner beside the judge holds CUB's wrappers and the naive key count and
# no student function; the judge by itself over the reference's and the
# starter's runners, as a plain child and in the sandbox, writes ten SKIP
# records; calibration without a GPU says its four speed checkpoints were
# not run. Needs libarchive and a working bwrap. On a GPU: the commands in
# instructor/README.md's week 07 entry.
. "$(dirname "$0")/lib.sh"
t_begin instructor-judge-w07

label="week 07 judged outside the student's process, without a GPU"
grading_or_skip "$label"
log=$BUILD/instructor/judge-w07-test
c=$log/class
judge_class "$log" phase1/week07 phase1/week07/solution/*.cu
bad=
judge_grade_twice 07 phase1/week07 "$c" "$log" ||
  { t_fail "$label" "judge-w07 or the grader does not build (see $log/build.log)"; t_end; }
# the ten checkpoints SKIP both ways, for the reference and the starter
bad="$bad$(all_skip_both 10 "$log")"
# the learner's runner, linked in the sandbox from the student's objects and the week's given ones
bad="$bad$(learner_runner_lacks "$log" phase1/week07 reduce_sum atomics_keycount_warp yard_keycount_naive yard_cub_sum)"
grep -q "phase1/week07: judged outside the student's process (--judge 1)$" "$log/judged.log" ||
  bad="$bad the grader did not say it judges week 07, leaving nothing to the test program;"
# the instructor's runners: the week's given objects too; the yard runner: the given ones alone
for impl in solution starter; do
  nm "$BUILD/phase1/week07/$impl/judge-runner" 2>/dev/null | grep -q ' T yard_keycount_naive$' ||
    bad="$bad the $impl's runner lacks the week's given support objects;"
done
Y=$BUILD/instructor/judge-w07-yard-runner
if [ ! -x "$Y" ]; then bad="$bad no $Y beside the judge;"
elif ! nm "$Y" | grep -q ' T yard_cub_sum$' || ! nm "$Y" | grep -q ' T yard_keycount_naive$' ||
  nm "$Y" | grep -Eq ' T (reduce_sum|scan_fast|hist_shared|atomics_keycount_warp)$'; then
  bad="$bad the yard runner is not the given yardsticks alone;"
fi
[ "$("$BUILD/instructor/judge-w07" --list | tr '\n' ' ')" = "w07.reduce w07.reduce-bw w07.scan w07.scan-bw w07.hist w07.hist-bw w07.compact w07.keycount w07.keycount-speed w07.matmul " ] ||
  bad="$bad judge-w07 --list: $("$BUILD/instructor/judge-w07" --list | tr '\n' ' ');"
# the judge by itself: ten SKIP records, plain and sandboxed, whoever's runner
bad="$bad$(judge_alone_each 07 phase1/week07 skip,skip,skip,skip,skip,skip,skip,skip,skip,skip "$log")"
c7=$(bash instructor/judge_calibrate.sh "$BUILD" phase1/week07)
[[ $c7 == *"w07.reduce-bw not run"*"w07.scan-bw not run"*"w07.hist-bw not run"*"w07.keycount-speed not run"* ]] ||
  bad="$bad calibration of week 07 without a GPU: '$c7';"
if [ -z "$bad" ]; then t_pass "$label" "all ten checkpoints listed by the judge, SKIP without a GPU judged and linked alike, the runners linked with the week's given objects, the yard runner the given yardsticks alone, the judge alone the same, plain and sandboxed, calibration not run"
else t_fail "$label" "$bad (see $log)"; fi
t_end
