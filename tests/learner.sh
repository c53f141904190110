#!/usr/bin/env bash
# tests/learner.sh — what a learner types when something is off, in a scratch
# copy of the workbook's tracked files (no GPU, no nvcc build needed):
#   - a deleted exercise file (.cu and Phase 7's .py) comes back with reset;
#   - `make starters` keeps an edited starter as a .bak;
#   - ARCH=86, a mistyped goal, a bare week name and a misspelt variable
#     stop with one line that says what to type;
#   - make typed in a week folder runs that week's command, in a phase
#     folder it says what to type;
#   - a week folder the curriculum does not list, and a checkpoint id of
#     another week, are refused by name.
. "$(dirname "$0")/lib.sh"
t_begin learner

copy=$(mktemp -d /tmp/wb-learner-XXXXXX)
trap 'rm -rf "$copy"' EXIT
git ls-files -z | tar --null -T - -cf - | tar -xf - -C "$copy"
cd "$copy"
unset MAKEFLAGS MAKELEVEL MFLAGS TEST_WEEKS
m() { make --no-print-directory "$@" 2>&1; }
$MAKE -s build/wb >/dev/null 2>&1 || { t_fail "learner: the copy builds build/wb" "make build/wb"; t_end; }
# Every checkpoint of a week of several exercise files sends a learner whose check
# failed to the file(s) it is about (week.txt's belongs:, or its name), never to
# every file of the week (AUTHORING.md, belongs:): `wb week-info W files` says "*"
unsent=
for wt in phase[0-9]/week[0-9][0-9]/week.txt; do
  w=${wt%/week.txt}
  got=$("$WB" week-info "$w" files 2>&1) || { unsent="$unsent $w(week.txt: $(head -c 120 <<<"$got"))"; continue; }
  unsent="$unsent$(awk -F'\t' -v w="$w" '$2 ~ /\*$/ { printf " %s:%s", w, $1 }' <<<"$got")"
done
[ -z "$unsent" ] && t_pass "learner: every checkpoint of a week of several files names the file(s) to fix" ||
  t_fail "learner: every checkpoint of a week of several files names the file(s) to fix" "sent to every file:$(head -c 600 <<<"$unsent")"

# expect LABEL PATTERN OUTPUT: PASS when OUTPUT has a line matching PATTERN
expect() { if grep -qE -- "$2" <<<"$3"; then t_pass "learner: $1"; else t_fail "learner: $1" "$(head -c 300 <<<"$3")"; fi; }

rm phase0/week01/vecadd.cu
out=$(m phase0/week01 reset EX=vecadd)
[ -f phase0/week01/vecadd.cu ] && cmp -s phase0/week01/vecadd.cu "$WB_ROOT/phase0/week01/vecadd.cu" &&
  t_pass "learner: a deleted exercise file comes back with reset" ||
  t_fail "learner: a deleted exercise file comes back with reset" "$out"
rm phase0/week01/vecadd.cu
out=$(m phase0/week01 hint)
expect "hint works while an exercise file is missing" '^Hint 1 of' "$out"
out=$(m phase0/week01 check)
expect "check names the missing file and the reset that restores it" 'vecadd.cu is missing: .make phase0/week01 reset EX=vecadd.' "$out"
m phase0/week01 reset EX=vecadd >/dev/null
# EX= as a learner types it, the file's name or its path, names the exercise (it was "no exercise 'vecadd.cu'")
echo '/* mine */' >> phase0/week01/vecadd.cu
out=$(m phase0/week01 reset EX=vecadd.cu)
cmp -s phase0/week01/vecadd.cu "$WB_ROOT/phase0/week01/vecadd.cu" && grep -q 'is kept as phase0/week01/vecadd.cu.*bak' <<<"$out" &&
  t_pass "learner: reset EX=vecadd.cu restores vecadd and keeps the edit" || t_fail "learner: reset EX=vecadd.cu restores vecadd and keeps the edit" "$out"
expect "reset EX=phase0/week01/vecadd.cu names the file too" 'vecadd.cu is already the starter' "$(m phase0/week01 reset EX=phase0/week01/vecadd.cu)"
rm -f phase0/week01/vecadd.cu.*.bak
# hint EX= was ignored without a word (the week's next hint, another file's)
expect "hint with EX= says the hints come in order" "note: hint shows the week's hints in order" "$(m phase0/week01 hint EX=vecadd)"
rm phase7/week43/add.py
out=$(m phase7/week43 reset EX=add)
[ -f phase7/week43/add.py ] && t_pass "learner: a deleted Python exercise comes back with reset" ||
  t_fail "learner: a deleted Python exercise comes back with reset" "$out"

