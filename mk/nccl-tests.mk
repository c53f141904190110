# mk/nccl-tests.mk — NVIDIA's nccl-tests (BSD licence), the yardstick week 48
# measures NCCL's and the hand-written ring's bus bandwidth against, in the
# same run: its all_reduce_perf, one process driving every GPU (MPI=0).
#
#   make nccl-tests        fetch (once) and build .deps/nccl-tests/build/all_reduce_perf
#
# The source is cloned from GitHub at a pinned tag into .deps/nccl-tests (the
# commit is checked, .git dropped); nothing of it is kept in this repository.
# Offline machines: set NCCL_TESTS_SRC to a nccl-tests git checkout (it is
# cloned from there at the same commit), or unpack a tarball of the source
# (.ci/device-setup does, from .dev/nccl-tests.tar.xz) so that
# .deps/nccl-tests/src/all_reduce.cu exists.
#
# It is built against the NCCL the weeks link (mk/needs-nccl.mk: NCCL_HOME,
# the toolkit, /usr, or the Python package nvidia/nccl, which ships only
# libnccl.so.2: a folder under .deps/nccl-tests/nccl links it as libnccl.so
# for the link), for this machine's GPU only (ARCH), with the CUDA runtime
# static and an rpath to NCCL's folder, so it runs without LD_LIBRARY_PATH
# and loads the same libnccl.so.2 as the week's test. Week 48's test looks for
# the binary at .deps/nccl-tests/build/all_reduce_perf (or WB_NCCL_TESTS).
NCCL_TESTS_URL    ?= https://github.com/NVIDIA/nccl-tests.git
NCCL_TESTS_TAG    ?= v2.19.6
NCCL_TESTS_COMMIT ?= a0b82b2260cf5152b9f8c061bbf7eaf0ba096432
NCCL_TESTS_SRC    ?=
NCCL_TESTS_DIR    := .deps/nccl-tests
NCCL_TESTS_BIN    := $(NCCL_TESTS_DIR)/build/all_reduce_perf

KNOWN_GOALS += nccl-tests
.PHONY: nccl-tests
nccl-tests: $(NCCL_TESTS_BIN)
	@echo "nccl-tests built: $(NCCL_TESTS_BIN) (week 48's yardstick: make phase8/week48 bench NAME=nccl)"

$(NCCL_TESTS_DIR)/src/all_reduce.cu:
	@echo "  nccl-tests $(NCCL_TESTS_TAG) -> $(NCCL_TESTS_DIR)"
	$(Q)rm -rf $(NCCL_TESTS_DIR).tmp && mkdir -p .deps && \
	  if [ -n '$(NCCL_TESTS_SRC)' ]; then git clone --quiet '$(NCCL_TESTS_SRC)' $(NCCL_TESTS_DIR).tmp && \
	    git -C $(NCCL_TESTS_DIR).tmp checkout --quiet $(NCCL_TESTS_COMMIT); \
	  else git clone --quiet --depth 1 --branch $(NCCL_TESTS_TAG) '$(NCCL_TESTS_URL)' $(NCCL_TESTS_DIR).tmp; fi && \
	  test "$$(git -C $(NCCL_TESTS_DIR).tmp rev-parse HEAD)" = $(NCCL_TESTS_COMMIT) && \
	  rm -rf $(NCCL_TESTS_DIR).tmp/.git $(NCCL_TESTS_DIR) && mv $(NCCL_TESTS_DIR).tmp $(NCCL_TESTS_DIR) || \
	  { rm -rf $(NCCL_TESTS_DIR).tmp; echo ">>> could not get nccl-tests $(NCCL_TESTS_TAG) (commit $(NCCL_TESTS_COMMIT)) from $(or $(NCCL_TESTS_SRC),$(NCCL_TESTS_URL)). No network here? Clone it where there is one and set NCCL_TESTS_SRC=/path/to/nccl-tests, or unpack its source so that $@ exists."; exit 1; }

# nccl-tests' own Makefile, told where things are; only all_reduce_perf is made.
# NVCC_PREPEND_FLAGS and NVCC_APPEND_FLAGS reach every nvcc call (a compile
# ignores both): NCCL's folder searched before the toolkit's (which may hold
# another NCCL), and the rpath to the folder of libnccl.so.2.
# (NCCL is looked for here, in the recipe, so that no other make run pays for it.)
$(NCCL_TESTS_BIN): $(NCCL_TESTS_DIR)/src/all_reduce.cu
	$(Q)$(if $(NCCL_DIRS),:,$(MAKE) nccl-missing)
	@echo "  all_reduce_perf (nccl-tests, $(ARCH), NCCL in $(NCCL_LIBDIR)) -> $@"
	$(Q)rm -rf $(NCCL_TESTS_DIR)/nccl && mkdir -p $(NCCL_TESTS_DIR)/nccl/lib && \
	  ln -s $(abspath $(NCCL_INC)) $(NCCL_TESTS_DIR)/nccl/include && \
	  ln -s $(abspath $(NCCL_LIBDIR))/libnccl.so.2 $(NCCL_TESTS_DIR)/nccl/lib/libnccl.so && \
	  NVCC_PREPEND_FLAGS='-L$(abspath $(NCCL_TESTS_DIR)/nccl/lib)' NVCC_APPEND_FLAGS='-Xlinker -rpath=$(abspath $(NCCL_LIBDIR))' \
	  $(MAKE) -C $(NCCL_TESTS_DIR)/src MPI=0 NVCC='$(NVCC)' CUDA_HOME='$(CUDA_HOME)' CUDA_LIB='$(CUDA_LIB)' \
	    CUDARTLIB=cudart_static NCCL_HOME=$(abspath $(NCCL_TESTS_DIR)/nccl) \
	    NVCC_GENCODE='-gencode=arch=$(patsubst sm_%,compute_%,$(ARCH)),code=$(ARCH)' \
	    BUILDDIR=$(abspath $(NCCL_TESTS_DIR)/build) $(abspath $@) && test -x $@ || \
	  { echo ">>> nccl-tests' all_reduce_perf did not build (its output is above)"; exit 1; }
