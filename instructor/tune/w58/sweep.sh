#!/bin/bash
# instructor/tune/w58/sweep.sh — `make tune-w58` (tune.mk): for every set of
# TUNE_W58_SETS, week 58 built with the reference compiled with the set's
# macros in a build folder of its own, its check (all four checkpoints;
# w58.decode and w58.decode-speed are the decode kernel's) and its batch
# benchmark (decode at M = 1..16 against COPY, cuBLAS's FP16 GEMV); the
# output in build/tune/w58/SET.txt, the decode-speed line of each in
# build/tune/w58/summary.txt. Each set builds the workbook's library and the
# week afresh (a few minutes on 16 cores): give TUNE_W58_SETS two or three
# sets a call where a call is limited to 10 minutes.
set -u
OUT=build/tune/w58
mkdir -p "$OUT"
summary=$OUT/summary.txt
: > "$summary"
for set in $TUNE_W58_SETS; do
    flags=
    for d in ${set//,/ }; do flags="$flags -D$d"; done
    tag=$(echo "$set" | sed 's/W58_DEC_VARIANT=/v/; s/W58_DEC4_STAGES=/st/; s/W58_DEC4_BLOCKS=/b/; s/W58_DEC4_XBULK=/x/; s/,/-/g')
    b=build-w58-$tag
    log=$OUT/$tag.txt
    echo "== $set ($b)" | tee "$log"
    make -s phase6/week58 check IMPL=solution BUILD="$b" W58DEC="$flags" >> "$log" 2>&1
    make -s phase6/week58 bench NAME=batch IMPL=solution BUILD="$b" W58DEC="$flags" >> "$log" 2>&1
    cat "$log"
    echo "$set: $(grep -E 'w58.decode( |-speed)' "$log" | sed 's/  */ /g' | tr '\n' ';')" >> "$summary"
done
echo
echo "== summary (also in $summary)"
cat "$summary"
