# phase8/week47/week.mk — week 47's second launch mode: one process per GPU started
# by mpirun instead of the workbook's launcher.
#
#   make phase8/week47 mpirun [NP=N] [IMPL=...] [MPIRUN_FLAGS=...]
#
# runs NP copies of the week's test program with --mpi-rank under mpirun (NP:
# one a GPU of this host, `nvidia-smi -L`, up to 8; 2 where nvidia-smi cannot
# count them): each takes its rank from the environment (wb_rank_from_env in
# phase8/common/wb_launch.h), joins through your rank_join, runs the three
# collectives in and out of place and prints "[rank r/n] ok: ..." or
# "[rank r/n] FAILED: ...". The multicast-off settings go to every rank (-x).
# Needs Open MPI's mpirun (Debian: openmpi-bin) and NP GPUs on this host.

.PHONY: mpirun
KNOWN_GOALS += mpirun
ACTIONS += mpirun
NP ?= $(shell n=$$(nvidia-smi -L 2>/dev/null | grep -c '^GPU'); [ "$$n" -ge 2 ] 2>/dev/null || n=2; [ "$$n" -le 8 ] || n=8; echo $$n)

mpirun:
	$(call need_week,mpirun)
	@[ "$(WEEK)" = phase8/week47 ] || { echo ">>> only week 47 runs under mpirun: make phase8/week47 mpirun [NP=2]"; exit 2; }
	@command -v mpirun >/dev/null || { echo ">>> mpirun not found: install Open MPI (Debian: openmpi-bin), or use the workbook's own launcher (make $(WEEK) check)"; exit 2; }
	$(Q)$(MAKE) $(call test_bin,$(WEEK),$(IMPL))
	$(Q)mpirun $(if $(filter 0,$(shell id -u)),--allow-run-as-root) -np $(NP) \
	  -x NCCL_NVLS_ENABLE=0 -x TORCH_SYMM_MEM_DISABLE_MULTICAST=1 -x NVSHMEM_DISABLE_NVLS=1 $(MPIRUN_FLAGS) \
	  $(call test_bin,$(WEEK),$(IMPL)) --mpi-rank
