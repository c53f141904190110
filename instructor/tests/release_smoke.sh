#!/usr/bin/env bash
# instructor/tests/release_smoke.sh CHECK_DIR NVCC [TSV] — `make release` tested as an
# instructor and a learner would use it, without a GPU:
#   1. phase0/week01 released in a temporary folder: it builds, checks (the
#      GPU tests skip), resets, checks the starter, takes a quiz, refuses the
#      instructor tools and IMPL=solution, its README and `make help` mention
#      neither, and its `make test` passes;
#   2. in a scratch copy of the workbook's tracked files: an untracked file is
#      not shipped, a week's `uses:` weeks are released with it (and week
#      52's `pyuses:` weeks, which its C test does not get), an OUT inside
#      the workbook is refused, and a solution's code planted in a released
#      support file makes the release fail; in a week's README, a line naming
#      IMPL=solution or instructor/ outside a marker, and a marker left open,
#      make it fail naming FILE:LINE, and a wb:instructor block is left out
#      with the text around it intact; AUTHORING.md is checked as any
#      shipped Markdown (an IMPL=solution line outside a marker refuses); a
#      commit of the history named, or a fence left open, refuses; a fenced
#      marker is text, and hex that names no commit ships;
#   3. the whole workbook releases (or, where TEST_WEEKS names some weeks,
#      those weeks do), and phase5/week24 (which runs the kernels of the
#      weeks it uses) builds in the whole copy; no Markdown file it ships
#      (AUTHORING.md included) names IMPL=solution, instructor/ or make
#      tune-, or holds a marker, and each is its source less its
#      wb:instructor blocks; every section of AUTHORING.md a shipped file
#      cites ("Speed targets") is in the copy's.
# Each step is one "PASS|FAIL<TAB>label<TAB>detail" line in TSV (for the
# `make test` ledger) and on stdout; exit 1 when any failed.
set -uo pipefail
check_dir=${1:-}; nvcc=${2:-nvcc}; tsv=$(realpath -m -- "${3:-/dev/null}")
root=$(cd "$(dirname "$0")/../.." && pwd -P)
tmp=$(mktemp -d /tmp/wb-release-XXXXXX)
trap 'rm -rf "$tmp"' EXIT
: > "$tsv"
failed=0
step() { # step STATUS LABEL [DETAIL]
  printf '%s\t%s\t%s\n' "$1" "release: $2" "${3:-}" | tee -a "$tsv"
  [ "$1" = PASS ] || failed=1
}
# The copy is made from its own defaults: nothing the caller's make or
# environment chose (TEST_WEEKS="phase5/week25" names a week the copy lacks).
# TEST_WEEKS, when the caller limited the run to some weeks, limits step 3 to
# them (and the weeks they use): releasing all 56 weeks takes minutes.
some_weeks=${TEST_WEEKS:-}
unset MAKEFLAGS MAKELEVEL MFLAGS TEST_WEEKS WEEKS IMPL EX
args=(NVCC="$nvcc"); [ -n "$check_dir" ] && args+=(CHECK_DIR="$check_dir")
# The checkpoint ids a results record holds (its second column), one line.
ids() { awk -F'\t' 'NR > 2 { printf "%s%s", sep, $2; sep = " " }' "$1" 2>/dev/null; }
status_of() { awk -F'\t' -v id="$2" 'NR > 2 && $2 == id { print $3 }' "$1" 2>/dev/null; }

# ---- 1. one week, as a learner
cd "$root"
if ! bash instructor/release.sh "$tmp/wb" phase0/week01 > "$tmp/rel1.log" 2>&1; then
  cat "$tmp/rel1.log"; step FAIL "phase0/week01 released" "release.sh failed (above)"; exit 1
