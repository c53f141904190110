# mk/needs-cutlass.mk — CUTLASS headers for the weeks whose week.txt says
# `needs: cutlass` (week 27 uses CUTLASS as a library; week 28's ladder runs
# week 27's CUTLASS GEMM). The Makefile gives those weeks' objects
# NEEDS_cutlass_NVF and makes them wait for NEEDS_cutlass_DEP.
#
# The headers come from the PyPI package nvidia-cutlass, which ships CUTLASS's
# include/ folder inside its Python package (cutlass_library/source/include).
# The first build of week 27 installs the package under .deps/cutlass-pkg and
# copies that folder to .deps/cutlass/include, the path week27/week.txt passes
# to nvcc (-I.deps/cutlass/include). Offline machines: copy an existing
# .deps/cutlass/include there, or set CUTLASS_INCLUDE to a CUTLASS checkout's
# include/ folder and it is copied instead.
CUTLASS_VERSION ?= 4.2.0.0
CUTLASS_INCLUDE ?=

.deps/cutlass/include:
	@echo "  CUTLASS headers -> $@"
	$(Q)mkdir -p .deps/cutlass
	$(Q)if [ -n '$(CUTLASS_INCLUDE)' ]; then cp -r '$(CUTLASS_INCLUDE)' $@.tmp; \
	else python3 -m pip install --quiet --no-deps --target .deps/cutlass-pkg 'nvidia-cutlass==$(CUTLASS_VERSION)' && \
	  cp -r .deps/cutlass-pkg/cutlass_library/source/include $@.tmp; fi && \
	  test -f $@.tmp/cutlass/gemm/device/gemm.h && mv $@.tmp $@ || \
	  { rm -rf $@.tmp; echo ">>> could not get the CUTLASS headers: install nvidia-cutlass==$(CUTLASS_VERSION) with pip, or set CUTLASS_INCLUDE=/path/to/cutlass/include"; exit 1; }

NEEDS_cutlass_NVF := -I.deps/cutlass/include --expt-relaxed-constexpr
NEEDS_cutlass_DEP := .deps/cutlass/include