echo '/* my work */' >> phase0/week01/vecadd.cu
out=$(m starters)
bak=$(ls phase0/week01/vecadd.cu.*.bak 2>/dev/null | head -n 1)
if [ -n "$bak" ] && grep -q 'my work' "$bak" && grep -q 'had edits of yours' <<<"$out"; then
  t_pass "learner: make starters keeps an edited starter as a .bak and says so"
else
  t_fail "learner: make starters keeps an edited starter as a .bak and says so" "$out"
fi

expect "ARCH=86 asks for ARCH=sm_86" 'give ARCH=sm_86' "$(m phase0/week01 ARCH=86)"
expect "a mistyped goal gets a did-you-mean" "did you mean 'check'" "$(m phase0/week01 chek)"
expect "a week name in capitals gets its folder" "did you mean 'make phase0/week01 check'" "$(m Phase0/Week01 check)"
expect "a phase folder named as a week lists its weeks" "phase0's weeks are phase0/week01 phase0/week02" "$(m phase0 check)"
expect "a bare week name gets its folder" "did you mean 'make phase0/week01 check'" "$(m week01 check)"
# (the misspelling is assembled, so this file does not hold it as a word
# make could take for one the workbook reads)
expect "ARCH=sm90 asks for ARCH=sm_90" 'give ARCH=sm_90 ' "$(m phase0/week01 ARCH=sm90)"
# Which hints were shown is kept beside the progress file: a deleted build/ loses nothing, and a count
# kept in the old place (build/.wb-state) is carried over once.
m phase0/week02 hint >/dev/null
mv build build.gone && out=$(build.gone/wb hint phase0/week02 2>&1); rm -rf build; mv build.gone build
expect "the hints shown survive a deleted build/ (kept beside progress.md)" '^Hint 2 of [0-9]+ for phase0/week02' "$out"
mkdir -p build/.wb-state && echo 3 > build/.wb-state/hints-phase0-week04
out=$(m phase0/week04 hint)
if grep -q '^Hint 4 of' <<<"$out" && grep -qx 'phase0/week04 4' progress.md.hints && [ ! -f build/.wb-state/hints-phase0-week04 ]; then
  t_pass "learner: the hints shown, kept in build/.wb-state before, move beside progress.md"