fi
step PASS "phase0/week01 released, its checks pass"
cd "$tmp/wb"
if make "${args[@]}" phase0/week01 > build.log 2>&1; then step PASS "the copy builds phase0/week01"
else tail -20 build.log; step FAIL "the copy builds phase0/week01" "see above"; fi
WB_NO_GPU=1 make "${args[@]}" phase0/week01 check > check.log 2>&1
got=$(ids build/phase0/week01/results-learner.tsv)
if [ "$got" = "w01.devquery w01.vecadd w01.vecadd-bw" ]; then step PASS "make check in the copy writes the results record"
else cat check.log; step FAIL "make check in the copy writes the results record" "checkpoints: '$got'"; fi
echo "modified" >> phase0/week01/vecadd.cu
if make phase0/week01 reset > reset.log 2>&1 && cmp -s phase0/week01/vecadd.cu phase0/week01/.starter/vecadd.cu; then
  step PASS "reset restores the starter in the copy"
else cat reset.log; step FAIL "reset restores the starter in the copy"; fi
rm -f phase0/week01/vecadd.cu
if make phase0/week01 reset EX=vecadd > reset2.log 2>&1 && cmp -s phase0/week01/vecadd.cu phase0/week01/.starter/vecadd.cu; then
  step PASS "reset brings back a deleted exercise file in the copy"
else cat reset2.log; step FAIL "reset brings back a deleted exercise file in the copy"; fi
if make starters > starters.log 2>&1; then cat starters.log; step FAIL "make starters in the copy is refused (nothing to derive from)"
elif grep -q 'a student copy' starters.log && cmp -s phase0/week01/vecadd.cu phase0/week01/.starter/vecadd.cu; then
  step PASS "make starters in the copy is refused (nothing to derive from)"
else cat starters.log; step FAIL "make starters in the copy is refused (nothing to derive from)"; fi
WB_NO_GPU=1 make "${args[@]}" phase0/week01 check IMPL=starter > starter.log 2>&1
st=$(status_of build/phase0/week01/results-starter.tsv w01.devquery)
if [ "$st" = fail ]; then step PASS "IMPL=starter builds and fails in the copy"
else cat starter.log; step FAIL "IMPL=starter builds and fails in the copy" "w01.devquery: '$st'"; fi
if make "${args[@]}" phase0/week01 check IMPL=solution > sol.log 2>&1; then
  step FAIL "IMPL=solution is refused in the copy" "it ran"
elif grep -q "has no solutions" sol.log; then step PASS "IMPL=solution is refused in the copy, saying why"
else cat sol.log; step FAIL "IMPL=solution is refused in the copy" "not with the expected reason"; fi
printf '1: b\n' > ans.txt
make "${args[@]}" quiz PHASE=0 ANSWERS=ans.txt > quiz.log 2>&1
if grep -q "of .* right" quiz.log; then step PASS "make quiz runs in the copy"
else cat quiz.log; step FAIL "make quiz runs in the copy"; fi
if make grade >/dev/null 2>&1 || make release OUT="$tmp/x" >/dev/null 2>&1; then
  step FAIL "instructor tools refused in the copy" "make grade or make release ran"
else step PASS "instructor tools refused in the copy"; fi
make "${args[@]}" help > help.log 2>&1
miss=""
for w in "make microbench" "make distclean" "V=1" "EX=" "NAME=" "WB_SEED" "IMPL=starter"; do
  grep -qF -- "$w" help.log || miss="$miss '$w'"
done
if grep -qE "IMPL=solution|make release|make grade" help.log; then miss="$miss (mentions IMPL=solution or instructor tools)"; fi
if grep -qE "week47|mpirun" help.log; then miss="$miss (offers week 47's mpirun, which the copy lacks)"; fi
if [ -z "$miss" ]; then step PASS "make help in the copy lists what a learner can type, no IMPL=solution"
else cat help.log; step FAIL "make help in the copy" "missing:$miss"; fi
if grep -qE "IMPL=solution|make release|make grade|wb:instructor|wb:student" README.md; then
  step FAIL "README.md in the copy" "$(grep -nE 'IMPL=solution|make release|make grade|wb:instructor|wb:student' README.md | head -3)"
elif grep -q ".starter/vecadd.cu" README.md; then step PASS "README.md in the copy: no IMPL=solution, no instructor tools"
else step FAIL "README.md in the copy" "its student-copy text is missing"; fi
# The week's README: the reference's command line is an instructor block in
# the workbook, gone from the copy; the learner's lines around it stay.
if grep -nE "IMPL=solution|wb:instructor|wb:end|wb:student" phase0/week01/README.md > w01readme.log; then
  step FAIL "phase0/week01/README.md in the copy: no IMPL=solution, no marker" "$(head -3 w01readme.log | tr '\n' ';')"
