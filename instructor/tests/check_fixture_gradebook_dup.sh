#!/usr/bin/env bash
# check_fixture_gradebook_dup.sh GRADEBOOK — what grading the duplicate-id
# class (instructor/fixtures/hostile.sh's DUPCLASS) without a GPU must give:
# a bad submission never blocks the class.
#   dup       dup/ beside dup.tar.gz: refused, 0 in every cell, both named
#   bad_name  'bad name.tar.gz' (a blank: no id): refused under a stand-in id
#   _1+1      '+1+1.tar.gz' (a formula in a spreadsheet's cell): refused under a stand-in id
#   termobj   a symbol named with escape sequences: 0 by the object check, no refusal
#   fine      the reference: graded (every GPU checkpoint SKIP here)
set -u
gb=${1:?gradebook}
fb=${gb%.csv}-feedback
bad=0
row() { awk -F, -v s="$1" '$1 == s' "$gb"; }
# the cells of a student's checkpoints (the week's columns), comma-separated
cells() { awk -F, -v s="$1" 'NR == 1 { for (i = 2; i <= NF; i++) if ($i ~ /^phase0\/week01 /) c[++n] = i; next }
  $1 == s { for (k = 1; k <= n; k++) printf "%s%s", (k > 1 ? "," : ""), $(c[k]); print "" }' "$gb"; }
head -1 "$gb" | grep -q ',refused$' || { echo "no refused column in $gb"; bad=1; }
[ "$(grep -c . "$gb")" = 6 ] || { echo "expected a header and 5 students in $gb"; bad=1; }
for s in dup bad_name _1+1 termobj; do
  [ -n "$(row $s)" ] || { echo "no row for $s"; bad=1; continue; }
  tr , '\n' <<<"$(cells $s)" | grep -qvx 0.00 && { echo "$s: cells $(cells $s), expected 0.00 each"; bad=1; }
done
row dup | grep -q 'refused: 2 submissions of student dup (dup and dup.tar.gz): keep one' ||
  { echo "dup: no reason naming both: $(row dup)"; bad=1; }
row bad_name | grep -qF "refused: the entry 'bad name.tar.gz' cannot be a student id" ||
  { echo "bad_name: no reason naming the entry: $(row bad_name)"; bad=1; }
row _1+1 | grep -qF "refused: the entry '+1+1.tar.gz' cannot be a student id" ||
  { echo "_1+1: no reason naming the entry: $(row _1+1)"; bad=1; }
grep -E '^[-+=@]' "$gb" && { echo "a gradebook row begins with a formula character"; bad=1; }
grep -q "not the exercise's API" "$fb/termobj.md" 2>/dev/null || { echo "termobj: its feedback does not name the symbol's finding"; bad=1; }
LC_ALL=C grep -q $'\x1b' "$gb" "$fb"/*.md && { echo "an escape character in the gradebook or the feedback"; bad=1; }
grep -q 'keep one and grade again `. Every checkpoint scores 0' "$fb/dup.md" 2>/dev/null || { echo "dup: its feedback lacks the reason"; bad=1; }
tr , '\n' <<<"$(cells fine)" | grep -qvx SKIP && { echo "fine: cells $(cells fine), expected SKIP each (graded, no GPU)"; bad=1; }
[ "$(row fine | awk -F, '{ print $NF }')" = "" ] || { echo "fine: refused? $(row fine)"; bad=1; }
[ $bad = 0 ] && echo "duplicate-id class gradebook: as expected"
exit $bad
