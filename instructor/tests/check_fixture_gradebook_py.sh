#!/usr/bin/env bash
# check_fixture_gradebook_py.sh GRADEBOOK nogpu|interp|gpu — what grading the
# Python fixture class (instructor/fixtures/classpy.sh: week 43's Triton
# kernels) must give. Cells are found by their header ("phase7/week43 w43.add
# (10)"); the reasons by the feedback, GRADEBOOK-feedback/ID.md.
#   nogpu   WB_NO_GPU=1 (or no torch): every Python checkpoint SKIP, every total 0
#   interp  TRITON_INTERPRET=1 without a GPU: correctness judged by Triton's
#           interpreter on the CPU, the speed checkpoint SKIP
#   gpu     on a GPU: correct full marks but for speed credit as the rules
#           give it, wrong 0 on w43.add only, crash and unwritten 0 everywhere
set -u
gb=${1:?gradebook}; mode=${2:?nogpu, interp or gpu}
fb=${gb%.csv}-feedback
W=phase7/week43
bad=0
cell() { # cell STUDENT CHECKPOINT: that student's cell of the checkpoint
  awk -F, -v s="$1" -v h="$W $2 " 'NR == 1 { for (i = 2; i <= NF; i++) if (index($i, h) == 1) c = i; next }
    $1 == s && c { print $c }' "$gb"
}
col() { awk -F, -v s="$1" -v h="$2" 'NR == 1 { for (i = 1; i <= NF; i++) if ($i == h) c = i; next } $1 == s { print $c }' "$gb"; }
is() { # is STUDENT CHECKPOINT VALUE...: the cell is one of the values
  local got; got=$(cell "$1" "$2"); shift 2
  for v in "$@"; do [ "$got" = "$v" ] && return 0; done
  echo "fixture $s: $cp is '$got', expected $*"; bad=1
}
expect() { # expect STUDENT add fused softmax softmax-speed ('-' skips a cell)
  s=$1; shift
  for cp in w43.add w43.fused w43.softmax w43.softmax-speed; do
    [ "$1" = - ] || is "$s" "$cp" "$1"; shift
  done
}
said() { grep -qF -- "$2" "$fb/$1.md" 2>/dev/null || { echo "fixture $1: its feedback does not say \"$2\""; bad=1; }; }
positive() { awk -v v="$1" 'BEGIN { exit !(v + 0 > 0) }'; }

[ -f "$gb" ] || { echo "no gradebook $gb"; exit 1; }
[ "$(grep -c . "$gb")" = 5 ] || { echo "expected a header and 4 students (correct crash unwritten wrong) in $gb"; bad=1; }
for cp in w43.add w43.fused w43.softmax w43.softmax-speed; do
  head -1 "$gb" | grep -qF ",$W $cp (" || { echo "no column for $W $cp in $gb"; bad=1; }
done

case $mode in
nogpu)
  for s in correct wrong crash unwritten; do
    expect $s SKIP SKIP SKIP SKIP
    [ "$(col $s total)" = 0.00 ] || { echo "fixture $s: total $(col $s total), expected 0.00"; bad=1; }
    said $s "not graded: "
  done ;;
interp)
  expect correct 10.00 10.00 10.00 SKIP
  expect wrong 0.00 10.00 10.00 SKIP
  said wrong "elements wrong"
  # each exercise dies on import: every checkpoint that imports one fails (the speed test skips before it imports)
  expect crash 0.00 0.00 0.00 -
  said crash "crash (the Python test process died)"
  said crash "exit status 0"
  said crash "SIGSEGV"
  expect unwritten 0.00 0.00 0.00 -
  for s in correct wrong crash unwritten; do said $s "TRITON_INTERPRET=1"; done ;;
gpu)
  expect correct 10.00 10.00 10.00 -
  sp=$(cell correct w43.softmax-speed)
  positive "$sp" || { echo "fixture correct: w43.softmax-speed $sp, expected speed credit (10.00 at or above the target, in proportion below it)"; bad=1; }
  expect wrong 0.00 10.00 10.00 -
  positive "$(cell wrong w43.softmax-speed)" || { echo "fixture wrong: w43.softmax-speed $(cell wrong w43.softmax-speed): its softmax is right"; bad=1; }
  said wrong "elements wrong"
  expect crash 0.00 0.00 0.00 0.00
  said crash "crash (the Python test process died)"
  said crash "exit status 0"
  said crash "SIGSEGV"
  [ "$(col crash total)" = 0.00 ] || { echo "fixture crash: total $(col crash total), expected 0.00"; bad=1; }
  expect unwritten 0.00 0.00 0.00 0.00
  [ "$(col unwritten total)" = 0.00 ] || { echo "fixture unwritten: total $(col unwritten total), expected 0.00"; bad=1; } ;;
*) echo "mode: nogpu, interp or gpu"; exit 2 ;;
esac
[ $bad = 0 ] && echo "Python fixture gradebook ($mode): as expected"
exit $bad
