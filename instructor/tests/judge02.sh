#!/usr/bin/env bash
# instructor/tests/judge02.sh — week 02's judge without a GPU (instructor/
# README.md, "The judge and the runner"; instructor/judge_w02.c). Every one
# of its six checkpoints needs a GPU, so without one each must be SKIP,
# never PASS: graded with --judge 1 (the runner linked in the sandbox from
# each student's bugs.o and the week's given support/launcher.o, started
# there, the record written by the judge) the cells are those of the same
# class graded without it; the judge lists all six (none left to the linked
# test); and the judge by itself over the reference's and the starter's
# runners, as a plain child and in the sandbox, writes six SKIP records.
# Needs libarchive and a working bwrap. On a GPU: the commands at the end of
# instructor/README.md's week 02 entry.
. "$(dirname "$0")/lib.sh"
t_begin instructor-judge02

label="week 02 judged outside the student's process, without a GPU"
grading_or_skip "$label"
log=$BUILD/instructor/judge02-test
rm -rf "$log" && mkdir -p "$log/class/correct/phase0/week02" "$log/class/starter/phase0/week02" "$log/scratch"
chmod 755 "$log" "$log/scratch"
cp phase0/week02/solution/bugs.cu "$log/class/correct/phase0/week02/"
put_starters phase0/week02 "$log/class/starter/phase0/week02"
if ! $MAKE -s judge-w02 "$GRADE_BIN" "$BUILD/phase0/week02/starter/test" >"$log/build.log" 2>&1; then
  tail -n 20 "$log/build.log"; t_fail "$label" "judge-w02 or the grader does not build (see $log/build.log)"; t_end
fi
bad=
J=$BUILD/instructor/judge-w02
want_ids=$(awk -F'[:|]' '/^checkpoint:/ { gsub(/ /, "", $2); print $2 }' phase0/week02/week.txt)
[ "$("$J" --list)" = "$want_ids" ] || bad="$bad judge-w02 --list is not week.txt's six checkpoints: $("$J" --list | tr '\n' ' ');"
# the runners: the week's given launches linked in, no results writer
for impl in solution starter; do
  nm "$BUILD/phase0/week02/$impl/judge-runner" 2>/dev/null | grep -q ' T w02_launch_fill$' ||
    bad="$bad the $impl's runner lacks the week's launcher;"
done
# shellcheck disable=SC2046
grade() { WB_NO_GPU=1 "$GRADE_BIN" --root . --submissions "$log/class" --weeks phase0/week02 --gradebook "$log/$1.csv" \
  --seed "$SEED" --limit 60 --jobs 2 --scratch "$log/scratch/$1" --keep-scratch 1 $(grade_make_args) "${@:2}" \
  >"$log/$1.log" 2>&1; }
cells() { awk -F, -v who="$2" '$1 == who { print $2 "," $3 "," $4 "," $5 "," $6 "," $7 }' "$log/$1.csv"; }
mkdir -p "$log/scratch/judged" "$log/scratch/linked" && chmod 755 "$log/scratch/judged" "$log/scratch/linked"
grade judged --judge 1; grade linked
for who in correct starter; do
  for how in judged linked; do
    [ "$(cells $how $who)" = "SKIP,SKIP,SKIP,SKIP,SKIP,SKIP" ] ||
      bad="$bad $who: $how $(cells $how $who), expected SKIP on all six;"
  done
done
grep -q "phase0/week02: judged outside the student's process" "$log/judged.log" || bad="$bad the grader did not say it judges week 02;"
grep -q "left to its test program" "$log/judged.log" && bad="$bad the grader left a checkpoint of week 02 to the test program;"
# the learner's runner, linked in the sandbox: the student's functions and the given launcher
for who in correct starter; do
  r=$log/scratch/judged/$who/wb/build/phase0/week02/learner/judge-runner
  if [ ! -x "$r" ]; then bad="$bad $who: no learner judge-runner in the scratch build;"
  elif ! nm "$r" | grep -q ' T w02_launch_fill$' || ! nm "$r" | grep -q ' T bug_check_launch$'; then
    bad="$bad $who: the learner's runner lacks bug_check_launch or the launcher;"
  fi
done
ls "$log"/scratch/judged/*/judge-results-*w02.oob* >/dev/null 2>&1 || bad="$bad the judge wrote no record of w02.oob;"
# the judge by itself: six SKIP records, plain and sandboxed, whoever's runner
for impl in solution starter; do
  for how in plain sandbox; do
    got=$(judge_alone 02 phase0/week02 $impl $how "$log")
    [ "$got" = "skip,skip,skip,skip,skip,skip" ] || bad="$bad judge-w02 over the $impl's runner ($how): $got, expected six skip;"
  done
done
if [ -z "$bad" ]; then t_pass "$label" "all six checkpoints listed by the judge, SKIP without a GPU judged and linked alike, the runners linked with the week's launcher (in the sandbox too), the judge alone the same, plain and sandboxed"
else t_fail "$label" "$bad (see $log)"; fi
t_end
