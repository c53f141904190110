# instructor/tune/w62/tune.mk — week 62's knob sweep (instructor-only, never
# released). Included by mk/instructor.mk, as every instructor/tune/*/tune.mk is.
#
#   make tune-w62          on an H100 or H200: for every knob set in
#                          TUNE_W62_SETS, the reference compiled with that
#                          set's -D flags and linked into week 62's test, its
#                          w62.fwd run first (a set that does not pass it is
#                          not timed), then the speed benchmark (`--bench fwd`,
#                          the label `test --list` prints; TUNE_W62_BENCH);
#                          a summary at the end (build/tune/w62/summary.txt).
#   make tune-w62-compile  no GPU needed: every set compiled for sm_90a with
#                          -Xptxas -v; registers and spills of each in
#                          build/tune/w62/compile.txt; exit 1 when a set does
#                          not compile or spills. About 5 s a set.
#
# A set is knobs joined by '-', each a letter and its value: P (W62_PINGPONG),
# I (W62_INTRA), S (W62_STAGES), T (W62_TMA_STORE), e.g. P1-I1-S3; "default"
# is none (the shipped kernel: P1-I1-S2-T1); P0-I0-T0 is the plain structure. The knobs: the head of
# phase6/week62/solution/fa3_fwd.cu; what each should change: NOTES.md here.

.PHONY: tune-w62 tune-w62-compile
KNOWN_GOALS += tune-w62 tune-w62-compile

TUNE_W62_SETS  ?= default P0-I0-T0 P0-I0-S3-T0 I0-T0 P0-I0 T0 S3-T0 P0-T0 P0-S3-T0 S3 I0
TUNE_W62_BENCH ?= fwd
TUNE_W62_WK    := phase6/week62
TUNE_W62_OBJS  := $(BUILD)/$(TUNE_W62_WK)/test.o $(BUILD)/phase6/common/cudnn-frontend/libneed.a \
                  $(BUILD)/phase6/common/libphase.a
TUNE_W62_ENV    = BUILD=$(BUILD) NVCC='$(NVCC)' NVFLAGS='$(NVFLAGS)' WEEK_NVF='$(phase6/week62_NVF)' \
                  TUNE_W62_SETS='$(TUNE_W62_SETS)' TUNE_W62_BENCH='$(TUNE_W62_BENCH)'

tune-w62: $(TUNE_W62_OBJS) $(LIBWB) $(NVCC_STAMP)
	$(Q)$(TUNE_W62_ENV) CXX='$(CXX)' LIBWB='$(LIBWB)' LDCUDA='$(LDCUDA)' LDCHECK='$(LDCHECK)' \
	  TEST_OBJS='$(TUNE_W62_OBJS)' bash instructor/tune/w62/sweep.sh bench

tune-w62-compile: $(NVCC_STAMP)
	$(Q)$(TUNE_W62_ENV) bash instructor/tune/w62/sweep.sh compile
