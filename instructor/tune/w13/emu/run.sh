#!/usr/bin/env bash
# run.sh — cpu_emu (instructor/tune/w13): builds week 13's reference
# scan1pass for the CPU (emu.h) at the knobs given as arguments and runs the
# checks of emu_main.cc. From anywhere in the repository, no GPU needed:
#   bash instructor/tune/w13/emu/run.sh                              the defaults
#   bash instructor/tune/w13/emu/run.sh -DSCAN1_THREADS=512 -DSCAN1_ITEMS=32 -DSCAN1_LOOKBACK=2
# EMU_OUT (default /tmp/w13emu) holds the extracted kernel and the program;
# EMU_LARGE=1 adds the 100M + 7 case; EMU_SRC=FILE checks another copy of the
# reference (a mutant, to see a check fail). Exit status 0 when every check passed.
set -euo pipefail
root=$(git -C "$(dirname "$0")" rev-parse --show-toplevel)
here=$root/instructor/tune/w13/emu
src=${EMU_SRC:-$root/phase3/week13/solution/scan1pass.cu}
out=${EMU_OUT:-/tmp/w13emu}
mkdir -p "$out"
cuda_inc=${CUDA_HOME:-$(dirname "$(dirname "$(command -v nvcc || echo /usr/local/cuda/bin/nvcc)")")}/include
# The reference as the workbook builds it, less the starter's alternative
# (//@starter .. //@end), with the one launch kernel<<<grid, threads>>>(args)
# rewritten as EMU_LAUNCH(grid, threads, kernel, args).
{ sed -n '1,/^\/\/@starter/p' "$src" | sed '$d'; sed -n '/^\/\/@end/,$p' "$src"; } |
  perl -0pe 's/(\w+)<<<([^,]+),\s*([^>]+)>>>\(/EMU_LAUNCH($2, $3, $1, /g' >"$out/kernel.cc"
grep -q EMU_LAUNCH "$out/kernel.cc" || { echo "run.sh: no kernel launch found in $src" >&2; exit 2; }
tag=$(echo "$*" | tr -c 'A-Za-z0-9=_\n' '_' | tr -d '\n')
g++ -std=c++17 -O2 -g -Wall -Wextra -Wno-unknown-pragmas -Wno-unused-parameter -pthread \
  -I"$here" -I"$root/phase3/week13" -I"$cuda_inc" "$@" -DKERNEL_FILE="\"$out/kernel.cc\"" \
  "$here/emu_main.cc" -o "$out/emu$tag"
"$out/emu$tag"
