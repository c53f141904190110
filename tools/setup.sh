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
  if [ "$(id -u)" != 0 ]; then
    sudo -n true 2>/dev/null || return 1
    sudo="sudo -n"
  fi
  echo "Installing $want (apt-get)..."
  $sudo apt-get update -qq >/dev/null 2>&1
  DEBIAN_FRONTEND=noninteractive $sudo apt-get install -y -qq $want >/dev/null 2>&1
}

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
  else
    echo ">>> The tests need Check (the C unit-test library). Run: sudo apt-get install check" >&2
  fi
  exit 1
fi
if ! command -v gnuplot >/dev/null 2>&1; then
  echo "note: gnuplot is missing, so plots (make roofline, sweeps) will not render. To add it: sudo apt-get install gnuplot-nox" >&2
fi
exit 0