else t_fail "learner: the hints shown, kept in build/.wb-state before, move beside progress.md" "$out"; fi
expect "V=1, the full commands, is a variable the workbook reads" '^Hint [0-9]+ of' "$(m phase0/week01 hint V=1)"
# A WB_PROGRESS path of 599 characters: PROGRESS.hints was cut to fit 600 bytes, to the progress file's own
# name, and make hint added its line ("phase0/week01 1") to the progress file; it goes beside it now.
long=$PWD/.long/$(printf 'd%.0s' $(seq 200))/$(printf 'e%.0s' $(seq 200))
mkdir -p "$long" && lp=$long/$(printf 'p%.0s' $(seq $((599 - ${#long} - 4)))).md
printf '# mine\n' > "$lp"
out=$(WB_PROGRESS=$lp build/wb hint phase0/week01 2>&1)
if [ ${#lp} = 599 ] && [ "$(cat "$lp")" = "# mine" ] && grep -qx 'phase0/week01 1' "$lp.hints" 2>/dev/null; then
  t_pass "learner: a long WB_PROGRESS keeps the hints beside the progress file, never in it"
else t_fail "learner: a long WB_PROGRESS keeps the hints beside the progress file, never in it" "${#lp} characters; it reads: $(head -c 200 "$lp")"; fi
rm -rf .long
# A compile stopped by a signal (Ctrl-C; here SIGKILL, which no parent can have set to be ignored) is not the learner's code failing to compile.
mkdir -p .fake && printf '#!/bin/sh\ncase " $* " in *" -c "*) kill -KILL $$;; esac\nexec %s "$@"\n' "$(command -v nvcc || echo /usr/local/cuda/bin/nvcc)" > .fake/nvcc && chmod +x .fake/nvcc
out=$(m phase0/week01 NVCC="$PWD/.fake/nvcc")
if grep -q 'does not compile' <<<"$out"; then t_fail "learner: an interrupted compile does not blame the code" "$(tail -c 300 <<<"$out")"; else expect "an interrupted compile does not blame the code" 'Error 13[0-9]|Interrupt|Killed' "$out"; fi
rm -rf .fake
# Without a GPU a CPU checkpoint's PASS is not recorded: the Next line says so (week 03's roofline runs on the CPU).
if ! nvidia-smi -L >/dev/null 2>&1; then
  cp phase0/week03/solution/roofline.cu phase0/week03/roofline.cu
  out=$(m phase0/week03 check)
  expect "without a GPU a CPU pass is said not to be recorded" 'nor for the 1 that passed \(only a run with a GPU is recorded\)' "$out"
  expect "with CK_RUN_CASE too" '1 of 5 checkpoints passed \(not recorded: only a run with a GPU is recorded\); 4 not selected' \
    "$(CK_RUN_CASE=w03.roofline m phase0/week03 check)"
  [ -f progress.md ] && t_fail "learner: nothing is recorded without a GPU" "$(cat progress.md)" || t_pass "learner: nothing is recorded without a GPU"
  # a benchmark that makes no CUDA call runs without a GPU; one that does says it needs one
  out=$(m phase6/week61 bench NAME=accuracy) && grep -q 'what 2:4 pruning costs' <<<"$out" &&
    t_pass "learner: a CPU-only benchmark runs without a GPU (week 61's accuracy)" ||
    t_fail "learner: a CPU-only benchmark runs without a GPU (week 61's accuracy)" "$(tail -c 300 <<<"$out")"
  # ... in the line make's error line follows, starting with ">>>" and saying what to do, as README.md says such lines do
  out=$(m phase6/week61 bench NAME=speed)
  expect "a GPU benchmark without a GPU says it needs one, and where to run it, on the line before make's error" \
    '^>>> phase6/week61: benchmark speed needs a GPU; nothing was measured \(.*\)\. Run `make phase6/week61 bench NAME=speed` on a machine with an NVIDIA GPU\.$' \
    "$(grep -B1 '^make: \*\*\*' <<<"$out" | head -n 1)"
  expect "bench without a GPU: the line before make's error says where to run it" \
    '^>>> phase0/week01: benchmarks need a GPU; nothing was measured \(.*\)\. Run `make phase0/week01 bench` on a machine with an NVIDIA GPU\.$' \
    "$(m phase0/week01 bench | grep -B1 '^make: \*\*\*' | head -n 1)"
  # the regression suite without a GPU names the command that was typed
  expect "make regress-baseline without a GPU says that it needs one, by its own name" \
    '^>>> make regress-baseline needs an NVIDIA GPU: .*Nothing was measured' "$(m regress-baseline)"
  git -C "$WB_ROOT" show HEAD:phase0/week03/roofline.cu > phase0/week03/roofline.cu 2>/dev/null || cp "$WB_ROOT/phase0/week03/roofline.cu" phase0/week03/roofline.cu
fi
# What `wb report` says of a run's record (a record written here, as the test program writes one):
# the file behind a failing checkpoint whose first word is a word of the file's name, and the way
# to find a test that never ended or a crash.
rec=build/phase6/week61/results-learner.tsv
mkdir -p build/phase6/week61 && {
  printf '#wb-results 2\nweek\tcheckpoint\tstatus\treason\tvalue\tunit\tyardstick\tyard_value\tratio\ttarget\tseed\tgpu\ttests\tfailed\tskipped\tdetail\tmessage\n'
  printf 'phase6/week61\tw61.pack\tpass\t-\t-\t-\t-\t-\t-\t-\t1\t-\t1\t0\t0\t-\t-\n'
  printf 'phase6/week61\tw61.gemm\tfail\tcode\t-\t-\t-\t-\t-\t-\t1\t-\t2\t2\t0\t-\tphase6/week61/test_week61.c:90: Test timeout expired\n'
  printf 'phase6/week61\tw61.sparse-speed\tskip\tnogpu\t-\t-\t-\t-\t-\t-\t1\t-\t0\t0\t1\t-\tno GPU\n'
} > "$rec"
out=$(build/wb report "$rec" phase6/week61 --status 1 --bin build/phase6/week61/learner/test)
expect "a failing checkpoint names the file whose name holds its first word (w61.gemm: sp24_gemm)" 'in phase6/week61/sp24_gemm\.cu \(look for TODO\)' "$out"
expect "a test stopped at its time limit is said to be a loop, with the way to find it" \
  'ran past its time limit: most likely a loop .*CK_FORK=no CK_RUN_CASE=w61\.gemm gdb --args build/phase6/week61/learner/test' "$out"
sed -i 's/\tw61\.pack\tpass\t-\t.*/\tw61.pack\tfail\tcode\t-\t-\t-\t-\t-\t-\t1\t-\t1\t1\t0\t-\tphase6\/week61\/test_week61.c:98: Received signal 11 (Segmentation fault)/' "$rec"
expect "a crash is said to be in the learner's code, with the way to find it" 'crashed inside a test of w61\.pack .* then `bt`' \
  "$(build/wb report "$rec" phase6/week61 --status 1 --bin build/phase6/week61/learner/test)"
# "look for TODO" only where the file named still holds one (a learner removes them as they work; the line
# sent them to look for what was gone)
sed -i 's/TODO/done/g' phase6/week61/sp24_gemm.cu phase6/week61/sp24_pack.cu
out=$(build/wb report "$rec" phase6/week61 --status 1)
grep -q 'look for TODO' <<<"$out" && t_fail "learner: files without TODO are not sent to look for one" "$out" ||
  expect "files without TODO are sent to the FAIL lines" 'sp24_gemm\.cu \(each FAIL line above says what went wrong\), then' "$out"
for f in sp24_gemm sp24_pack; do git -C "$WB_ROOT" show HEAD:phase6/week61/$f.cu > phase6/week61/$f.cu; done
# Every checkpoint whose tests did not finish is named in the closing lines (week 53: a loop in tma_box also
# stops w53.tma-copy, and only w53.box was named), a fifth and more as "and N more"; signal 9 is a kill
# (most likely memory), not a crash to find with bt. And of two files named, the one without TODO is left out.
rec=build/phase3/week13/results-stopped.tsv
mkdir -p build/phase3/week13 && {
  printf '#wb-results 2\nweek\tcheckpoint\tstatus\treason\tvalue\tunit\tyardstick\tyard_value\tratio\ttarget\tseed\tgpu\ttests\tfailed\tskipped\tdetail\tmessage\n'
  for c in masks warpreduce warpscan vote blockreduce; do
    printf 'phase3/week13\tw13.%s\tfail\tcode\t-\t-\t-\t-\t-\t-\t1\t-\t2\t2\t0\t-\tt.c:9: Test timeout expired\n' $c
  done
  printf 'phase3/week13\tw13.gemv\tfail\tcode\t-\t-\t-\t-\t-\t-\t1\t-\t2\t2\t0\t-\tt.c:9: Received signal 9 (Killed)\n'
} > "$rec"
out=$(build/wb report "$rec" phase3/week13 --status 1 --bin T)
expect "five checkpoints stopped at the time limit are named, the fourth on as 'and N more'" \
  '^Tests of w13\.masks, w13\.warpreduce, w13\.warpscan and 2 more ran past their time limit: .*start with the first: `CK_FORK=no CK_RUN_CASE=w13\.masks gdb --args T`' "$out"
expect "a test killed by signal 9 is said to be killed, most likely for memory" '^A test of w13\.gemv was killed \(signal 9\): most likely for using too much memory' "$out"
grep -q 'crashed' <<<"$out" && t_fail "learner: a test killed by signal 9 is not called a crash" "$out"
sed -i '/timeout expired/d; /Received signal/d' "$rec"
printf 'phase3/week13\tw13.masks\tfail\tcode\t-\t-\t-\t-\t-\t-\t1\t-\t2\t2\t0\t-\tt.c:9: Test timeout expired\n' >>"$rec"
printf 'phase3/week13\tw13.warpscan\tfail\tcode\t-\t-\t-\t-\t-\t-\t1\t-\t2\t2\t0\t-\tt.c:9: Test timeout expired\n' >>"$rec"
sed -i 's/TODO/done/g' phase3/week13/vote.cu
out=$(build/wb report "$rec" phase3/week13 --status 1 --bin T)
expect "two checkpoints stopped at the time limit are both named" '^Tests of w13\.masks and w13\.warpscan ran past their time limit' "$out"
expect "of the files named, only those with a TODO left are to look for one" \
  'in phase3/week13/warpreduce\.cu, phase3/week13/warpscan\.cu, phase3/week13/vote\.cu \(look for TODO in warpreduce\.cu, warpscan\.cu\), then' "$out"
git -C "$WB_ROOT" show HEAD:phase3/week13/vote.cu > phase3/week13/vote.cu
if ! nvidia-smi -L >/dev/null 2>&1; then
  expect "make profile without a GPU says it needs one" 'make profile needs an NVIDIA GPU: .*Nothing was profiled' "$(m phase0/week01 profile)"
fi
# make sass where no cuobjdump is (none on PATH, none in CUDA_HOME/bin): one line, what is missing and what
# to do, before anything is built
mkdir -p .nocuda/bin
nocuobj=$(tr : '\n' <<<"$PATH" | while read -r d; do [ -x "$d/cuobjdump" ] || printf '%s:' "$d"; done)
out=$(PATH=$nocuobj m phase0/week01 sass CUDA_HOME="$PWD/.nocuda")
if grep -qE '^>>> cuobjdump is missing \(not on PATH, not in .*/\.nocuda/bin\), and make sass needs it: install it.* or put the folder that holds it on PATH' <<<"$out" &&
   ! grep -q 'NVCC\|ships with' <<<"$out"; then t_pass "learner: make sass without cuobjdump says what is missing and what to do, before building"
else t_fail "learner: make sass without cuobjdump says what is missing and what to do, before building" "$(tail -c 300 <<<"$out")"; fi
rm -rf .nocuda
# make ptx: a file that does not compile stops it with the line that says which and what to do (the loop
# went on to the next file and ended with status 0, the error lost above "PTX of" lines); IMPL=starter
# makes the untouched starter first, as check and sass do (nvcc was handed a file no rule had made).
cp phase0/week01/devquery.cu .devquery.keep && printf 'int broken(\n' >> phase0/week01/devquery.cu
out=$(m phase0/week01 ptx) && t_fail "learner: make ptx with a file that does not compile fails" "$(tail -c 300 <<<"$out")" ||
  expect "make ptx names the file that does not compile and the reset" "^>>> phase0/week01/devquery\.cu does not compile: .*make phase0/week01 reset EX=devquery" "$out"
mv .devquery.keep phase0/week01/devquery.cu
out=$(m phase0/week01 ptx IMPL=starter) && grep -q '^PTX of vecadd: build/phase0/week01/starter/vecadd\.ptx' <<<"$out" &&
  t_pass "learner: make ptx IMPL=starter gives the untouched starter's PTX" ||
  t_fail "learner: make ptx IMPL=starter gives the untouched starter's PTX" "$(tail -c 300 <<<"$out")"
expect "check with EX= says check runs the whole week" 'note: check runs the whole week; EX= is read by reset' "$(m phase0/week01 check EX=vecadd)"
expect "bench with a name that is no benchmark's lists them, GPU or not" "no benchmark named 'nosuch' in phase0/week01; its benchmarks: " \
  "$(m phase0/week01 bench NAME=nosuch)"
expect "a check of the untouched starter says so, not which files to fix" 'that was the untouched starter \(IMPL=starter\)' \
  "$(m phase4/week18 check IMPL=starter)"
mkdir -p build/phase4/week18 && {
  printf '#wb-results 2\nweek\tcheckpoint\tstatus\treason\tvalue\tunit\tyardstick\tyard_value\tratio\ttarget\tseed\tgpu\ttests\tfailed\tskipped\tdetail\tmessage\n'
  printf 'phase4/week18\tw18.load\tfail\tcode\t-\t-\t-\t-\t-\t-\t1\t-\t1\t1\t0\t-\tx.c:1: wrong\n'
} > build/phase4/week18/results-learner.tsv
# (w18.load's first word is no word of an exercise's name: week.txt's belongs: line says which file it is)
expect "a failing checkpoint names the file week.txt's belongs: gives it (w18.load: model_io), not every file" \
  'fix the failing checkpoint in phase4/week18/model_io\.cu \(look for TODO\)' \
  "$(build/wb report build/phase4/week18/results-learner.tsv phase4/week18 --status 1)"
# A week of two files whose CPU checkpoint names neither (w47.shards, w56.plan, w53.tma-copy's "tma" is
# both files' first word): week.txt's belongs: lines name the one file to fix, not every file of the week.
for wc in "phase8/week47 w47.shards collectives" "phase8/week47 w47.dead-peer ranks" "phase5/week56 w56.plan cluster_hist" \
          "phase5/week53 w53.tma-copy tma_copy" "phase7/week41 w41.saved layernorm"; do
  set -- $wc
  mkdir -p "build/$1" && {
    printf '#wb-results 2\nweek\tcheckpoint\tstatus\treason\tvalue\tunit\tyardstick\tyard_value\tratio\ttarget\tseed\tgpu\ttests\tfailed\tskipped\tdetail\tmessage\n'
    printf '%s\t%s\tfail\tcode\t-\t-\t-\t-\t-\t-\t1\t-\t1\t1\t0\t-\tx.c:1: wrong\n' "$1" "$2"
  } > "build/$1/results-belongs.tsv"
  expect "a failing $2 names $3 alone" "fix the failing checkpoint in $1/$3\.(cu|py) \(look for TODO\)" \
    "$(build/wb report "build/$1/results-belongs.tsv" "$1" --status 1)"
done
# Python modules missing: the line says where the virtual environment's steps are (requirements.txt's first
# lines only point on to phase7/README.md)
mkdir -p build/phase7/week41 && { printf '#wb-results 2\nweek\tcheckpoint\tstatus\treason\tvalue\tunit\tyardstick\tyard_value\tratio\ttarget\tseed\tgpu\ttests\tfailed\tskipped\tdetail\tmessage\n'
  printf "phase7/week41\tw41.forward\tskip\tenv\t-\t-\t-\t-\t-\t-\t1\t-\t0\t0\t1\t-\tpytest not importable: No module named 'pytest'\n"
} > build/phase7/week41/results-pyenv.tsv
expect "missing Python modules: the line names phase7/README.md for the virtual environment" \
  'install -r phase7/requirements.txt. installs .*phase7/README\.md, "What you need", says how' \
  "$(build/wb report build/phase7/week41/results-pyenv.tsv phase7/week41 --status 1)"
# No GPU and no pytest (week 39 on a machine without either): each cause with its own count, not all of them
# "no GPU", and the Next line is the last line
printf "phase7/week41\tw41.kernel\tskip\tnogpu\t-\t-\t-\t-\t-\t-\t1\t-\t0\t0\t1\t-\tno GPU here\n" >> build/phase7/week41/results-pyenv.tsv
out=$(build/wb report build/phase7/week41/results-pyenv.tsv phase7/week41 --status 1)
expect "no GPU and a missing module: the Next line, the last, counts each cause" \
  "^Next: 2 checkpoints could not run here: 1 for want of a GPU \(no GPU here\), 1 for want of what this names \(pytest not importable: No module named 'pytest'\); nothing was recorded for them.*\. Install that, then run the same check on a machine with an NVIDIA GPU\.$" \
  "$(tail -n 1 <<<"$out")"
# README.md's example record is the line a check writes for those figures (a line of week.txt's targets per
# GPU adds which target the GPU met)
ex=$(grep -m1 '^- \[x\] w01\.vecadd-bw | ' "$WB_ROOT/README.md")
IFS='|' read -r _ _ exgpu exfig _ <<<"$ex"; exgpu=$(xargs <<<"$exgpu")
read -r exratio _ _ exval exunit _ _ exyard _ <<<"${exfig//[()]/ }"
mkdir -p build/readme-ex && {
  printf '#wb-results 2\nweek\tcheckpoint\tstatus\treason\tvalue\tunit\tyardstick\tyard_value\tratio\ttarget\tseed\tgpu\ttests\tfailed\tskipped\tdetail\tmessage\n'
  printf 'phase0/week01\tw01.vecadd-bw\tpass\t-\t%s\t%s\tCOPY\t%s\t%s\t0.85\t1\t%s\t1\t0\t0\t%s vs COPY %s\t-\n' \
    "$exval" "$exunit" "$exyard" "$exratio" "$exgpu" "$exval $exunit" "$exyard $exunit"
} > build/readme-ex/r.tsv
WB_PROGRESS=build/readme-ex/p.md build/wb report build/readme-ex/r.tsv phase0/week01 --record --status 0 >/dev/null 2>&1
got=$(grep '^- \[x\] w01\.vecadd-bw' build/readme-ex/p.md 2>/dev/null | sed 's/| [0-9-]* |/| DATE |/')
[ -n "$ex" ] && [ "$got" = "$(sed 's/| [0-9-]* |/| DATE |/' <<<"$ex")" ] &&
  t_pass "learner: README.md's example record is the line a check writes" ||
  t_fail "learner: README.md's example record is the line a check writes" "README: $ex; written: $got"
# README.md's count of a phase quiz's questions holds for every phase's quiz (or names that phase's count)
range=$(grep -oE 'checkpoint quiz of [0-9]+-[0-9]+ questions' "$WB_ROOT/README.md" | grep -oE '[0-9]+-[0-9]+')
off=
for q in quizzes/phase[0-9].txt; do
  p=${q#quizzes/phase}; p=${p%.txt}; nq=$(grep -c '^q: ' "$q")
  { [ -n "$range" ] && [ "$nq" -ge "${range%-*}" ] && [ "$nq" -le "${range#*-}" ]; } ||
    tr '\n' ' ' < "$WB_ROOT/README.md" | grep -qE "Phase $p's has +$nq\b" || off="$off phase$p:$nq"
done
[ -z "$off" ] && t_pass "learner: README.md's number of quiz questions holds for every phase" ||
  t_fail "learner: README.md's number of quiz questions holds for every phase" "README: ${range:-no range}; quizzes:$off"
# README.md's picture of a week's folder (phase0/week01) names every file and folder the week has
unnamed=
for f in $(cd "$WB_ROOT" && git ls-files phase0/week01 2>/dev/null | cut -d/ -f3 | sort -u); do
  grep -qE "^  ${f//./\\.}/? " "$WB_ROOT/README.md" || unnamed="$unnamed $f"
done
[ -z "$unnamed" ] && t_pass "learner: README.md's week folder names every file of phase0/week01" ||
  t_fail "learner: README.md's week folder names every file of phase0/week01" "not named:$unnamed"
# The top README's table of weeks names every optional track week (curriculum.txt's track: lines) in its
# phase's row, so a learner reading README.md week by week finds them.
missing=
while IFS='|' read -r n p _; do
  n=$(tr -dc 0-9 <<<"${n#track:}"); p=$(tr -dc 0-9 <<<"$p")
  row=$(grep -E "^\| $p \| [0-9]{2}-[0-9]{2} \|" "$WB_ROOT/README.md" | awk -F'|' '{print $5}')
  hit=
  for r in $(grep -oE '[0-9]{2}(-[0-9]{2})?' <<<"${row%%:*}"); do
    lo=${r%-*} hi=${r#*-}; [ $((10#$n)) -ge $((10#$lo)) ] && [ $((10#$n)) -le $((10#$hi)) ] && hit=1
  done
  [ -n "$hit" ] || missing="$missing week$n(phase$p)"
done < <(grep '^track:' "$WB_ROOT/common/curriculum.txt")
[ -z "$missing" ] && t_pass "learner: README.md's table of weeks names every optional track week" ||
  t_fail "learner: README.md's table of weeks names every optional track week" "missing:$missing"
# A phase README's row for a week gives the week's targets: every ">= N" followed by "of" or a yardstick's name
# ("0.90 COPY", "0.80 of CUB's", "0.90 of nccl-tests'": NCCL_TESTS) must be a target of that week's week.txt,
# for that yardstick, in every phase. Phases 7 and 8 too: their Python checkpoints' targets are week.txt's
# pycheckpoint: lines, which the Python tests read (phase7/common/wb_targets.py); no test_*.py holds a target
# of its own. Week 10's row said 0.90 and "not yet measured" (0.88, measured), week 13's scan 0.80 of CUB
# (0.90), week 34's softmax 0.6 COPY (0.90).
# row_target_misses P FILE: FILE's week rows (P's README, or a planted copy) against P's week.txt files.
row_target_misses() {
  local p=$1 row nn wt tg got
  while IFS= read -r row; do
    nn=$(sed -nE 's/^\| \[?([0-9]{2})\]?.*/\1/p' <<<"$row"); wt=$p/week$nn/week.txt
    [ -f "$wt" ] || continue
    tg=$(awk -F'|' '/^(py)?checkpoint:/ && NF > 2 { for (i = 3; i <= NF; i++) if (match($i, />= *[0-9.]+ *[A-Za-z_0-9]+/)) {
           s = substr($i, RSTART, RLENGTH); sub(/>= */, "", s); split(s, a, / +/); print a[1] + 0, toupper(a[2]) } }' "$wt")
    got=$(awk -v tg="$tg" 'BEGIN { n = split(tg, l, "\n"); for (i = 1; i <= n; i++) { split(l[i], a, " "); num[a[1] + 0] = 1; pair[a[1] + 0 " " a[2]] = 1; ys[a[2]] = 1 } }
      { s = $0; while (match(s, />= *[0-9.]+/)) {
          v = substr(s, RSTART, RLENGTH); s = substr(s, RSTART + RLENGTH); sub(/>= */, "", v)
          w = s; r = (w ~ /^(x| of )/); sub(/^x/, "", w); sub(/^ of/, "", w); sub(/^ the/, "", w)
          if (match(w, /^ [A-Za-z_0-9]+(-[A-Za-z_0-9]+)*/)) { w = toupper(substr(w, 2, RLENGTH - 1)); gsub(/-/, "_", w) } else w = ""
          k = (v + 0) " " w; if (w in ys) { if (!(k in pair)) printf " %s(%s)", v, w }
          else if (r && !((v + 0) in num)) printf " %s", v } }' <<<"$row")
    [ -n "$got" ] && printf ' %s:%s;' "$p/week$nn" "$got"
  done < <(grep -E '^\| \[?[0-9]{2}\]?' "$2")
}
bad=
for pr in phase[0-9]/README.md; do bad="$bad$(row_target_misses "${pr%/README.md}" "$pr")"; done
# The check reaches phases 7 and 8: a row of each planted with a target week.txt lacks is found.
pl=$BUILD/learner-rows
mkdir -p "$pl"
sed -E '/^\| \[43\]/s/>= 0\.85 of/>= 0.95 of/' phase7/README.md >"$pl/p7.md"
sed -E '/^\| \[48\]/s/ring >= 0\.70 of NCCL/ring >= 0.75 of NCCL/; /^\| \[48\]/s/>= 0\.90 of nccl-tests/>= 0.80 of nccl-tests/' \
  phase8/README.md >"$pl/p8.md"
planted="$(row_target_misses phase7 "$pl/p7.md")$(row_target_misses phase8 "$pl/p8.md")"
[ "$planted" = " phase7/week43: 0.95; phase8/week48: 0.75(NCCL) 0.80(NCCL_TESTS);" ] ||
  bad="$bad (the planted rows of phases 7 and 8 gave '$planted')"
[ -z "$bad" ] && t_pass "learner: each phase README's targets are its weeks' week.txt targets" ||
  t_fail "learner: each phase README's targets are its weeks' week.txt targets" "README row says (week.txt has no such target):$bad"
# Week 58's decode starter opens with what the exercise is: the README's first arrangement and the
# reference's (operands swapped, 16 warps, x staged for ldmatrix), not the first reference's alone.
hdr=$(sed -n '1,/\*\//p' phase6/week58/w4a16_decode.cu)
if grep -q 'blocks of 16 warps cover 512 columns' <<<"$hdr" && grep -q 'swaps the operands' <<<"$hdr" &&
   grep -q 'ldmatrix' <<<"$hdr"; then t_pass "learner: week 58's decode starter describes the exercise as its README does"
else t_fail "learner: week 58's decode starter describes the exercise as its README does" "$(head -c 300 <<<"$hdr")"; fi
# A week with no benchmarks (week 47: correctness only) says so, GPU or not, instead of "benchmarks need a GPU"
out=$(m phase8/week47 bench)
expect "bench on a week without benchmarks says it has none, not that they need a GPU" \
  '^phase8/week47 has no benchmarks: nothing was measured\. `make phase8/week47 check` runs its checkpoints' "$out"
grep -q 'need a GPU' <<<"$out" && t_fail "learner: bench on a week without benchmarks does not ask for a GPU" "$out"
expect "bench on a Python-only week says where its speed checkpoints run" "phase8/week63 is Python only: its checkpoints, the speed ones too, run in 'make phase8/week63 check'" "$(m phase8/week63 bench)"
expect "a misspelt variable stops the build" 'no part of the workbook reads IM[L]P \(did you mean IMPL\?\)' "$(m phase0/week01 "IM""LP=starter")"
expect "make hint inside a week folder is the week's hint" '^Hint [0-9]+ of [0-9]+ for phase0/week01' "$(cd phase0/week01 && m hint)"
expect "make check inside a phase folder says what to type" "run make from the workbook's top folder" "$(cd phase0 && m check)"

mkdir -p phase2/week99 && cp phase0/week01/week.txt phase2/week99/
expect "a week folder without a curriculum line is refused by name" 'phase2/week99/week.txt: week 99 has no line in common/curriculum.txt' "$(m status)"
rm -rf phase2/week99
echo 'belongs: w03.nosuch | roofline' >> phase0/week03/week.txt
expect "a belongs: line naming no checkpoint of the week is refused by name" "belongs: 'w03\.nosuch' is not a checkpoint of the week" "$(m status)"
git -C "$WB_ROOT" show HEAD:phase0/week03/week.txt > phase0/week03/week.txt 2>/dev/null || cp "$WB_ROOT/phase0/week03/week.txt" phase0/week03/week.txt
sed -i 's/^checkpoint: w02\./checkpoint: w01./' phase0/week02/week.txt
expect "a checkpoint id of another week is refused by name" "checkpoint 'w01\.[a-z-]+' must start with 'w02\.'" "$(m status)"
t_end
