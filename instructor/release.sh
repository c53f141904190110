#!/usr/bin/env bash
# release.sh OUT [WEEK...] — the student copy of the workbook in OUT.
#
# Copies the files git tracks (`git ls-files`: never an untracked or ignored
# file, so a scratch file or an earlier release lying in the tree is not
# shipped) of the whole workbook, or of the weeks named and every week they
# use (week.txt's `uses:` and `pyuses:`, as `wb week-info W uses|pyuses`
# reads them, followed through), leaving out what would give solutions away
# or is for instructors:
#   - every phaseP/weekNN/solution/ (a pristine starter is kept instead in
#     phaseP/weekNN/.starter/EX.cu, so `make ... reset` still works), and the
#     exercise files EX.cu are rewritten as that pristine starter;
#   - instructor/ (grading tools, fixtures, quiz answers, and `quiz grade`:
#     the copy's quiz program is built without it) and every
#     phaseP/weekNN/instructor/ (hidden tests, forbidden libraries, points);
#   - .helpers/, .ci/ (its `make test` checks solutions), .git;
#   - phaseP/README.md and phaseP/common/ of phases with no released week
#     (but phase7/common/, Phase 7's Python runner, ships with any week that
#     has Python tests).
# Nothing is rewritten: a week's support files include a reference exercise
# by its bare name ("naive.cu"), which make resolves to the learner's own file
# in a copy without solution/ folders. In every Markdown file (*.md: the top
# README, the phases' and weeks' READMEs, the notebook), the lines between
# "<!-- wb:instructor -->" and "<!-- wb:end -->" are left out of the copy and
# those between "<!-- wb:student" and "wb:student -->" shown (AUTHORING.md,
# "Instructor-only lines"); a marker left open, nested or stray refuses the
# release, naming its file and line.
# OUT must be outside the workbook (else a second release would ship the
# first) and new or empty.
# Then checks the copy: no solution/ or instructor/ folder, no //@solution
# marker, no file byte-identical to a solution file, no line of a solution's
# code in any file (build/instructor/leakcheck), no support file naming a
# solution/ path, no plain quiz answer, no key or explanation in a graded quiz,
# and no shipped Markdown file (AUTHORING.md too: its authors' parts are
# wb:instructor blocks), week.txt or starter naming IMPL=solution, an
# instructor/ path or make tune-, and no shipped Markdown naming a commit of
# the workbook's history, each line reported as FILE:LINE.
set -euo pipefail
out=${1:?usage: release.sh OUT [WEEK...]}
shift
root=$(cd "$(dirname "$0")/.." && pwd -P)
cd "$root"
wb=build/wb leak=build/instructor/leakcheck
for t in $wb $leak; do
  [ -x $t ] || { echo ">>> $t is missing: run make $t first (make release builds it)" >&2; exit 2; }