elif grep -q "^make phase0/week01 check  *# test your code" phase0/week01/README.md &&
     grep -q "^make phase0/week01 sanitize " phase0/week01/README.md; then
  step PASS "phase0/week01/README.md in the copy: no IMPL=solution, no marker, the learner's commands kept"
else step FAIL "phase0/week01/README.md in the copy: no IMPL=solution, no marker" "the learner's command lines are missing"; fi
if make "${args[@]}" test TEST_WEEKS=phase0/week01 > test.log 2>&1; then
  step PASS "make test TEST_WEEKS=phase0/week01 passes in the copy"
else
  grep -E "^FAILED" test.log | head -5
  step FAIL "make test TEST_WEEKS=phase0/week01 passes in the copy" "$(grep -E '^FAILED' test.log | head -3 | tr '\n' ';')"
fi
if grep -q "solution" build/test-ledger.tsv 2>/dev/null; then
  step FAIL "make test in the copy has no solution steps" "$(grep solution build/test-ledger.tsv | head -2 | tr '\n\t' '; ')"
else step PASS "make test in the copy has no solution steps"; fi

# ---- 2. what is shipped, in a scratch copy of the tracked files
cd "$root"
src=$tmp/src
mkdir -p "$src/build/instructor"
git ls-files -z | tar -cf - --null -T - | tar -xf - -C "$src"
cp -p build/wb "$src/build/" && cp -p build/instructor/leakcheck "$src/build/instructor/"
# committed: a commit of its history is what a README must not name (below)
( cd "$src" && git init -q && git add -A && git -c user.name=wb -c user.email=wb@localhost commit -qm scratch ) ||
  { step FAIL "scratch copy of the workbook" "git init failed"; exit 1; }
cd "$src"
echo "scratch notes" > phase0/week02/untracked-notes.txt
echo "uses: phase0/week01" >> phase0/week02/week.txt && git add phase0/week02/week.txt
if bash instructor/release.sh "$tmp/w02" phase0/week02 > "$tmp/w02.log" 2>&1; then
  if [ -e "$tmp/w02/phase0/week02/untracked-notes.txt" ]; then step FAIL "only tracked files are shipped" "untracked-notes.txt is in the copy"
  else step PASS "only tracked files are shipped (an untracked file is not)"; fi
  if [ -f "$tmp/w02/phase0/week01/vecadd.cu" ] && [ -f "$tmp/w02/phase0/week01/.starter/vecadd.cu" ] && [ ! -e "$tmp/w02/phase0/week03" ]; then
    step PASS "a week's uses: weeks are released with it"
  else step FAIL "a week's uses: weeks are released with it" "phase0/week01 missing (or week03 shipped)"; fi
else cat "$tmp/w02.log"; step FAIL "only tracked files are shipped; uses: weeks released" "the release of phase0/week02 failed (above)"; fi
# A Phase 8 week with Python tests ships Phase 7's runner (phase7/common/), and
# nothing else of Phase 7.
if ( cd "$root" && bash instructor/release.sh "$tmp/w63" phase8/week63 ) > "$tmp/w63.log" 2>&1; then
  if [ -f "$tmp/w63/phase7/common/wb_pyrun.py" ] && [ -f "$tmp/w63/phase7/common/wb_pytest.py" ] &&
     [ -f "$tmp/w63/phase7/requirements.txt" ] &&
     [ ! -e "$tmp/w63/phase7/README.md" ] && [ -z "$(ls -d "$tmp"/w63/phase7/week* 2>/dev/null)" ]; then
    step PASS "a week with Python tests ships phase7/common/ (its runner), phase7/requirements.txt and no Phase 7 week"
  else step FAIL "a week with Python tests ships phase7/common/" "$(ls "$tmp/w63/phase7" 2>&1 | tr '\n' ' ')"; fi
