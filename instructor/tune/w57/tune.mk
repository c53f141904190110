# instructor/tune/w57/tune.mk — week 57's knob sweep (instructor-only, never
# released). Included by mk/instructor.mk, as every instructor/tune/*/tune.mk is.
#
#   make tune-w57       on a GPU: for every knob set in TUNE_W57_SETS, week 57's
#                       test built with the reference compiled with that set,
#                       and its speed benchmark run (TUNE_W57_BENCH=split: the
#                       split rows instead); a summary at the end
#                       (build/tune/w57/summary.txt). Sets: sweep.sh's head.
#   make tune-w57-emu   no GPU needed: the reference, compiled for the CPU with
#                       each set's kernel knobs, run on w57.decode's cases in an
#                       emulator (emu/README.md): results, guards, loads in range.

.PHONY: tune-w57 tune-w57-emu
KNOWN_GOALS += tune-w57 tune-w57-emu

# The default (W4: W4-A2-M3) first, then the rings of 2026-11-28's H200 sweep (NOTES.md).
TUNE_W57_SETS ?= W4 W4-A3-M2 W2-A2-M6 W4-T8-A4-M3 W4-T8-A3-M3 W4-T8-A3-M3-Z2 W4-A3-M2-Z2 W2-T8-A4-M6 \
                 W4-A2-M3-S1024 W4-A2-M3-Z2
TUNE_W57_BENCH ?= decode

tune-w57: $(LIBWB) $(NVCC_STAMP)
	$(Q)BUILD=$(BUILD) NVCC='$(NVCC)' NVFLAGS='$(NVFLAGS)' CC='$(CC)' CFLAGS='$(CFLAGS)' CXX='$(CXX)' \
	  LIBWB='$(LIBWB)' LDCUDA='$(LDCUDA)' LDCHECK='$(LDCHECK)' TUNE_W57_SETS='$(TUNE_W57_SETS)' \
	  TUNE_W57_BENCH='$(TUNE_W57_BENCH)' bash instructor/tune/w57/sweep.sh

tune-w57-emu:
	$(Q)BUILD=$(BUILD) CC='$(CC)' CXX='$(CXX)' CUDA_INC='$(CUDA_INC)' TUNE_W57_SETS='$(TUNE_W57_SETS)' \
	  bash instructor/tune/w57/emu/run.sh

# W57KNOBS='-DPAGED_STAGES=3 -DPAGED_MIN_BLOCKS=2' BUILD=build-w57x with any goal
# (make phase6/week57 check IMPL=solution, sanitize, bench): the week built
# with a sweep's kernel knobs, to check a winner whole before it becomes the
# default. PAGED_PARTITION (S) is the test's, not the kernel's: not here.
$(eval $(call tune_nvflags,W57KNOBS,tune-w57 tune-w57-emu,build-w57x))
