# tests/lib.sh — sourced by every test script of the workbook (tests/*.sh,
# instructor/tests/*.sh, a week's test_*.sh).
#
# A test step writes one ledger line per thing it checks (PASS, FAIL or
# SKIP, a label, a detail), through `wb ledger-add`. Run by tests/run.sh
# (what `make test` runs), every step appends to the one ledger LEDGER names
# and the runner prints the closing count. Run alone (`bash tests/weeks.sh`),
# a step keeps a ledger of its own and prints its own closing line:
# "N passed, N failed, N skipped", exit 1 when anything failed.
#
# What make passes on is read from the environment, with the defaults a
# plain checkout has: MAKE (the make that runs the step), NPROC, TEST_WEEKS.
# Command-line variables of `make test` (CHECK_DIR=, NVCC=, ARCH=) reach the
# makes a step starts through MAKEFLAGS, as for any recipe.

set -u
WB_ROOT=$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)
cd "$WB_ROOT" || exit 2
BUILD=build
WB=$BUILD/wb
MAKE=${MAKE:-make}
NPROC=${NPROC:-$(nproc 2>/dev/null || echo 2)}
# NVLink multicast stays off in every process a test starts (the Makefile
# sets the same for every recipe; common/include/wb_multicast.h says why).
export NCCL_NVLS_ENABLE=0 TORCH_SYMM_MEM_DISABLE_MULTICAST=1 NVSHMEM_DISABLE_NVLS=1

# t_begin NAME: start a step. Builds the tool that writes the ledger; alone,
# the step gets build/tests/NAME.tsv as its ledger and t_end closes it.
t_begin() {
  T_NAME=$1
  $MAKE -s "$WB" >/dev/null || { echo ">>> $T_NAME: $WB does not build (make $WB shows why)"; exit 2; }
  if [ -z "${LEDGER:-}" ]; then
    T_ALONE=1
    mkdir -p "$BUILD/tests"
    LEDGER=$WB_ROOT/$BUILD/tests/$T_NAME.tsv
    rm -f "$LEDGER"
  else
    T_ALONE=
  fi
  export LEDGER
}

t_pass() { "$WB" ledger-add "$LEDGER" PASS "$1" "${2:-}"; }
t_fail() { "$WB" ledger-add "$LEDGER" FAIL "$1" "${2:-}"; }
t_skip() { "$WB" ledger-add "$LEDGER" SKIP "$1" "${2:-}"; }

# t_tsv FILE: copy the STATUS<TAB>LABEL<TAB>DETAIL lines a test program wrote.
t_tsv() {
  local st label detail
  [ -f "$1" ] || return 0
  while IFS=$'\t' read -r st label detail; do "$WB" ledger-add "$LEDGER" "$st" "$label" "$detail"; done <"$1"
}

# t_end: alone, the closing line and the exit status; under the runner, 0.
t_end() {
  if [ -n "$T_ALONE" ]; then
    echo
    "$WB" ledger "$LEDGER"
    exit $?
  fi
  exit 0
}

# Every folder with a week.txt, in order.
all_weeks() {
  local w
  for w in phase[0-9]/week[0-9][0-9]/week.txt; do [ -f "$w" ] && echo "${w%/week.txt}"; done
}

# canon_weeks "phase0/week1 phase5/week23/": the week names as folders
# (phase0/week01), or a message naming the first that is not a week.
canon_weeks() {
  local w c
  for w in $1; do
    c=$(echo "$w" | sed -E 's#/+$##; s#^(phase[0-9])/week([0-9])$#\1/week0\2#')
    [ -f "$c/week.txt" ] || { echo ">>> '$w' is not a week of this workbook; \`make status\` lists them" >&2; return 2; }
    echo "$c"
  done
}

has_c_test() { compgen -G "$1/test_*.c" >/dev/null; }
has_py_test() { compgen -G "$1/test_*.py" >/dev/null; }
