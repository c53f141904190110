#!/usr/bin/env bash
# release.sh OUT [WEEK...] — the student copy of the workbook in OUT.
#
# Copies the files git knows (tracked, or new and not ignored) of the whole
# workbook, or of the weeks named, leaving out what would give solutions away
# or is for instructors only:
#   - every phaseP/weekNN/solution/ (a pristine starter is kept instead in
#     phaseP/weekNN/.starter/EX.cu, so `make ... reset` still works), and the
#     exercise files EX.cu are rewritten as that pristine starter;
#   - instructor/ (grading tools, fixtures, quiz answers) and every
#     phaseP/weekNN/instructor/ (hidden tests, forbidden libraries, points);
#   - .helpers/, .ci/ (its `make test` checks solutions), .git.
# A week's support/*.cu may include an earlier week's solution (week 24's
# ladder runs the kernels of weeks 21-23; week 27 times itself against week
# 26): in the copy the include names the learner's own file of that week
# instead, and that week is released too.
# Then checks the copy: no solution/ or instructor/ folder, no //@solution
# marker, no file byte-identical to a solution file, no plain quiz answer, no
# key or explanation in a graded quiz.
set -euo pipefail
out=${1:?usage: release.sh OUT [WEEK...]}
shift
root=$(cd "$(dirname "$0")/.." && pwd)
cd "$root"
[ -x build/wb ] || { echo ">>> build/wb is missing: run make build/wb first" >&2; exit 2; }
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
    weeks="$weeks $w"
  done
else
  weeks=$(echo $all_weeks)
fi
# Weeks whose solutions a released week's support files include.
deps_of() { grep -ohE '\.\./\.\./week[0-9]{2}/solution/' "$1"/support/*.cu 2>/dev/null \
  | sed -E "s#\.\./\.\./(week[0-9]{2})/solution/#${1%%/*}/\1#" | sort -u || true; }
added=""
for w in $weeks; do
  for d in $(deps_of "$w"); do
    [[ " $weeks $added " == *" $d "* ]] || added="$added $d"
  done
done
if [ -n "$added" ]; then
  weeks="$weeks$added"
  echo "Also released, because the weeks asked for run their kernels (the learner's own):$added"
fi
mkdir -p "$out"
out=$(cd "$out" && pwd)

# Files to ship: what git knows, minus weeks not chosen and instructor-only paths.
git ls-files -co --exclude-standard -z | while IFS= read -r -d '' f; do
  case "$f" in
    instructor/*|.helpers/*|.ci/*|*/solution/*|phase*/week*/instructor/*) continue ;;
  esac
  if [[ $f =~ ^(phase[0-9]/week[0-9][0-9])/ ]]; then
    w=${BASH_REMATCH[1]}
    [[ " $weeks " == *" $w "* ]] || continue
  fi
  [ -f "$f" ] || continue
  mkdir -p "$out/$(dirname "$f")"
  cp -p "$f" "$out/$f"
  case "$f" in
    phase*/week*/support/*.cu) sed -i -E 's#(\.\./\.\./week[0-9]{2}/)solution/#\1#' "$out/$f" ;;
  esac
done

# Pristine starters: EX.cu and the copy reset uses.
for w in $weeks; do
  mkdir -p "$out/$w/.starter"
  for ex in $(sed -n 's/^exercise:[[:space:]]*//p' "$w/week.txt"); do
    if [ -f "$w/solution/$ex.cu" ]; then build/wb strip "$w/solution/$ex.cu" > "$out/$w/.starter/$ex.cu"
    else cp "$w/.starter/$ex.cu" "$out/$w/.starter/$ex.cu"; fi
    cp "$out/$w/.starter/$ex.cu" "$out/$w/$ex.cu"
  done
done

# Checks: nothing in the copy gives a solution away.
bad=0
if find "$out" -type d \( -name solution -o -name instructor \) | grep -q .; then
  echo "release check: a solution/ or instructor/ folder is in the copy" >&2; bad=1; fi
marked=$(grep -rIlE -- '^[[:space:]]*//@solution' "$out"/phase* 2>/dev/null || true)
if [ -n "$marked" ]; then
  echo "release check: //@solution regions in: $(echo $marked)" >&2; bad=1; fi
for s in $(git ls-files -co --exclude-standard 'phase*/week*/solution/*' 'instructor/*'); do
  [ -f "$s" ] || continue
  sum=$(sha256sum < "$s" | cut -c1-64)
  if find "$out" -type f -size "$(stat -c %s "$s")c" -exec sha256sum {} + | grep -q "^$sum"; then
    echo "release check: a copy of $s is in the release" >&2; bad=1; fi
done
leaks=$(grep -rlE '/solution/' "$out"/phase*/week*/support 2>/dev/null || true)
if [ -n "$leaks" ]; then
  echo "release check: support files still include a solution: $(echo $leaks)" >&2; bad=1; fi
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
first=$(echo $weeks | tr " " "\n" | sort | head -1)
echo "Try it: cd $out && make $first check"
