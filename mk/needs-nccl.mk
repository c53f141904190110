# mk/needs-nccl.mk — NCCL for the weeks whose week.txt says `needs: nccl`
# (Phase 8: NCCL is what those weeks teach, so the test links it).
#
# Where it is looked for: NCCL_HOME if you set it (its include/ and lib/);
# the CUDA toolkit; /usr (Debian's libnccl-dev); then the Python package
# nvidia-nccl-cu* (torch installs it; on machines with torch and no system
# NCCL it is the only copy, and it ships only libnccl.so.2, so the link names
# that file). The test is linked with an rpath to the folder it found, so it
# runs without LD_LIBRARY_PATH. Looked up once per make run.
NCCL_HOME ?=
comma := ,
NCCL_DIRS = $(eval NCCL_DIRS := $(shell \
  for d in $(NCCL_HOME) $(CUDA_HOME) /usr/local/cuda; do \
    [ -n "$$d" ] && [ -f $$d/include/nccl.h ] && for l in $$d/lib64 $$d/lib $$d/targets/x86_64-linux/lib; do \
      [ -e $$l/libnccl.so.2 ] && { echo $$d/include $$l; exit 0; }; done; done; \
  [ -f /usr/include/nccl.h ] && [ -e /usr/lib/x86_64-linux-gnu/libnccl.so.2 ] && { echo /usr/include /usr/lib/x86_64-linux-gnu; exit 0; }; \
  python3 -c 'import nvidia.nccl, os; d = list(nvidia.nccl.__path__)[0]; i, l = os.path.join(d, "include"), os.path.join(d, "lib"); print(i, l) if os.path.isfile(os.path.join(i, "nccl.h")) and os.path.exists(os.path.join(l, "libnccl.so.2")) else None' 2>/dev/null))$(NCCL_DIRS)
NCCL_INC = $(word 1,$(NCCL_DIRS))
NCCL_LIBDIR = $(word 2,$(NCCL_DIRS))

NEEDS_nccl_NVF = -I$(or $(NCCL_INC),/nccl-not-found)
NEEDS_nccl_CFLAGS = -I$(or $(NCCL_INC),/nccl-not-found)
NEEDS_nccl_LIBS = $(if $(NCCL_LIBDIR),-L$(NCCL_LIBDIR) -l:libnccl.so.2 -Wl$(comma)-rpath$(comma)$(NCCL_LIBDIR))
NEEDS_nccl_DEP = $(if $(NCCL_DIRS),,nccl-missing)

.PHONY: nccl-missing
nccl-missing:
	@echo ">>> NCCL (nccl.h and libnccl.so.2) was not found. Install it (Debian/Ubuntu: libnccl2 and libnccl-dev from NVIDIA's CUDA repository; or pip install nvidia-nccl-cu12), or set NCCL_HOME=/path/with/include-and-lib"; exit 1