else cat "$tmp/w63.log"; step FAIL "a week with Python tests ships phase7/common/" "the release of phase8/week63 failed (above)"; fi
# Week 52's capstone (Python) builds the learner's kernels of weeks 38, 59, 41
# and 42 and imports their week 63 ddp.py: week.txt's pyuses: ships those weeks
# with it (the learner's files and starters, no solution/), and its uses: stays
# empty, so nothing of them is linked into its C test.
w52_files="phase6/week38/flash_attn.cu phase6/week59/flash_bwd.cu phase7/week41/ln_fwd.cu phase7/week42/ln_bwd.cu
  phase8/week63/ddp.py"
w52_label="week 52's pyuses: weeks (38, 59, 41, 42, 63) are released with it, no solution/, none in its C test's uses:; its Try it line names week 52"
if ( cd "$root" && bash instructor/release.sh "$tmp/w52" phase8/week52 ) > "$tmp/w52.log" 2>&1; then
  miss=""
  for f in $w52_files; do
    [ -f "$tmp/w52/$f" ] && [ -f "$tmp/w52/$(dirname "$f")/.starter/$(basename "$f")" ] || miss="$miss $f"
    [ -e "$tmp/w52/$(dirname "$f")/solution" ] && miss="$miss $(dirname "$f")/solution(shipped)"
  done
  pyuses=$(cd "$root" && build/wb week-info phase8/week52 pyuses | tr '\n' ' ')
  cuses=$(cd "$root" && build/wb week-info phase8/week52 uses)
  if [ -n "$miss" ]; then step FAIL "$w52_label" "missing:$miss"
  elif [ "$pyuses" != "phase6/week38 phase6/week59 phase7/week41 phase7/week42 phase8/week63 " ] || [ -n "$cuses" ]; then
    step FAIL "$w52_label" "wb week-info: pyuses '$pyuses', uses '$cuses'"
  elif ! grep -q "make phase8/week52 check" "$tmp/w52.log"; then
    step FAIL "$w52_label" "its 'Try it' line names another week than the one released: $(grep 'Try it' "$tmp/w52.log")"
  else step PASS "$w52_label"; fi
else cat "$tmp/w52.log"; step FAIL "$w52_label" "the release of phase8/week52 failed (above)"; fi
if bash instructor/release.sh "$src/inside" phase0/week02 > "$tmp/inside.log" 2>&1; then
  step FAIL "an OUT inside the workbook is refused" "it released"
elif grep -q "inside the workbook" "$tmp/inside.log" && [ ! -e "$src/inside" ]; then
  step PASS "an OUT inside the workbook is refused"