done
out_abs=$(realpath -m -- "$out")
case "$out_abs/" in
  "$root"/*) echo ">>> OUT=$out is inside the workbook ($root): a second release would ship the first; give a folder outside it" >&2; exit 2 ;;
esac
if [ -e "$out" ] && [ -n "$(ls -A "$out" 2>/dev/null)" ]; then
  echo ">>> $out exists and is not empty; give a new folder" >&2; exit 2
fi
all_weeks=$(ls -d phase[0-9]/week[0-9][0-9] 2>/dev/null | while read -r w; do [ -f "$w/week.txt" ] && echo "$w"; done)
if [ $# -gt 0 ]; then
  weeks=""
  for w in "$@"; do
    w=${w%/}
    [[ $w =~ ^(phase[0-9])/week([0-9])$ ]] && w="${BASH_REMATCH[1]}/week0${BASH_REMATCH[2]}"
    [ -f "$w/week.txt" ] || { echo ">>> $w is not a week of this workbook" >&2; exit 2; }
    [[ " $weeks " == *" $w "* ]] || weeks="$weeks $w"
  done
else
  weeks=$(echo $all_weeks)
fi
# The weeks they use, and the weeks those use: the copy builds them from the
# learner's own files. uses: (linked into the C test) and pyuses: (built or
# imported by the week's Python part: week 52's capstone) alike.
asked=$weeks   # the weeks named (or all): the "Try it" line names the first of them
added="" todo="$weeks"
while [ -n "$(echo $todo)" ]; do
  next=""
  for w in $todo; do
    uses=$($wb week-info "$w" uses && $wb week-info "$w" pyuses) ||
      { echo ">>> $w/week.txt cannot be read (above)" >&2; exit 2; }
    for d in $uses; do
      [[ " $weeks $added " == *" $d "* ]] && continue
      added="$added $d" next="$next $d"
    done
  done
  todo=$next
done
if [ -n "$added" ]; then
  weeks="$weeks$added"
  echo "Also released, because the weeks asked for use them (week.txt uses:/pyuses:; built from the learner's own files):$added"
fi
# A release ships what git tracks: a week whose files are not committed yet
# (or not even added) would go out without them.
for w in $weeks; do
  if ! git ls-files --error-unmatch -- "$w/week.txt" >/dev/null 2>&1; then
    echo ">>> $w is not tracked by git, and a release ships only what git tracks: git add $w (and commit), then release again" >&2
    exit 2
  fi
  if [ -n "$(git status --porcelain --untracked-files=all -- "$w" 2>/dev/null | grep '^??')" ]; then
    echo "note: files of $w that git does not track are not shipped: $(git status --porcelain --untracked-files=all -- "$w" | sed -n 's/^?? //p' | head -5 | tr '\n' ' ')" >&2
  fi
done
phases=" $(for w in $weeks; do echo "${w%%/*}"; done | sort -u | tr '\n' ' ')"
# Python tests of any phase (weeks 52 and 63 of Phase 8) run through Phase 7's
# runner and pytest plugin (phase7/common/): shipped with them, or the copy's
# `make check` would find no runner for their checkpoints; and with them
# phase7/requirements.txt, which `make check` names when a module is missing.
pycommon=0
for w in $weeks; do ls "$w"/test_*.py >/dev/null 2>&1 && pycommon=1; done
mkdir -p "$out"
out=$(cd "$out" && pwd -P)

# Files to ship: what git tracks, minus weeks and phases not chosen and
# instructor-only paths.
git ls-files -z | while IFS= read -r -d '' f; do
  case "$f" in
    instructor/*|.helpers/*|.ci/*|*/solution/*|phase*/week*/instructor/*) continue ;;
  esac
  if [[ $f =~ ^(phase[0-9]/week[0-9][0-9])/ ]]; then
    [[ " $weeks " == *" ${BASH_REMATCH[1]} "* ]] || continue
  elif [[ $f =~ ^(phase[0-9])/ ]]; then
    [[ "$phases" == *" ${BASH_REMATCH[1]} "* ]] || { [ $pycommon = 1 ] && [[ $f == phase7/common/* || $f == phase7/requirements.txt ]]; } || continue
  fi
  [ -f "$f" ] || continue
  mkdir -p "$out/$(dirname "$f")"
  cp -p "$f" "$out/$f"
done

# Every Markdown file as the copy needs it: no instructor-only lines. A
# marker is a line of its own (indented in a list item if need be); a block
# left open, a marker inside a block, a stray "wb:student -->" or a line that
# looks like a marker but is none (misspelt, not alone on its line) is
# reported as FILE:LINE and refuses the release (below), since what it hides
# would ship. A line in a fenced code block (``` or ~~~, closed by a fence
# of the same character at least as long) is text, never a marker; a fence
# left open at the end of a file refuses the release, since every marker
# after it would be text.
md_bad=0
while IFS= read -r -d '' f; do
  awk -v name="$f" '
    function err(line, msg) { printf "release check: %s:%d: %s\n", name, line, msg > "/dev/stderr"; bad = 1 }
    function out() { if (open != "instructor") { print; blank = $0 == ""; dropped = 0 } }
    fence == "" && match($0, /^[[:space:]]*(```+|~~~+)/) {
      fence = substr($0, RSTART, RLENGTH); sub(/^[[:space:]]*/, "", fence); fat = NR; out(); next }
    fence != "" {
      line = $0; sub(/^[[:space:]]*/, "", line); sub(/[[:space:]]*$/, "", line)
      if (line ~ (substr(fence, 1, 1) == "`" ? "^`+$" : "^~+$") && length(line) >= length(fence)) fence = ""
      out(); next }
    /^[[:space:]]*<!-- wb:instructor -->[[:space:]]*$/ {
      if (open != "") err(NR, "<!-- wb:instructor --> inside the wb:" open " block of line " at)
      else { open = "instructor"; at = NR }
      next }
    /^[[:space:]]*<!-- wb:end -->[[:space:]]*$/ && open == "instructor" { open = ""; dropped = 1; next }
    /^[[:space:]]*<!-- wb:student[[:space:]]*$/ {
      if (open != "") err(NR, "<!-- wb:student inside the wb:" open " block of line " at)
      else { open = "student"; at = NR }
      next }
    /^[[:space:]]*wb:student -->[[:space:]]*$/ {
      if (open != "student") err(NR, "wb:student --> with no <!-- wb:student open before it")
      else open = ""
      next }
    open == "instructor" { next }
    /^[[:space:]]*<!--[[:space:]]*(wb:)?\/?(instructor|student)|wb:student[[:space:]]*-->[[:space:]]*$/ {
      err(NR, "looks like a wb:instructor or wb:student marker the release did not recognise (a marker is alone on its line, spelt as in AUTHORING.md): " substr($0, 1, 120)) }
    $0 == "" && blank && dropped { next }   # no two blank lines where a block was left out
    { out() }
    END {
      if (fence != "") err(fat, "the fence " fence " opened here is never closed: every marker after it would be text")
      if (open != "") {
        err(at, "<!-- wb:" open (open == "instructor" ? " --> has no <!-- wb:end -->" : " has no wb:student -->") " after it: the rest of the file would ship")
      }
      exit bad }' "$f" > "$out/$f" || md_bad=1
