#!/usr/bin/env bash
# instructor/tests/grade_refs.sh — references the object check once refused,
# graded without a GPU: week 16's host registration asks the page size
# (sysconf), week 18's model loader reads its files (fopen, fread: its
# week.txt's fileio:), week 20's application draws its tables
# (wb_rng_unit), week 47's ranks broadcast (wb_rank_bcast); and Phase 8's
# Python weeks, 52 (whose pyuses: weeks the scratch copy lacked, so wb
# make-vars failed there) and 63 (whose runner was looked for in
# phase8/common, not phase7/common). Each of them scored every correct
# submission 0 in every cell until 2026-11-29 (weeks 14 and 17, judged,
# are tested by judge_w14.sh and judge_w17.sh). One student with the six
# weeks' reference files, graded with the linked tests: no object-check
# finding, every CPU checkpoint full marks, no cell 0, the GPU checkpoints
# SKIP. Python checkpoints need a python3 the sandbox can run.
. "$(dirname "$0")/lib.sh"
t_begin instructor-grade-refs

label="references the object check once refused, graded without a GPU"
grading_or_skip "$label"
sandbox_python "$label"
log=$BUILD/instructor/grade-refs-test
rm -rf "$log" && mkdir -p "$log/scratch" && chmod 755 "$log" "$log/scratch"
W="phase3/week16 phase4/week18 phase4/week20 phase8/week47 phase8/week52 phase8/week63"
bad=
for w in $W; do
  mkdir -p "$log/class/correct/$w" && cp "$w"/solution/* "$log/class/correct/$w/"
done
# shellcheck disable=SC2046
if ! $MAKE -s "$GRADE_BIN" $(for w in $W; do ! ls "$w"/test_week*.c >/dev/null 2>&1 || echo "$BUILD/$w/starter/test"; done) >"$log/build.log" 2>&1; then
  t_fail "$label" "the grader or the weeks do not build (see $log/build.log)"; t_end
fi
# shellcheck disable=SC2046
WB_NO_GPU=1 "$GRADE_BIN" --root . --submissions "$log/class" --weeks "$W" --gradebook "$log/gradebook.csv" \
  --seed "$SEED" --limit 120 --jobs 2 --scratch "$log/scratch" --keep-scratch 1 $(grade_make_args) >"$log/grade.log" 2>&1
row=$(grep '^correct,' "$log/gradebook.csv")
# the cells: every column but the last four (total, out_of, skipped, seed)
cells=$(echo "$row" | awk -F, '{ s = ""; for (i = 2; i <= NF - 4; i++) s = s (i > 2 ? "," : "") $i; print s }')
[ -n "$cells" ] || bad="$bad no gradebook row for the reference;"
echo "$cells" | tr ',' '\n' | grep -qvE '^(SKIP|10\.00)$' && bad="$bad a cell that is neither full marks nor SKIP: $cells;"
echo "$cells" | tr ',' '\n' | grep -qx '10.00' || bad="$bad no CPU checkpoint passed: $cells;"
! grep -q "object check" "$log/grade.log" || bad="$bad the object check found something: $(grep -m1 -A2 'object check' "$log/grade.log" | tr '\n' ' ');"
# week 52's pyuses: weeks (not graded here) in the scratch copy: the pristine starters, no reference
t=$log/scratch/correct/wb
for v in phase6/week38 phase6/week59 phase7/week41 phase7/week42; do
  [ -e "$t/$v/solution" ] && bad="$bad $v/solution (a week 52 pyuses) is in the scratch copy;"
done
cmp -s "$t/phase6/week38/flash_attn.cu" <(build/wb strip phase6/week38/solution/flash_attn.cu) ||
  bad="$bad week 38's flash_attn.cu in the scratch copy is not the pristine starter;"
if [ -z "$bad" ]; then t_pass "$label" "weeks 16, 18, 20, 47, 52 and 63: no object-check finding, every CPU checkpoint full marks, the GPU ones SKIP; week 52's pyuses: weeks in the copy as their starters, no reference"
else t_fail "$label" "$bad (see $log)"; fi
t_end
