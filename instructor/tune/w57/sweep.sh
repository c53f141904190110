#!/bin/bash
# instructor/tune/w57/sweep.sh — builds week 57's test once per knob set, the
# reference compiled with that set, and runs its speed benchmark (and, with
# TUNE_W57_BENCH=split, the split rows): every set in one run on one GPU, each
# against COPY measured in its own process. Called by `make tune-w57`
# (tune.mk), which passes the toolchain in the environment.
#
# A set is knobs joined by '-': W (PAGED_WARPS), T (PAGED_TOKENS), G
# (PAGED_TOKENS_G8), A (PAGED_STAGES), Z (PAGED_SPAN), M
# (PAGED_MIN_BLOCKS), S (PAGED_PARTITION, the benchmarks' partition: the test
# is rebuilt with it), each followed by its value: W4-T8-A3-S1024, W4-A3-Z2. A knob not named keeps its
# default (phase6/week57/solution/paged_attn.cu, "tuning knobs").
set -u
. instructor/tune/bench_set.sh
WK=phase6/week57
OUT=$BUILD/tune/w57
bench=${TUNE_W57_BENCH:-decode}
summary=$OUT/summary.txt
mkdir -p "$OUT"
: > "$summary"
for set in $TUNE_W57_SETS; do
    flags= pflags=
    for k in ${set//-/ }; do
        case $k in
        W*) flags="$flags -DPAGED_WARPS=${k#W}" ;;
        T*) flags="$flags -DPAGED_TOKENS=${k#T}" ;;
        G*) flags="$flags -DPAGED_TOKENS_G8=${k#G}" ;;
        A*) flags="$flags -DPAGED_STAGES=${k#A}" ;;
        Z*) flags="$flags -DPAGED_SPAN=${k#Z}" ;;
        M*) flags="$flags -DPAGED_MIN_BLOCKS=${k#M}" ;;
        S*) pflags="-DPAGED_PARTITION=${k#S}" ;;
        *) echo "tune-w57: '$k' of set '$set' is no knob (W, T, G, A, Z, M, S followed by a value)"; exit 2 ;;
        esac
    done
    d=$OUT/$set
    mkdir -p "$d"
    echo "== $set:$flags $pflags"
    $NVCC $NVFLAGS -Iphase6/common -I$WK $flags $pflags -Xptxas -v -c $WK/solution/paged_attn.cu -o "$d/paged_attn.o" \
        > "$d/ptxas.txt" 2>&1 || { cat "$d/ptxas.txt"; echo "$set: does not compile" >> "$summary"; continue; }
    regs=$(grep -A3 "kernelILi128ELi4E" "$d/ptxas.txt" | grep -o "Used [0-9]* registers" | head -1)
    spill=$(grep -A3 "kernelILi128ELi4E" "$d/ptxas.txt" | grep -o "[0-9]* bytes spill stores" | head -1)
    $CC $CFLAGS -I$WK -Iphase6/common $pflags -c $WK/test_week57.c -o "$d/test.o" &&
        $CXX -o "$d/test" "$d/test.o" "$d/paged_attn.o" $LIBWB $LDCUDA $LDCHECK || { echo "$set: does not build" >> "$summary"; continue; }
    row=$(tune_bench tune-w57 $WK "$d/test" "$bench" "GB/s" "$d/bench.txt") || exit 2
    echo "$set (D128/G4: $regs, $spill): $row" >> "$summary"
done
echo
echo "== summary (also in $summary)"
cat "$summary"
