#!/usr/bin/env bash
# instructor/tests/judge_w04.sh — week 04 graded with its judge without a GPU
# (instructor/README.md, "The judge and the runner"; build/instructor/judge-w04).
# Its CPU checkpoints are judged through the runner with or without a GPU:
# w04.cli-args (cli_saxpy's exit codes and printed text sent back),
# w04.mybench-csv (the CSV's text sent back) and w04.mytest (the student's
# mt_check_saxpy handed a SAXPY the judge computes, jr_back). The class:
# the reference (PASS), the starter (FAIL), lax (the reference with a 1e-3
# tolerance in mt_check_saxpy: it passes the half-precision SAXPY, so
# w04.mytest FAILs), exact (== instead of a tolerance: it fails the
# correct SAXPYs) and greedy (the reference's checks after 1100 SAXPYs it
# ignores: judged, past the judge's 1024 SAXPYs a call, w04.mytest FAILs). Graded with --judge 1 and without it: the same cells (greedy's w04.mytest apart). The
# grader says which checkpoints it leaves to the test program (w04.cli,
# w04.mybench, w04.dot-bw: judge-w04 --list does not name them). The judge
# by itself over the reference's and the starter's runners, plain and in
# the sandbox: every GPU checkpoint SKIP, never PASS. Needs libarchive and
# a working bwrap.
. "$(dirname "$0")/lib.sh"
t_begin instructor-judge-w04

label="grade --judge 1: week 04 judged outside the student's process, without a GPU"
have_libarchive || { t_skip "$label" "libarchive's headers are missing"; t_end; }
if ! why=$(mkdir -p "$BUILD" && sandbox_ok "$PWD/$BUILD"); then t_skip "$label" "$why"; t_end; fi
log=$BUILD/instructor/judge-w04-test
rm -rf "$log" && mkdir -p "$log/scratch/judged" "$log/scratch/linked" && chmod 755 "$log" "$log/scratch" "$log/scratch/judged" "$log/scratch/linked"
c=$log/class
bad=
mkdir -p "$c/correct/phase0/week04" "$c/starter/phase0/week04" "$c/lax/phase0/week04" "$c/exact/phase0/week04" "$c/leaker/phase0/week04"
cp phase0/week04/solution/saxpylib.cu phase0/week04/solution/cli.cu phase0/week04/solution/mytest.cu "$c/correct/phase0/week04/"
put_starters phase0/week04 "$c/starter/phase0/week04"
cp "$c/correct/phase0/week04/"*.cu "$c/lax/phase0/week04/"
cp "$c/correct/phase0/week04/"*.cu "$c/exact/phase0/week04/"
sed -i 's/1e-6 + 1e-6 \* fabs(want)/1e-3 + 1e-3 * fabs(want)/' "$c/lax/phase0/week04/mytest.cu"
sed -i 's/!(fabs((double)y\[i\] - want) <= 1e-6 + 1e-6 \* fabs(want))/(double)y[i] != want/' "$c/exact/phase0/week04/mytest.cu"
grep -q '1e-3 + 1e-3' "$c/lax/phase0/week04/mytest.cu" || bad="$bad lax's mytest.cu was not made;"
grep -q '!= want' "$c/exact/phase0/week04/mytest.cu" || bad="$bad exact's mytest.cu was not made;"
# greedy: the reference's checks, after 1100 SAXPYs of 4 floats whose results it ignores (lib.sh's
# greedy_w04). Before, the judge did up to 65536 SAXPYs of 2^25 floats a call, bounded only by the wall
# clock, and greedy passed judged.
greedy_w04 "$c/greedy/phase0/week04" || bad="$bad greedy's mytest.cu was not made;"
# leaker: honest checks on the seeds the class run hands mt_check_saxpy (the
# judge's draws from the class seed, which a student can compute), and on any
# other seed (a hidden test's) a failure that logs the seed it was handed: the
# hidden test fails, and its feedback must carry neither that line nor the
# hidden seed (instructor/weeks/phase0/week04/seeds.txt)
cp "$c/correct/phase0/week04/"*.cu "$c/leaker/phase0/week04/"
draws=$log/draws
$MAKE -s "$BUILD/libwb.a" >"$draws.build.log" 2>&1 # on a fresh tree nothing has built it yet
printf '#include <stdio.h>\n#include <stdlib.h>\n#include "wb_rand.h"\nint main(int c, char **v) { (void)c; for (int i = 0; i < 64; i++) {'\
' wb_rng r = wb_rng_for_seed(strtoull(v[1], 0, 0), "mytest_cpu_fn", i); printf("%%lluull, ", (unsigned long long)wb_rng_u64(&r)); } return 0; }\n' >"$draws.c"
if cc -std=c11 -Icommon/include "$draws.c" "$BUILD/libwb.a" -lm -o "$draws" 2>"$draws.log" && list=$("$draws" "$SEED") && [ -n "$list" ]; then
  sed -i 's/^int mt_check_saxpy(mt_saxpy_fn saxpy, uint64_t seed, FILE \*log)$/static int mt_honest(mt_saxpy_fn saxpy, uint64_t seed, FILE *log)/' "$c/leaker/phase0/week04/mytest.cu"
  cat >>"$c/leaker/phase0/week04/mytest.cu" <<EOF