else cat "$tmp/inside.log"; step FAIL "an OUT inside the workbook is refused" "not with the expected reason"; fi
# A week's README that points into instructor/, or tells the learner to run
# the solution: the copy has neither. The release names the file and line.
cp phase0/week02/README.md "$tmp/readme.keep"
n_refused=0
readme_refused() { # readme_refused LABEL LINE PATTERN: the release of phase0/week02 fails, naming README.md:LINE
  local o=$tmp/refused$((++n_refused))   # its own folder: two plants may be refused at one line
  if bash instructor/release.sh "$o" phase0/week02 > "$o.log" 2>&1; then
    step FAIL "$1" "the release passed"
  elif grep -q "release check: phase0/week02/README.md:$2: $3" "$o.log"; then
    step PASS "$1 (README.md:$2 named)"
  else cat "$o.log"; step FAIL "$1" "not for phase0/week02/README.md:$2"; fi
  cp "$tmp/readme.keep" phase0/week02/README.md && git add phase0/week02/README.md
}
echo "The tuning notes: instructor/tune/w02/NOTES.md." >> phase0/week02/README.md && git add phase0/week02/README.md
readme_refused "a week's README pointing into instructor/ is refused" "$(wc -l < phase0/week02/README.md)" "The tuning notes"
printf '\n```\nmake phase0/week02 check IMPL=solution   # the reference\n```\n' >> phase0/week02/README.md && git add phase0/week02/README.md
readme_refused "a week's README with an IMPL=solution line outside a marker is refused" "$(($(wc -l < phase0/week02/README.md) - 1))" "make phase0/week02 check IMPL=solution"
n0=$(($(wc -l < phase0/week02/README.md) + 2))
printf '\n<!-- wb:instructor -->\nmake phase0/week02 check IMPL=solution\n\nThe end.\n' >> phase0/week02/README.md && git add phase0/week02/README.md
readme_refused "a wb:instructor marker left open is refused" "$n0" "<!-- wb:instructor --> has no <!-- wb:end -->"
h=$(git rev-parse --short=9 HEAD)
printf '\nFixed in commit %s of the scratch history.\n' "$h" >> phase0/week02/README.md && git add phase0/week02/README.md
readme_refused "a week's README naming a commit of the workbook's history is refused" "$(wc -l < phase0/week02/README.md)" "names commit $h"
# In italics (_hash_: grep's \b held '_' a word character, so this was no word) and in capitals (git reads
# them alike), the same commit is named.
printf '\nFixed in _%s_ of the scratch history.\n' "$h" >> phase0/week02/README.md && git add phase0/week02/README.md
readme_refused "a week's README naming a commit in italics (_hash_) is refused" "$(wc -l < phase0/week02/README.md)" "names commit $h"
printf '\nFixed in %s of the scratch history.\n' "${h^^}" >> phase0/week02/README.md && git add phase0/week02/README.md
readme_refused "a week's README naming a commit in capitals is refused" "$(wc -l < phase0/week02/README.md)" "names commit $h"
# A prefix two commits share: git cat-file -e PREFIX^{commit} fails on it as ambiguous. The two commit
# objects are written as bytes (fixed dates, the empty tree), so their names are fixed: the second's
# message was searched for to share acf3b9c with the first.
for m in "ambiguous" "ambiguous 180626182"; do
  printf 'tree 4b825dc642cb6eb9a060e54bf8d69288fbee4904\nauthor wb <wb@localhost> 1767225600 +0000\ncommitter wb <wb@localhost> 1767225600 +0000\n\n%s\n' "$m" |
    git hash-object -t commit -w --stdin > /dev/null
done
if git cat-file -e 'acf3b9c^{commit}' 2>/dev/null; then
  step FAIL "a prefix two commits share is refused" "git resolved acf3b9c: the two commits do not share it"
else
  printf '\nFixed in acf3b9c of the scratch history.\n' >> phase0/week02/README.md && git add phase0/week02/README.md
  readme_refused "a week's README naming a prefix two commits share is refused" "$(wc -l < phase0/week02/README.md)" "names commit acf3b9c"
fi
# A fence left open makes every marker after it text: refused at the fence's line.
n0=$(($(wc -l < phase0/week02/README.md) + 2))
printf '\n```\ncode\n<!-- wb:instructor -->\nmake tune-w02\n<!-- wb:end -->\n' >> phase0/week02/README.md && git add phase0/week02/README.md
readme_refused "a fence left open (markers after it would be text) is refused" "$n0" "the fence \`\`\` opened here is never closed"
# AUTHORING.md ships, so it is checked as any Markdown file the copy has.
cp AUTHORING.md "$tmp/authoring.keep"
echo "make phase0/week01 check IMPL=solution   # planted" >> AUTHORING.md && git add AUTHORING.md
if bash instructor/release.sh "$tmp/authoring" phase0/week02 > "$tmp/authoring.log" 2>&1; then
  step FAIL "AUTHORING.md with an IMPL=solution line outside a marker is refused" "the release passed"
elif grep -q "release check: AUTHORING.md:[0-9]*: make phase0/week01 check IMPL=solution   # planted" "$tmp/authoring.log"; then
  step PASS "AUTHORING.md with an IMPL=solution line outside a marker is refused (AUTHORING.md named)"
