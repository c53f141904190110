#!/usr/bin/env bash
# instructor/tests/grade_uses.sh — a week whose exercises call a week it
# uses (week.txt's uses:) graded without a GPU: week 34's attention calls
# week 33's qkt_scores and mask_scores, week 55's GEMM week 54's descriptor
# function. Their test programs link the used week's reference objects; the
# object check must take those functions as the week's own given code, not
# refuse them ("not on the allow-list of references", which scored every
# correct submission 0). A class of two for each week (the reference's
# files, the starter's, as `wb strip` derives them) graded with its linked
# test: the reference PASSes the week's CPU checkpoint (w34.traffic,
# w55.schedule), the starter FAILs it, no object-check finding, the GPU
# checkpoints SKIP. A third student submits no file of either week (a .cu in
# a stray folder): neither built nor run, every cell 0.00 (no SKIP: nothing
# is left to run on a GPU), and the feedback says where the grader looked and
# names the stray file. A fourth, peek, is the reference whose softmax.cu
# first asks for week 33's reference source (__has_include): it is not in
# the sandbox (the used weeks' reference objects are, in build/WEEK/prebuilt/,
# their exercise files the starters), so peek is graded as the reference.
. "$(dirname "$0")/lib.sh"
t_begin instructor-grade-uses

label="weeks that call a week they use, graded without a GPU"
grading_or_skip "$label"
log=$BUILD/instructor/grade-uses-test
rm -rf "$log" && mkdir -p "$log/scratch" && chmod 755 "$log" "$log/scratch"
bad=
for w in phase6/week34 phase5/week55; do
  mkdir -p "$log/class/correct/$w" "$log/class/starter/$w" "$log/class/nothing/$w"
  cp "$w"/solution/*.cu "$log/class/correct/$w/" && touch "$log/class/nothing/$w/notes.txt"
done
mkdir -p "$log/class/nothing/stray" && echo "/* in no week's folder */" >"$log/class/nothing/stray/attention.cu"
# peek: the reference, its softmax.cu first asking whether week 33's reference source is in the sandbox
mkdir -p "$log/class/peek/phase6/week34"
cp phase6/week34/solution/*.cu "$log/class/peek/phase6/week34/"
{ printf '#if __has_include("../week33/solution/qkt.cu") || __has_include("../week33/solution/mask.cu")\n'
  printf '#error "PEEK: week 33'"'"'s reference source is readable in the sandbox"\n#endif\n'
  cat phase6/week34/solution/softmax.cu; } >"$log/class/peek/phase6/week34/softmax.cu"
if ! $MAKE -s "$GRADE_BIN" "$BUILD/phase6/week34/starter/test" "$BUILD/phase5/week55/starter/test" >"$log/build.log" 2>&1; then
  t_fail "$label" "the grader or the weeks do not build (see $log/build.log)"; t_end
fi
for w in phase6/week34 phase5/week55; do
  put_starters "$w" "$log/class/starter/$w" || { t_fail "$label" "the starters of $w could not be derived"; t_end; }
done
# shellcheck disable=SC2046
WB_NO_GPU=1 "$GRADE_BIN" --root . --submissions "$log/class" --weeks "phase6/week34 phase5/week55" \
  --gradebook "$log/gradebook.csv" --seed "$SEED" --limit 60 --jobs 2 --scratch "$log/scratch" --keep-scratch 1 \
  $(grade_make_args) >"$log/grade.log" 2>&1
# the gradebook's columns: student, week 34's six checkpoints, week 55's three, total, out_of, skipped, seed
want_correct="correct,10.00,SKIP,SKIP,SKIP,SKIP,SKIP,10.00,SKIP,SKIP"
want_starter="starter,0.00,SKIP,SKIP,SKIP,SKIP,SKIP,0.00,SKIP,SKIP"
got_correct=$(grep '^correct,' "$log/gradebook.csv" | cut -d, -f1-10)
got_starter=$(grep '^starter,' "$log/gradebook.csv" | cut -d, -f1-10)
got_nothing=$(grep '^nothing,' "$log/gradebook.csv" | cut -d, -f1-10)
[ "$got_nothing" = "nothing,0.00,0.00,0.00,0.00,0.00,0.00,0.00,0.00,0.00" ] ||
  bad="$bad nothing submitted: '$got_nothing', expected every cell 0.00;"
grep -qF "in a folder phase6/week34/ at the submission's top or one folder down; the submission's .cu and .py files: \` stray/attention.cu \`." \
  "$log/gradebook-feedback/nothing.md" 2>/dev/null ||
  bad="$bad nothing submitted: the feedback does not say where the grader looked and what the submission holds;"
[ "$got_correct" = "$want_correct" ] || bad="$bad the reference: '$got_correct', expected '$want_correct';"
got_peek=$(grep '^peek,' "$log/gradebook.csv" | cut -d, -f2-7)
[ "$got_peek" = "10.00,SKIP,SKIP,SKIP,SKIP,SKIP" ] ||
  bad="$bad peek (the reference asking for week 33's reference source): '$got_peek', expected week 34 as the reference's;"
# the used weeks in a scratch copy: their reference's objects prebuilt, no reference source, the starters
t=$log/scratch/correct/wb
for v in phase6/week33 phase5/week54; do
  [ -e "$t/$v/solution" ] && bad="$bad $v/solution is in the scratch copy;"
  ls "$t/build/$v/prebuilt/"*.o >/dev/null 2>&1 || bad="$bad no prebuilt reference objects of $v in the scratch copy;"
done
cmp -s "$t/phase6/week33/qkt.cu" <(build/wb strip phase6/week33/solution/qkt.cu) ||
  bad="$bad week 33's qkt.cu in the scratch copy is not the pristine starter;"
[ "$got_starter" = "$want_starter" ] || bad="$bad the starter: '$got_starter', expected '$want_starter';"
! grep -q "object check" "$log/grade.log" || bad="$bad the object check found something: $(grep -m1 'object check' "$log/grade.log");"
if [ -z "$bad" ]; then t_pass "$label" "week 34 (uses week 33) and week 55 (uses week 54): the reference PASSes the CPU checkpoint, the starter FAILs it, no object-check finding, the GPU checkpoints SKIP; a student with no file of either week 0.00 throughout"
else t_fail "$label" "$bad (see $log)"; fi
t_end