done < <(cd "$out" && find . -type f -name '*.md' -printf '%P\0' | sort -z)

# Pristine starters: EX.cu and the copy reset uses.
for w in $weeks; do
  mkdir -p "$out/$w/.starter"
  for ex in $($wb week-info "$w" exercises); do
    if [ -f "$w/solution/$ex.cu" ]; then $wb strip "$w/solution/$ex.cu" > "$out/$w/.starter/$ex.cu"
    else cp "$w/.starter/$ex.cu" "$out/$w/.starter/$ex.cu"; fi
    cp "$out/$w/.starter/$ex.cu" "$out/$w/$ex.cu"
  done
  for ex in $($wb week-info "$w" pyexercises); do   # Phase 7: Python exercises, #@ regions
    if [ -f "$w/solution/$ex.py" ]; then $wb strip "$w/solution/$ex.py" > "$out/$w/.starter/$ex.py"
    else cp "$w/.starter/$ex.py" "$out/$w/.starter/$ex.py"; fi
    cp "$out/$w/.starter/$ex.py" "$out/$w/$ex.py"
  done
done

# Checks: nothing in the copy gives a solution away.
bad=$md_bad
if find "$out" -type d \( -name solution -o -name instructor \) | grep -q .; then
  echo "release check: a solution/ or instructor/ folder is in the copy" >&2; bad=1; fi
