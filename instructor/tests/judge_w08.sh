#!/usr/bin/env bash
# instructor/tests/judge_w08.sh — week 08's judge without a GPU (instructor/
# README.md, "The judge and the runner"; instructor/judge_w08.c). Every one
# of its checkpoints needs a GPU, so without one each must be SKIP, never
# PASS: graded with --judge 1 (the runner linked in the sandbox from each
# student's seven objects, started there, the record written by the judge)
# the cells are those of the same class graded without it; the judge lists
# seven checkpoints and the grader says it leaves w08.racecheck to the
# test program (compute-sanitizer over the student's own process); the
# runners hold the student's functions and no results writer; and the judge
# by itself over the reference's and the starter's runners, as a plain
# child and in the sandbox, writes seven SKIP records. Needs libarchive and
# a working bwrap. On a GPU: the commands in instructor/README.md's week 08
# entry.
. "$(dirname "$0")/lib.sh"
t_begin instructor-judge-w08

label="week 08 judged outside the student's process, without a GPU"
grading_or_skip "$label"
log=$BUILD/instructor/judge-w08-test
judge_class "$log" phase1/week08 phase1/week08/solution/*.cu
if ! $MAKE -s judge-w08 "$GRADE_BIN" "$BUILD/phase1/week08/starter/test" >"$log/build.log" 2>&1; then
  tail -n 20 "$log/build.log"; t_fail "$label" "judge-w08 or the grader does not build (see $log/build.log)"; t_end
fi
bad=
J=$BUILD/instructor/judge-w08
want_ids="w08.lastblock w08.gridsync w08.vote w08.lockfree w08.mp-device w08.mp-block w08.tally "
[ "$("$J" --list | tr '\n' ' ')" = "$want_ids" ] || bad="$bad judge-w08 --list: $("$J" --list | tr '\n' ' ');"
# every checkpoint of week.txt but w08.racecheck
week_ids=$(awk -F'[:|]' '/^checkpoint:/ { gsub(/ /, "", $2); if ($2 != "w08.racecheck") printf "%s ", $2 }' phase1/week08/week.txt)
[ "$week_ids" = "$want_ids" ] || bad="$bad week.txt's checkpoints are not the judge's seven and w08.racecheck: $week_ids;"
# the runners: the student's functions, no results writer
for impl in solution starter; do
  r=$BUILD/phase1/week08/$impl/judge-runner
  for f in lastblock_reduce gridsync_center_mean vote_compact_positive lfstack_pop_all litmus_mp_round tally_block; do
    nm "$r" 2>/dev/null | grep -q " T $f$" || bad="$bad the $impl's runner lacks $f;"
  done
  nm "$r" 2>/dev/null | grep -Eq ' [TtWw] (wb_results_|wb_test_main|srunner_)' && bad="$bad the $impl's runner links a results writer;"
done
# graded with --judge 1 and without: the eight checkpoints SKIP both ways
judge_grade_twice 08 phase1/week08 "$log/class" "$log" || bad="$bad the build for grading failed;"
bad="$bad$(all_skip_both 8 "$log")"
grep -q "phase1/week08: judged outside the student's process (--judge 1); left to its test program (.*): w08.racecheck$" \
  "$log/judged.log" || bad="$bad the grader did not say it judges week 08 and leaves w08.racecheck to the test program;"
# the learner's runner, linked in the sandbox from the student's objects
bad="$bad$(learner_runner_lacks "$log" phase1/week08 lastblock_reduce litmus_mp_round tally_device)"
ls "$log"/scratch/judged/*/judge-results-*w08.lastblock* >/dev/null 2>&1 || bad="$bad the judge wrote no record of w08.lastblock;"
# the judge by itself: seven SKIP records, plain and sandboxed, whoever's runner
bad="$bad$(judge_alone_each 08 phase1/week08 skip,skip,skip,skip,skip,skip,skip "$log")"
if [ -z "$bad" ]; then t_pass "$label" "seven checkpoints listed by the judge, SKIP without a GPU judged and linked alike, w08.racecheck left to the test program, the runners linked from the student's objects (in the sandbox too) with no results writer, the judge alone the same, plain and sandboxed"
else t_fail "$label" "$bad (see $log)"; fi
t_end
