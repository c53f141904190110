#!/bin/bash
# instructor/tune/w57/emu/run.sh — `make tune-w57-emu`: for every knob set
# (sweep.sh's notation; M and S do not change what the kernel computes and
# are ignored here), week 57's reference compiled for the CPU with that set
# and run on the w57.decode cases (README.md beside this file).
set -u
E=instructor/tune/w57/emu
OUT=$BUILD/tune/w57-emu
mkdir -p "$OUT"
CUDA_INC=${CUDA_INC:-/usr/local/cuda/include}
python3 $E/gen.py phase6/week57/solution/paged_attn.cu > "$OUT/emu_tu.inc" || exit 1
$CC -O2 -Icommon/include -c common/src/wb_rand.c -o "$OUT/wb_rand.o" || exit 1
$CXX -O2 -std=c++17 -I$CUDA_INC -c $E/emu_rt.cc -o "$OUT/emu_rt.o" || exit 1
st=0
for set in ${TUNE_W57_SETS:-W4}; do
    flags=
    for k in ${set//-/ }; do
        case $k in
        W*) flags="$flags -DPAGED_WARPS=${k#W}" ;;
        T*) flags="$flags -DPAGED_TOKENS=${k#T}" ;;
        G*) flags="$flags -DPAGED_TOKENS_G8=${k#G}" ;;
        A*) flags="$flags -DPAGED_STAGES=${k#A}" ;;
        Z*) flags="$flags -DPAGED_SPAN=${k#Z}" ;;
        M* | S*) ;;
        *) echo "tune-w57-emu: '$k' of set '$set' is no knob"; exit 2 ;;
        esac
    done
    $CXX -O2 -std=c++17 -w $flags -I"$OUT" -I$E -Iphase6/week57 -Icommon/include -I$CUDA_INC $E/emu_test.cc \
        "$OUT/emu_rt.o" "$OUT/wb_rand.o" -o "$OUT/emu" -lm || { st=1; continue; }
    echo "== $set"
    "$OUT/emu" ${TUNE_W57_EMU_SEEDS:-1} || st=1
done
exit $st