else cat "$tmp/authoring.log"; step FAIL "AUTHORING.md with an IMPL=solution line outside a marker is refused" "not for AUTHORING.md"; fi
cp "$tmp/authoring.keep" AUTHORING.md && git add AUTHORING.md
# Hex that names no commit is text: masks, an all-digit seed, a word no commit starts with, a blob's
# SHA-1 (40 digits, no commit), a SHA-256 sum. A fence shows markers as text.
printf '\nMasks 0x1f and 0xffffffff, seed 20261122, deadbeef, blob %s, SHA-256 %s.\n' \
  "$(git hash-object README.md)" "$(sha256sum < README.md | cut -c1-64)" > "$tmp/hex.md"
printf '\n```\n<!-- wb:instructor -->\nshown as text\n<!-- wb:end -->\n<!-- wb:instructr -->\n```\n' > "$tmp/fenced.md"
# A wb:instructor block (indented in a list item, and at the top level) is
# left out, and the copy's README is the workbook's less the block's lines.
{ printf '\n- A list item whose text goes on\n  <!-- wb:instructor -->\n  planted: `make tune-w02` (instructor/tune/w02/)\n  <!-- wb:end -->\n  after the block.\n'
  printf '\nBefore the block.\n\n<!-- wb:instructor -->\n```\nmake phase0/week02 check IMPL=solution   # planted\n```\n<!-- wb:end -->\n\nAfter the block.\n'
  cat "$tmp/hex.md" "$tmp/fenced.md"
  printf '\n<!-- wb:instructor -->\n~~~~\n<!-- wb:end -->\nmake phase0/week02 check IMPL=solution   # a fenced marker does not end the block\n~~~~\nFixed in commit %s.\n<!-- wb:end -->\n\nThe end.\n' "$h"
} >> phase0/week02/README.md && git add phase0/week02/README.md
label="a week's README: its wb:instructor blocks are left out (a fenced marker is text: it neither ends one nor starts one), hex that names no commit kept, the text around them intact"
if bash instructor/release.sh "$tmp/blocks" phase0/week02 > "$tmp/blocks.log" 2>&1; then
  { cat "$tmp/readme.keep"
    printf '\n- A list item whose text goes on\n  after the block.\n\nBefore the block.\n\nAfter the block.\n'
    cat "$tmp/hex.md" "$tmp/fenced.md"; printf '\nThe end.\n'; } > "$tmp/readme.want"
  if cmp -s "$tmp/readme.want" "$tmp/blocks/phase0/week02/README.md"; then step PASS "$label"
  else step FAIL "$label" "$(diff "$tmp/readme.want" "$tmp/blocks/phase0/week02/README.md" | head -6 | tr '\n' ';')"; fi
else cat "$tmp/blocks.log"; step FAIL "$label" "the release failed (above)"; fi
cp "$tmp/readme.keep" phase0/week02/README.md && git add phase0/week02/README.md
# A solution's kernel body (its //@solution region) pasted into a released support file.
awk '/^[[:space:]]*\/\/@solution/ { on = 1; next } /^[[:space:]]*\/\/@(starter|end)/ { on = 0 } on' \
  phase0/week01/solution/vecadd.cu > "$tmp/body.txt"
{ echo "/* planted */"; cat "$tmp/body.txt"; } >> phase0/week02/support/launcher.cu
git add phase0/week02/support/launcher.cu
if bash instructor/release.sh "$tmp/planted" phase0/week02 > "$tmp/planted.log" 2>&1; then
  step FAIL "a solution planted in a support file is refused" "the release passed"
elif grep -q "phase0/week02/support/launcher.cu:[0-9]*: solution of phase0/week01/solution/vecadd.cu" "$tmp/planted.log"; then
  step PASS "a solution planted in a support file is refused ($(grep -c ': solution of ' "$tmp/planted.log") lines found)"
else cat "$tmp/planted.log"; step FAIL "a solution planted in a support file is refused" "not for the planted lines"; fi