static const uint64_t CLASS_DRAWS[] = { $list };
int mt_check_saxpy(mt_saxpy_fn saxpy, uint64_t seed, FILE *log)
{
    for (size_t k = 0; k < sizeof CLASS_DRAWS / sizeof CLASS_DRAWS[0]; k++)
        if (seed == CLASS_DRAWS[k]) return mt_honest(saxpy, seed, log);
    fprintf(log, "LEAKED-%llu-\n", (unsigned long long)seed);
    return 1;
}
EOF
  grep -q 'static int mt_honest' "$c/leaker/phase0/week04/mytest.cu" || bad="$bad leaker's mytest.cu was not made;"
else
  bad="$bad the class seed's draws for leaker were not computed (see $draws.log);"
fi
if ! $MAKE -s judge-w04 "$GRADE_BIN" "$BUILD/phase0/week04/starter/test" >"$log/build.log" 2>&1; then
  tail -n 20 "$log/build.log"; t_fail "$label" "judge-w04 or the grader does not build (see $log/build.log)"; t_end
fi
# shellcheck disable=SC2046
grade() { WB_NO_GPU=1 "$GRADE_BIN" --root . --submissions "$c" --weeks phase0/week04 --gradebook "$log/$1.csv" \
  --seed "$SEED" --limit 60 --jobs 2 --scratch "$log/scratch/$1" $(grade_make_args) "${@:2}" >"$log/$1.log" 2>&1; }
# the ten checkpoints in week.txt's order: saxpy dot cli-args cli saxpy-bw mytest mytest-lib mybench-csv mybench dot-bw
cells() { awk -F, -v who="$2" '$1 == who { print $2 "," $3 "," $4 "," $5 "," $6 "," $7 "," $8 "," $9 "," $10 "," $11 }' "$log/$1.csv"; }
grade judged --judge 1; grade linked
for who in correct starter lax exact leaker; do
  # GPU checkpoints SKIP; cli-args, mytest, mybench-csv (CPU) full marks or 0
  case $who in
    correct) want="SKIP,SKIP,*,SKIP,SKIP,*,SKIP,*,SKIP,SKIP" ;;
    starter) want="SKIP,SKIP,0.00,SKIP,SKIP,0.00,SKIP,0.00,SKIP,SKIP" ;;
    *) want="SKIP,SKIP,*,SKIP,SKIP,0.00,SKIP,*,SKIP,SKIP" ;;
  esac
  for how in judged linked; do
    got=$(cells $how $who)
    # shellcheck disable=SC2053
    [[ -n $got && $got == $want && ($who = starter || $got != SKIP,SKIP,0.00,*) && ($who = starter || $got != *,0.00,SKIP,SKIP) ]] ||
      bad="$bad $who: $how $got, expected $want;"
  done
  [ "$(cells judged $who)" = "$(cells linked $who)" ] || bad="$bad $who: judged $(cells judged $who) but linked $(cells linked $who);"