# No shipped Markdown file (AUTHORING.md too), week.txt or starter tells the
# learner to run the solution or points into instructor/ (AUTHORING.md), or
# to the instructor's README by name: the copy has none of them. Each line as FILE:LINE: TEXT.
pointing=$(cd "$out" && {
  find . -type f -name '*.md' -print0 | sort -z | xargs -0r grep -nE 'IMPL=solution|instructor/|make tune-|instructor.s README'
  grep -nE 'instructor/|make tune-' phase*/week*/week.txt phase*/week*/*.cu phase*/week*/*.py 2>/dev/null
} | sed 's|^\./||; s|^\([^:]*:[0-9]*:\)|\1 |' || true)
if [ -n "$pointing" ]; then
  echo "$pointing" | cut -c1-200 | sed 's/^/release check: /' >&2
  echo "release check: the lines above name IMPL=solution, an instructor/ path, make tune- or the instructor's README, which a student copy lacks: put them between <!-- wb:instructor --> and <!-- wb:end --> (AUTHORING.md) or say it so that it reads true without them" >&2
  bad=1; fi
# No shipped Markdown names a commit of the workbook's history, which the copy
# lacks. A candidate is a word of 7 to 40 hex digits, at least one a letter
# (an all-digit word is a number: a seed, a size); it is refused when git
# resolves it to a commit here. A mask (0x1f: no such word), a SHA-256 sum
# (64 digits) or a hex word no commit starts with is text; a prefix that two
# commits share counts (`git cat-file -e PREFIX^{commit}` fails on it as
# ambiguous, so every object the prefix names is asked). Words are split at
# anything but a letter or a digit, '_' too (grep's \b is not: an italic
# _abc1234_ was no word), and upper case is a hash too (git reads ABC1234).
commits=$(cd "$out" && find . -type f -name '*.md' -print0 | sort -z | xargs -0r awk '{
    n = split($0, w, /[^0-9A-Za-z]+/)
    for (i = 1; i <= n; i++)
      if (length(w[i]) >= 7 && length(w[i]) <= 40 && w[i] ~ /^[0-9A-Fa-f]+$/ && w[i] ~ /[A-Fa-f]/)
        print FILENAME ":" FNR ":" tolower(w[i]) }' | sed 's|^\./||' || true)
if [ -n "$commits" ]; then
  named=$(echo "$commits" | awk -F: '{ print $NF }' | sort -u | while read -r h; do
    git rev-parse --disambiguate="$h" 2>/dev/null | while read -r o; do
      [ "$(git cat-file -t "$o")" = commit ] && { echo "$h"; break; }; done; done || true)
  [ -n "$named" ] && echo "$commits" | awk -F: -v named=" $(echo $named) " 'index(named, " " $NF " ") {
    printf "release check: %s:%s: names commit %s of the workbook'"'"'s history, which a student copy lacks: put it between <!-- wb:instructor --> and <!-- wb:end --> (AUTHORING.md) or leave it out\n", $1, $2, $NF }' >&2 &&
    bad=1
fi
marked=$(grep -rIlE -- '^[[:space:]]*(//|#)@solution' "$out"/phase* 2>/dev/null || true)
if [ -n "$marked" ]; then
  echo "release check: //@solution regions in: $(echo $marked)" >&2; bad=1; fi
for s in $(git ls-files 'phase*/week*/solution/*' 'instructor/*'); do
  [ -f "$s" ] || continue
  sum=$(sha256sum < "$s" | cut -c1-64)
  if find "$out" -type f -size "$(stat -c %s "$s")c" -exec sha256sum {} + | grep -q "^$sum"; then
    echo "release check: a copy of $s is in the release" >&2; bad=1; fi
done
# Any line of a solution's code, wherever it sits (support files, headers, docs).
if ! $leak "$root" "$out" instructor/leakcheck-allow.txt >&2; then
  echo "release check: the copy holds solution code (lines above: file:line: which solution)" >&2; bad=1; fi
# A support file that names a solution/ path would not build in the copy.
paths=$(grep -rlE 'solution/' "$out"/phase*/week*/support 2>/dev/null || true)
if [ -n "$paths" ]; then
  echo "release check: support files name a solution/ path (include the exercise by its bare name; week.txt uses:): $(echo $paths)" >&2; bad=1; fi
for w in $weeks; do
  for f in week.txt README.md; do
    [ -f "$out/$w/$f" ] || { echo "release check: $w/$f is missing from the copy" >&2; bad=1; }
  done
done
if grep -rIlE '^[[:space:]]*(answer|explain):' "$out/quizzes" 2>/dev/null | grep -q .; then
  echo "release check: plain quiz answers in quizzes/" >&2; bad=1; fi
# A graded quiz (`graded: yes` in its source or its copy) is sealed with no
# key and no explanation (see quizzes/quiz.c): a copy sealed before the quiz
# was marked graded would let `take` tell the answers.
for q in "$out"/quizzes/*.txt; do
  [ -f "$q" ] || continue
  if grep -qsE '^[[:space:]]*graded:[[:space:]]*yes' "$q" "instructor/quizzes/$(basename "$q")" &&
     { ! grep -qE '^graded:[[:space:]]*yes' "$q" || grep -qE '^[[:space:]]*(key|why):' "$q"; }; then
    echo "release check: quizzes/$(basename "$q") is a graded quiz, but its copy holds keys or explanations: run make quiz-seal" >&2; bad=1; fi
done
[ $bad = 0 ] || { echo ">>> release in $out FAILED its checks (above); do not hand it out" >&2; exit 1; }
n=$(find "$out" -type f | wc -l)
echo "Student copy in $out: $(echo $weeks | wc -w) week(s), $n files; no solution/, no instructor/, starters kept in WEEK/.starter/."
first=$(echo $asked | tr " " "\n" | sort | head -1)
echo "Try it: cd $out && make $first check"