# ---- 3. the whole workbook (or the weeks TEST_WEEKS named)
cd "$root"
n_all=$(ls -d phase[0-9]/week[0-9][0-9] | wc -l)
[ "$(echo $some_weeks | wc -w)" -ge "$n_all" ] && some_weeks=
what="the whole workbook"; [ -n "$some_weeks" ] && what="the weeks TEST_WEEKS names"
if bash instructor/release.sh "$tmp/all" $some_weeks > "$tmp/all.log" 2>&1; then
  step PASS "$what releases and passes its checks"
  cd "$tmp/all"
  if [ -n "$some_weeks" ] && [[ " $some_weeks " != *" phase5/week24 "* ]]; then
    :  # week 24's build in the copy is the whole release's step
  elif make "${args[@]}" phase5/week24 > build24.log 2>&1; then step PASS "phase5/week24 builds in the whole copy (its used weeks from the learner's files)"
  else tail -20 build24.log; step FAIL "phase5/week24 builds in the whole copy" "see above"; fi
  # Its Markdown: nothing a student copy cannot use, no marker, and each file
  # its source less its wb:instructor blocks (blank lines squeezed: a block
  # left out may leave one fewer), student blocks shown.
  label="$what: no shipped Markdown (AUTHORING.md included) names IMPL=solution, instructor/ or make tune-, or holds a marker"
  hits=$(find . -type f -name '*.md' -print0 | xargs -0r grep -nE \
    'IMPL=solution|instructor/|make tune-|^[[:space:]]*<!-- wb:(instructor|student)|wb:student -->' | head -5)
  if [ -z "$hits" ]; then step PASS "$label"; else step FAIL "$label" "$(echo "$hits" | cut -c1-120 | tr '\n' ';')"; fi
  # A file that cites a section of AUTHORING.md (AUTHORING.md's "Speed targets", or AUTHORING.md,
  # "Speed targets", across a line break too) finds it in the copy's: a heading of that name.
  label="$what: every section of AUTHORING.md a shipped file cites is in the copy's AUTHORING.md"
  cited=$(find . -type f \( -name '*.md' -o -name week.txt \) -print0 | sort -z | while IFS= read -r -d '' f; do
    tr '\n' ' ' < "$f" | grep -oE "AUTHORING\.md(, |'s) *\"[^\"]+\"" | sed -E 's/.*"([^"]+)"/\1/; s/  +/ /g' | sed "s|^|$f: |"
  done | sort -u)
  lost=$(echo "$cited" | while IFS= read -r c; do
    [ -n "$c" ] && ! grep -qxF "## ${c#*: }" AUTHORING.md && echo "$c"
  done | tr '\n' ';')
  if [ -z "$cited" ]; then step FAIL "$label" "no shipped file cites a section: nothing was tested"
  elif [ -n "$lost" ]; then step FAIL "$label" "not a heading of the copy's AUTHORING.md: $lost"
  else step PASS "$label ($(echo "$cited" | wc -l) citations)"; fi
  label="$what: each Markdown file is its source less its wb:instructor blocks, the rest intact"
  differ="" n_md=0 n_blocks=0
  while IFS= read -r -d '' f; do
    n_md=$((n_md + 1))
    grep -q '^[[:space:]]*<!-- wb:instructor -->' "$root/$f" && n_blocks=$((n_blocks + 1))
    awk '/^[[:space:]]*<!-- wb:instructor -->[[:space:]]*$/ { cut = 1; next }
         cut && /^[[:space:]]*<!-- wb:end -->[[:space:]]*$/ { cut = 0; next }
         /^[[:space:]]*(<!-- wb:student|wb:student -->)[[:space:]]*$/ { next }
         !cut' "$root/$f" | cat -s > "$tmp/md.want"
    cat -s "$f" | cmp -s - "$tmp/md.want" || differ="$differ $f"
  done < <(find . -type f -name '*.md' -printf '%P\0')
  if [ -n "$differ" ]; then step FAIL "$label" "differ:$(echo $differ | cut -c1-200)"
  elif [ "$n_blocks" -eq 0 ]; then step FAIL "$label" "none of its $n_md Markdown files has a wb:instructor block: nothing was tested"
  else step PASS "$label ($n_md files, $n_blocks with blocks)"; fi
else
  grep -E "release check|: solution of " "$tmp/all.log" | head -20
  step FAIL "$what releases and passes its checks" "$(grep -c ': solution of ' "$tmp/all.log") solution lines; $(grep -E 'release check' "$tmp/all.log" | cut -c1-90 | head -3 | tr '\n' ';')"
fi
exit $failed