done
grep -q "phase0/week04: judged outside the student's process (--judge 1); left to its test program (.*): w04.cli, w04.mybench, w04.dot-bw$" \
  "$log/judged.log" || bad="$bad the grader did not say it judges week 04 and leaves w04.cli, w04.mybench, w04.dot-bw to the test program;"
grep -q "half precision" "$log/judged-feedback/lax.md" 2>/dev/null || bad="$bad lax's FAIL does not name the half-precision SAXPY;"
grep -q "not with ==" "$log/judged-feedback/exact.md" 2>/dev/null || bad="$bad exact's FAIL does not say \"not with ==\";"
grep -q "starter returns -1" "$log/judged-feedback/starter.md" 2>/dev/null || bad="$bad the starter's FAIL does not say mt_check_saxpy returned -1;"
# greedy: w04.mytest 0 judged, with the reason; full marks linked (its checks are right)
[ "$(cells judged greedy)" = "SKIP,SKIP,10.00,SKIP,SKIP,0.00,SKIP,10.00,SKIP,SKIP" ] ||
  bad="$bad greedy: judged $(cells judged greedy), expected SKIP,SKIP,10.00,SKIP,SKIP,0.00,SKIP,10.00,SKIP,SKIP;"
[ "$(cells linked greedy)" = "SKIP,SKIP,10.00,SKIP,SKIP,10.00,SKIP,10.00,SKIP,SKIP" ] ||
  bad="$bad greedy: linked $(cells linked greedy), expected SKIP,SKIP,10.00,SKIP,SKIP,10.00,SKIP,10.00,SKIP,SKIP;"
grep -q "w04.mytest.*your checks asked the judge for more than 1024 SAXPYs in one mt_check_saxpy call" \
  "$log/judged-feedback/greedy.md" 2>/dev/null || bad="$bad greedy: its judged FAIL does not say it asked the judge for more than 1024 SAXPYs;"
# leaker passes the class run and fails the hidden one, told by its kind only
hseed=$(grep -v '^#' instructor/weeks/phase0/week04/seeds.txt | head -n 1)
for how in judged linked; do
  f=$log/$how-feedback/leaker.md
  grep -q "w04.mytest.*hidden test 1 of 1 failed: wrong result" "$f" 2>/dev/null || bad="$bad leaker ($how): its feedback does not say hidden test 1 of 1 failed: wrong result;"
  ! grep -q "LEAKED" "$f" 2>/dev/null || bad="$bad leaker ($how): its feedback quotes what its code logged in a hidden run;"
  ! grep -q "$hseed" "$f" 2>/dev/null || bad="$bad leaker ($how): its feedback shows the hidden seed;"
done
# the judge by itself: the reference's runner and the starter's, plain and sandboxed; every GPU checkpoint SKIP
for impl in solution starter; do
  for how in plain sandbox; do
    got=$(judge_alone 04 phase0/week04 $impl $how "$log")
    want=$([ $impl = solution ] && echo skip,skip,pass,skip,pass,skip,pass || echo skip,skip,fail,skip,fail,skip,fail)
    [ "$got" = "$want" ] || bad="$bad judge-w04 over the $impl's runner ($how): $got, expected $want;"
  done
done
[ "$("$BUILD/instructor/judge-w04" --list | tr '\n' ' ')" = "w04.saxpy w04.dot w04.cli-args w04.saxpy-bw w04.mytest w04.mytest-lib w04.mybench-csv " ] ||
  bad="$bad judge-w04 --list: $("$BUILD/instructor/judge-w04" --list | tr '\n' ' ');"
c4=$(bash instructor/judge_calibrate.sh "$BUILD" phase0/week04)
[[ $c4 == *"w04.saxpy-bw not run"* ]] || bad="$bad calibration of week 04 without a GPU: '$c4';"
if [ -z "$bad" ]; then t_pass "$label" "cli-args, mytest and mybench-csv judged through the runner (the reference PASSes; the starter, a lax and an exact mt_check_saxpy FAIL, as linked), the GPU checkpoints SKIP, cli, mybench and dot-bw left to the test program; the judge alone the same, plain and sandboxed"
else t_fail "$label" "$bad (see $log)"; fi
t_end
