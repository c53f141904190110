#!/usr/bin/env bash
# phase3/week13/test_sass.sh — what week 13's README says the compiler makes
# of cgreduce and scan1pass, read from the SASS (run by make test after the
# weeks; alone: bash phase3/week13/test_sass.sh). No GPU needed: the
# reference's objects (your files in a student copy) are built for ARCH and
# disassembled with cuobjdump -sass, as `make phase3/week13 sass` does:
#   redux_kernel (__reduce_add/max/min_sync on unsigned)  REDUX.SUM, REDUX.MAX, REDUX.MIN, no SHFL
#   cg_tile_kernel, cg_sum_kernel (cg::reduce on float)   SHFL.BFLY, no REDUX.SUM/MAX/MIN
#   scan1pass_kernel                                       REDUX.SUM (the look-back), LDG.E.128, 16-byte STG,
#                                                          ST.E.64.STRONG.GPU (a relaxed status word), no MEMBAR
# REDUX exists from sm_80 on: for an older ARCH the step is SKIP.
. "$(dirname "$0")/../../tests/lib.sh"
t_begin week13-sass

w=phase3/week13
[ -f $w/solution/cgreduce.cu ] && impl=solution || impl=learner
log=$BUILD/$w/sass-test.log
mkdir -p "$BUILD/$w"
nvcc_dir=$(dirname "$(command -v nvcc 2>/dev/null || echo /usr/local/cuda/bin/nvcc)")
cuobjdump=$(command -v cuobjdump 2>/dev/null || echo "${CUDA_HOME:-$nvcc_dir/..}/bin/cuobjdump")
if [ ! -x "$cuobjdump" ]; then
  t_skip "week 13: REDUX and SHFL in the SASS" "cuobjdump not found (it ships with the CUDA toolkit, beside nvcc)"; t_end
fi
objs="$BUILD/$w/$impl/cgreduce.o $BUILD/$w/$impl/scan1pass.o"
if ! $MAKE -s $objs >"$log" 2>&1; then
  cat "$log"; t_fail "week 13: REDUX and SHFL in the SASS" "the objects do not build (see $log)"; t_end
fi
for o in $objs; do
  if ! "$cuobjdump" -sass "$o" >"${o%.o}.sass" 2>>"$log"; then
    cat "$log"; t_fail "week 13: REDUX and SHFL in the SASS" "cuobjdump -sass $o failed (see $log)"; t_end
  fi
done
arch=$(sed -n 's/.*arch = sm_\([0-9]*\).*/\1/p' "$BUILD/$w/$impl/cgreduce.sass" | head -n1)
if [ -z "$arch" ] || [ "$arch" -lt 80 ]; then
  t_skip "week 13: REDUX and SHFL in the SASS" "built for sm_${arch:-?}: REDUX needs sm_80 or later"; t_end
fi

# has SASS FUNC REGEX: some function whose name contains FUNC has an
# instruction matching REGEX.
has() {
  awk -v f="$2" -v re="$3" '/Function :/ { on = index($0, f) > 0; next } on && $0 ~ re { found = 1 } END { exit !found }' "$1"
}
cg=$BUILD/$w/$impl/cgreduce.sass scan=$BUILD/$w/$impl/scan1pass.sass
bad=""
for op in SUM MAX MIN; do has $cg redux_kernel "REDUX[.]$op " || bad="$bad; redux_kernel has no REDUX.$op"; done
has $cg redux_kernel "SHFL" && bad="$bad; redux_kernel has SHFL (shuffles, not REDUX)"
for f in cg_tile_kernel cg_sum_kernel; do
  has $cg $f "SHFL[.]BFLY" || bad="$bad; $f has no SHFL.BFLY"
  has $cg $f "REDUX[.](SUM|MAX|MIN)" && bad="$bad; $f has a REDUX.SUM/MAX/MIN (a float reduction cannot)"
done
has $scan scan1pass_kernel "REDUX[.]SUM " || bad="$bad; scan1pass_kernel has no REDUX.SUM (the look-back's __reduce_add_sync)"
has $scan scan1pass_kernel "LDG[.]E[.A-Z]*[.]128 " || bad="$bad; scan1pass_kernel has no 16-byte load (LDG.E.128)"
has $scan scan1pass_kernel "STG[.]E[.A-Z]*[.]128 " || bad="$bad; scan1pass_kernel has no 16-byte store (STG.E.128)"
has $scan scan1pass_kernel "ST[.]E[.]64[.]STRONG[.]GPU" || bad="$bad; scan1pass_kernel has no 64-bit strong store at GPU scope (the status word)"
has $scan scan1pass_kernel "MEMBAR" && bad="$bad; scan1pass_kernel has a MEMBAR (relaxed status words need no fence)"
what="week 13: REDUX and SHFL in the SASS (sm_$arch)"
if [ -z "$bad" ]; then
  t_pass "$what" "__reduce_*_sync -> REDUX, cg::reduce on float -> SHFL.BFLY, scan1pass: REDUX.SUM, 16-byte loads and stores, relaxed status words without a fence ($cg, $scan)"
elif [ $impl = learner ]; then
  t_skip "$what" "not yet in your code:${bad#;} ($cg, $scan)"
else
  t_fail "$what" "${bad#; } ($cg, $scan)"
fi

t_end
