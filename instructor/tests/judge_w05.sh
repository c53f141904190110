#!/usr/bin/env bash
# instructor/tests/judge_w05.sh — week 05 graded with its judge without a GPU
# (instructor/README.md, "The judge and the runner"; build/instructor/judge-w05).
# Its CPU checkpoint, w05.views, is judged through the runner with or without
# a GPU (the views functions called by the runner on arrays in a host buffer
# both map). The class: the reference (PASS), the starter (FAIL) and size1
# (the reference with size-1 dimensions breaking a chunk in views_strides:
# the brute force finds it, so w05.views FAILs). Graded with --judge 1 and
# without it: the same cells. The grader says which checkpoints it leaves to
# the test program (w05.streams, w05.event-timing, w05.default-stream:
# judge-w05 --list does not name them). The judge by itself over the
# reference's and the starter's runners, plain and in the sandbox: every GPU
# checkpoint SKIP, never PASS. Needs libarchive and a working bwrap.
. "$(dirname "$0")/lib.sh"
t_begin instructor-judge-w05

label="grade --judge 1: week 05 judged outside the student's process, without a GPU"
grading_or_skip "$label"
log=$BUILD/instructor/judge-w05-test
rm -rf "$log" && mkdir -p "$log/scratch/judged" "$log/scratch/linked" && chmod 755 "$log" "$log/scratch" "$log/scratch/judged" "$log/scratch/linked"
c=$log/class
bad=
mkdir -p "$c/correct/phase1/week05" "$c/starter/phase1/week05" "$c/size1/phase1/week05"
cp phase1/week05/solution/ew.cu phase1/week05/solution/views.cu phase1/week05/solution/streams.cu "$c/correct/phase1/week05/"
put_starters phase1/week05 "$c/starter/phase1/week05"
cp "$c/correct/phase1/week05/"*.cu "$c/size1/phase1/week05/"
sed -i 's/(shape\[d - 1\] != 1 && strides\[d - 1\]/(strides[d - 1]/' "$c/size1/phase1/week05/views.cu"
grep -q '(strides\[d - 1\] != tensor_numel' "$c/size1/phase1/week05/views.cu" || bad="$bad size1's views.cu was not made;"
judge_grade_twice 05 phase1/week05 "$c" "$log" ||
  { t_fail "$label" "judge-w05 or the grader does not build (see $log/build.log)"; t_end; }
# the eight checkpoints in week.txt's order: gridstride index views streams event-timing default-stream overlap gridstride-bw
cells() { awk -F, -v who="$2" '$1 == who { print $2 "," $3 "," $4 "," $5 "," $6 "," $7 "," $8 "," $9 }' "$log/$1.csv"; }
for who in correct starter size1; do
  # GPU checkpoints SKIP; views (CPU) full marks or 0
  case $who in
    correct) want="SKIP,SKIP,*,SKIP,SKIP,SKIP,SKIP,SKIP" ;;
    *) want="SKIP,SKIP,0.00,SKIP,SKIP,SKIP,SKIP,SKIP" ;;
  esac
  for how in judged linked; do
    got=$(cells $how $who)
    ok=0
    # shellcheck disable=SC2053
    [[ -n $got && $got == $want ]] && ok=1
    [[ $who = correct && ($got == SKIP,SKIP,0.00,* || $got == SKIP,SKIP,SKIP,*) ]] && ok=0
    [ $ok = 1 ] || bad="$bad $who: $how $got, expected $want;"
  done
  [ "$(cells judged $who)" = "$(cells linked $who)" ] || bad="$bad $who: judged $(cells judged $who) but linked $(cells linked $who);"
done
grep -q "phase1/week05: judged outside the student's process (--judge 1); left to its test program (.*): w05.streams, w05.event-timing, w05.default-stream$" \
  "$log/judged.log" || bad="$bad the grader did not say it judges week 05 and leaves w05.streams, w05.event-timing, w05.default-stream to the test program;"
grep -q "brute force says" "$log/judged-feedback/size1.md" 2>/dev/null || bad="$bad size1's FAIL does not name the brute force;"
# the judge by itself: the reference's runner and the starter's, plain and sandboxed; every GPU checkpoint SKIP
for impl in solution starter; do
  for how in plain sandbox; do
    got=$(judge_alone 05 phase1/week05 $impl $how "$log")
    want=$([ $impl = solution ] && echo skip,skip,pass,skip,skip || echo skip,skip,fail,skip,skip)
    [ "$got" = "$want" ] || bad="$bad judge-w05 over the $impl's runner ($how): $got, expected $want;"
  done
done
[ "$("$BUILD/instructor/judge-w05" --list | tr '\n' ' ')" = "w05.gridstride w05.index w05.views w05.overlap w05.gridstride-bw " ] ||
  bad="$bad judge-w05 --list: $("$BUILD/instructor/judge-w05" --list | tr '\n' ' ');"
c5=$(bash instructor/judge_calibrate.sh "$BUILD" phase1/week05)
[[ $c5 == *"w05.gridstride-bw not run"* ]] || bad="$bad calibration of week 05 without a GPU: '$c5';"
if [ -z "$bad" ]; then t_pass "$label" "views judged through the runner (the reference PASSes; the starter and a views_strides that lets size-1 dimensions break a chunk FAIL, as linked), the GPU checkpoints SKIP, streams, event-timing and default-stream left to the test program; the judge alone the same, plain and sandboxed"
else t_fail "$label" "$bad (see $log)"; fi
t_end
