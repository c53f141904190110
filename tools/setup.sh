#!/usr/bin/env bash
# Checks (and where it can, installs) what the workbook needs: the CUDA
# toolkit's nvcc, Check's static libraries for the tests, gnuplot for plots.
# Called by the Makefile before the first build; prints one line on what to
# do when something is missing and cannot be installed from here.
set -u
NVCC=${NVCC:-nvcc}
CHECK_DIR=${CHECK_DIR:-}
PKGS="check gnuplot-nox"

if ! command -v "$NVCC" >/dev/null 2>&1 && [ ! -x "$NVCC" ]; then
  echo ">>> nvcc not found. Install the CUDA Toolkit (https://developer.nvidia.com/cuda-downloads) and put its bin/ on PATH, or run: make NVCC=/path/to/nvcc ..." >&2
  exit 1
fi

have_check() {
  if [ -n "$CHECK_DIR" ]; then
    [ -f "$CHECK_DIR/include/check.h" ] && [ -f "$CHECK_DIR/lib/libcheck_pic.a" ] && [ -f "$CHECK_DIR/lib/libsubunit.a" ]
    return
  fi
  [ -f /usr/include/check.h ] || return 1
  for d in /usr/lib/x86_64-linux-gnu /usr/lib/aarch64-linux-gnu /usr/lib64 /usr/lib /usr/local/lib; do
    [ -f "$d/libcheck_pic.a" ] && [ -f "$d/libsubunit.a" ] && return 0
  done
  return 1
}

install_pkgs() {
  local want="$*" sudo=""
  command -v apt-get >/dev/null 2>&1 || return 1
  [ "${WB_NO_APT:-0}" = 1 ] && return 1   # a machine with no package network
  if [ "$(id -u)" != 0 ]; then
    sudo -n true 2>/dev/null || return 1
    sudo="sudo -n"
  fi
  echo "Installing $want (apt-get)..."
  APT_LOG=$(mktemp)
  if ! { $sudo apt-get update -qq && DEBIAN_FRONTEND=noninteractive $sudo apt-get install -y -qq $want; } >"$APT_LOG" 2>&1; then
    # Show what apt-get said: the same command again would fail the same way.
    echo ">>> apt-get could not install $want. It said:" >&2
    grep -E '^(E|W|Err):|[Ee]rror|[Uu]nable|[Ff]ailed' "$APT_LOG" | tail -n 5 | sed 's/^/    /' >&2
    [ -s "$APT_LOG" ] || echo "    (nothing)" >&2
    APT_FAILED=1
    rm -f "$APT_LOG"
    return 1
  fi
  rm -f "$APT_LOG"
}

APT_FAILED=0
missing=""
have_check || missing="check"
command -v gnuplot >/dev/null 2>&1 || missing="$missing gnuplot-nox"
missing=$(echo $missing)
if [ -n "$missing" ]; then
  install_pkgs $missing || true
fi
if ! have_check; then
  if [ -n "$CHECK_DIR" ]; then
    echo ">>> Check not found under CHECK_DIR=$CHECK_DIR (want include/check.h, lib/libcheck_pic.a, lib/libsubunit.a)." >&2
  elif [ "$APT_FAILED" = 1 ]; then
    echo ">>> The tests need Check (the C unit-test library), and apt-get failed (above): fix what it reports (network, package lists, a held lock), or install Check another way and point CHECK_DIR at it (include/check.h, lib/libcheck_pic.a, lib/libsubunit.a)." >&2
  else
    echo ">>> The tests need Check (the C unit-test library). Run: sudo apt-get install check" >&2
  fi
  exit 1
fi
if ! command -v gnuplot >/dev/null 2>&1; then
  echo "note: gnuplot is missing, so plots (make roofline, sweeps) will not render. To add it: sudo apt-get install gnuplot-nox" >&2
fi
exit 0
