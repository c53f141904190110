#!/usr/bin/env bash
# release_smoke.sh CHECK_DIR NVCC — make a release of phase0/week01 in a
# temporary folder and use it as a learner would: build, check (without a
# GPU: the GPU tests skip), reset, check the starter, take a quiz.
set -uo pipefail
check_dir=${1:-}; nvcc=${2:-nvcc}
root=$(cd "$(dirname "$0")/.." && pwd)
tmp=$(mktemp -d /tmp/wb-release-XXXXXX)
trap 'rm -rf "$tmp"' EXIT
cd "$root"
bash instructor/release.sh "$tmp/wb" phase0/week01 || exit 1
cd "$tmp/wb"
unset MAKEFLAGS MAKELEVEL
args=(NVCC="$nvcc"); [ -n "$check_dir" ] && args+=(CHECK_DIR="$check_dir")
make "${args[@]}" phase0/week01 || { echo "the student copy does not build phase0/week01"; exit 1; }
WB_NO_GPU=1 make "${args[@]}" phase0/week01 check > check.log 2>&1
grep -q "w01.vecadd-bw" check.log || { cat check.log; echo "check printed no checkpoints"; exit 1; }
echo "modified" >> phase0/week01/vecadd.cu
make phase0/week01 reset || exit 1
cmp phase0/week01/vecadd.cu phase0/week01/.starter/vecadd.cu || { echo "reset did not restore the starter"; exit 1; }
WB_NO_GPU=1 make "${args[@]}" phase0/week01 check IMPL=starter > starter.log 2>&1
grep -q "w01.devquery" starter.log || { cat starter.log; echo "IMPL=starter does not build in the student copy"; exit 1; }
printf '1: b\n' > ans.txt
make "${args[@]}" quiz PHASE=0 ANSWERS=ans.txt > quiz.log 2>&1
grep -q "of .* right" quiz.log || { cat quiz.log; echo "make quiz does not work in the student copy"; exit 1; }
make grade >/dev/null 2>&1 && { echo "make grade works in the student copy: it should not"; exit 1; }
# The whole workbook: every week keeps its files, and a week whose benchmark
# runs earlier weeks' kernels (week 24's ladder) builds from the learner's own.
cd "$root"
bash instructor/release.sh "$tmp/all" > "$tmp/all.log" 2>&1 || { cat "$tmp/all.log"; echo "the release of the whole workbook failed"; exit 1; }
cd "$tmp/all"
make "${args[@]}" phase5/week24 > build24.log 2>&1 || { tail -20 build24.log; echo "the student copy does not build phase5/week24"; exit 1; }
echo "release smoke test: phase0/week01 builds, checks, resets and the quiz runs in the student copy; the whole workbook releases and phase5/week24 builds in it"
