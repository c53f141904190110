#!/usr/bin/env bash
# instructor/tests/judge_w11.sh — week 11's judge without a GPU (instructor/
# README.md, "The judge and the runner"; instructor/judge_w11.c). Both of
# its checkpoints need a GPU, so without one each must be SKIP, never PASS:
# graded with --judge 1 (the runner linked in the sandbox from each
# student's polyt.o and the week's given support/yard_slow.o, started
# there, the record written by the judge) the cells are those of the same
# class graded without it; the judge lists both (none left to the linked
# test); its yard runner (the given kernel, no student object) is built
# beside it; and the judge by itself over the reference's and the starter's
# runners, as a plain child and in the sandbox, writes two SKIP records.
# Needs libarchive and a working bwrap. On a GPU: the commands at the end of
# instructor/README.md's week 11 entry.
. "$(dirname "$0")/lib.sh"
t_begin instructor-judge-w11

label="week 11 judged outside the student's process, without a GPU"
grading_or_skip "$label"
log=$BUILD/instructor/judge-w11-test
rm -rf "$log" && mkdir -p "$log/class/correct/phase2/week11" "$log/class/starter/phase2/week11" "$log/scratch"
chmod 755 "$log" "$log/scratch"
cp phase2/week11/solution/polyt.cu "$log/class/correct/phase2/week11/"
touch "$log/class/starter/phase2/week11/notes.txt"
if ! $MAKE -s judge-w11 "$GRADE_BIN" "$BUILD/phase2/week11/starter/test" >"$log/build.log" 2>&1; then
  tail -n 20 "$log/build.log"; t_fail "$label" "judge-w11 or the grader does not build (see $log/build.log)"; t_end
fi
bad=
J=$BUILD/instructor/judge-w11
want_ids=$(awk -F'[:|]' '/^checkpoint:/ { gsub(/ /, "", $2); print $2 }' phase2/week11/week.txt)
[ "$("$J" --list)" = "$want_ids" ] || bad="$bad judge-w11 --list is not week.txt's two checkpoints: $("$J" --list | tr '\n' ' ');"
# the runners: the student's polyt and the given kernel; the yard runner: the given kernel and no polyt
for impl in solution starter; do
  nm "$BUILD/phase2/week11/$impl/judge-runner" 2>/dev/null | grep -q ' T yard_polyt_given$' ||
    bad="$bad the $impl's runner lacks the week's given kernel;"
done
Y=$BUILD/instructor/judge-w11-yard-runner
if [ ! -x "$Y" ]; then bad="$bad no $Y beside the judge;"
elif ! nm "$Y" | grep -q ' T yard_polyt_given$' || nm "$Y" | grep -q ' T polyt$'; then
  bad="$bad the yard runner is not the given kernel alone;"
fi
# shellcheck disable=SC2046
grade() { WB_NO_GPU=1 "$GRADE_BIN" --root . --submissions "$log/class" --weeks phase2/week11 --gradebook "$log/$1.csv" \
  --seed "$SEED" --limit 60 --jobs 2 --scratch "$log/scratch/$1" --keep-scratch 1 $(grade_make_args) "${@:2}" \
  >"$log/$1.log" 2>&1; }
cells() { awk -F, -v who="$2" '$1 == who { print $2 "," $3 }' "$log/$1.csv"; }
mkdir -p "$log/scratch/judged" "$log/scratch/linked" && chmod 755 "$log/scratch/judged" "$log/scratch/linked"
grade judged --judge 1; grade linked
for who in correct starter; do
  for how in judged linked; do
    [ "$(cells $how $who)" = "SKIP,SKIP" ] || bad="$bad $who: $how $(cells $how $who), expected SKIP on both;"
  done
done
grep -q "phase2/week11: judged outside the student's process" "$log/judged.log" || bad="$bad the grader did not say it judges week 11;"
grep -q "left to its test program" "$log/judged.log" && bad="$bad the grader left a checkpoint of week 11 to the test program;"
# the learner's runner, linked in the sandbox: the student's polyt and the given kernel
for who in correct starter; do
  r=$log/scratch/judged/$who/wb/build/phase2/week11/learner/judge-runner
  if [ ! -x "$r" ]; then bad="$bad $who: no learner judge-runner in the scratch build;"
  elif ! nm "$r" | grep -q ' T yard_polyt_given$' || ! nm "$r" | grep -q ' T polyt$'; then
    bad="$bad $who: the learner's runner lacks polyt or the given kernel;"
  fi
done
ls "$log"/scratch/judged/*/judge-results-*w11.polyt* >/dev/null 2>&1 || bad="$bad the judge wrote no record of w11.polyt;"
# the judge by itself: two SKIP records, plain and sandboxed, whoever's runner
for impl in solution starter; do
  for how in plain sandbox; do
    got=$(judge_alone 11 phase2/week11 $impl $how "$log")
    [ "$got" = "skip,skip" ] || bad="$bad judge-w11 over the $impl's runner ($how): $got, expected two skip;"
  done
done
c11=$(bash instructor/judge_calibrate.sh "$BUILD" phase2/week11)
[[ $c11 == *"w11.polyt-speed not run"* ]] || bad="$bad calibration of week 11 without a GPU: '$c11';"
if [ -z "$bad" ]; then t_pass "$label" "both checkpoints listed by the judge, SKIP without a GPU judged and linked alike, the runners linked with the week's given kernel (in the sandbox too), the yard runner the given kernel alone, the judge alone the same, plain and sandboxed, calibration not run"
else t_fail "$label" "$bad (see $log)"; fi
t_end
