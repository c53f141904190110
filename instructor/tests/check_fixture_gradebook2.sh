#!/usr/bin/env bash
# check_fixture_gradebook2.sh GRADEBOOK nogpu|gpu — what grading the second
# fixture class (instructor/fixtures/class2.sh: weeks 07 and 22) must give.
# Cells are found by their checkpoint's week in the header ("phase1/week07
# w07.reduce (10)"), so the check does not hard-code the weeks' checkpoints.
set -u
gb=${1:?gradebook}; mode=${2:?nogpu or gpu}
fb=${gb%.csv}-feedback
bad=0
# cells STUDENT WEEKPREFIX: that student's cells of one week, comma-separated
cells() {
  awk -F, -v s="$1" -v w="$2" 'NR == 1 { for (i = 2; i <= NF; i++) if (index($i, w " ") == 1) c[++n] = i; next }
    $1 == s { for (k = 1; k <= n; k++) printf "%s%s", (k > 1 ? "," : ""), $(c[k]); print "" }' "$gb"
}
col() { awk -F, -v s="$1" -v h="$2" 'NR == 1 { for (i = 1; i <= NF; i++) if ($i == h) c = i; next } $1 == s { print $c }' "$gb"; }
all() { # all STUDENT WEEK VALUE: every cell of the week is VALUE
  local got; got=$(cells "$1" "$2")
  [ -n "$got" ] || { echo "fixture $1: no cells of $2 in $gb"; bad=1; return; }
  local odd; odd=$(tr , '\n' <<<"$got" | grep -vx -- "$3" | head -1)
  [ -z "$odd" ] || { echo "fixture $1: $2 gave $got, expected every cell $3"; bad=1; }
}
said() { grep -qF -- "$2" "$fb/$1.md" 2>/dev/null || { echo "fixture $1: its feedback does not say \"$2\""; bad=1; }; }

[ "$(grep -c . "$gb")" = 8 ] || { echo "expected a header and 7 students in $gb"; bad=1; }
# refused by the object check whatever the GPU: the whole week scores 0
all cubcall phase1/week07 0.00; said cubcall "uses cub (forbidden this week)"
all yardcall phase1/week07 0.00; said yardcall "uses yard_* (forbidden this week)"
all cublascall phase5/week22 0.00; said cublascall "uses cublas (forbidden this week)"
# cuBLAS's header without a call is a warning, never a zero; Thrust's header is Thrust (header-only)
said cublasinc "Warning: \` header: "; said cublasinc "the include alone costs nothing"; said cublasinc "cublas_v2.h: a header of cublas"
! grep -q "object check refused" "$fb/cublasinc.md" || { echo "fixture cublasinc: refused by the object check"; bad=1; }
all thrustinc phase5/week22 0.00; said thrustinc "a header of thrust (forbidden this week)"
[ "$(col cubcall total)" = 0.00 ] && [ "$(col yardcall total)" = 0.00 ] && [ "$(col cublascall total)" = 0.00 ] ||
  { echo "a refused fixture has points: cubcall $(col cubcall total), yardcall $(col yardcall total), cublascall $(col cublascall total)"; bad=1; }

# a week with no file in the submission is neither built nor run: 0, with or without a GPU, and said so
for s in cubcall yardcall; do all $s phase5/week22 0.00; said $s "No file of phase5/week22 was in the submission"; done
for s in cublascall cublasinc thrustinc slow22; do all $s phase1/week07 0.00; said $s "No file of phase1/week07 was in the submission"; done
! grep -q "tiled.cu was not in the submission" "$fb/cubcall.md" || { echo "fixture cubcall: week 22's starter was graded"; bad=1; }
# and where the grader looked, with what the submission holds instead
said cubcall "The grader looks for tiled.cu in a folder phase5/week22/ at the submission's top or one folder down; the submission's .cu and .py files: \` phase1/week07/reduce.cu \`."
if [ "$mode" = nogpu ]; then
  # every checkpoint of both weeks needs the GPU
  all correct2 phase1/week07 SKIP
  for s in correct2 slow22 cublasinc; do all $s phase5/week22 SKIP; done
else
  t=$(col correct2 total); o=$(col correct2 out_of)
  awk -v t="$t" -v o="$o" 'BEGIN { exit !(t == o) }' || { echo "correct2: $t of $o, expected full marks"; bad=1; }
  # the reference with an unused cuBLAS include: week 22's marks of the reference itself
  [ "$(cells cublasinc phase5/week22 | cut -d, -f1)" = "$(cells correct2 phase5/week22 | cut -d, -f1)" ] ||
    { echo "cublasinc: week 22 gave $(cells cublasinc phase5/week22), correct2 $(cells correct2 phase5/week22)"; bad=1; }
  IFS=, read -r tiled speed <<<"$(cells slow22 phase5/week22)"
  awk -v a="$tiled" -v b="$speed" 'BEGIN { exit !(a > 0 && b > 0 && b < a) }' ||
    { echo "slow22: w22.tiled $tiled, w22.tiled-speed $speed: expected full correctness and partial speed credit"; bad=1; }
fi
[ $bad = 0 ] && echo "fixture gradebook 2 ($mode): as expected"
exit $bad
