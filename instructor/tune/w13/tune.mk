# instructor/tune/w13/tune.mk — week 13's tuning of the single-pass scan
# (instructor-only, never released). Included by mk/instructor.mk, as every
# instructor/tune/*/tune.mk is.
#
#   make tune-w13   builds build/tune/w13_variants and runs it: every variant
#                   of the reference's knobs (SCAN1_THREADS, SCAN1_ITEMS,
#                   SCAN1_LOOKBACK, SCAN1_DELAY, SCAN1_POLL: the comment in
#                   phase3/week13/solution/scan1pass.cu), checked at w13.scan1pass's
#                   sizes, then timed against CUB's InclusiveSum and a copy in
#                   the same run (see the head of instructor/tune/w13/variants.cu).
#                   TUNE_ARGS="0 5 9" runs only those variants; "-p 5" five passes.
#   make tune-w13-emu  no GPU: the reference's kernel and launcher run on the
#                   CPU (instructor/tune/w13/emu) at the knobs in SCAN1 (below)
#                   against the same sizes.
#   SCAN1='-DSCAN1_THREADS=512 -DSCAN1_ITEMS=32' BUILD=build-scan1 with any goal
#                   (make phase3/week13 check IMPL=solution, bench NAME=scan1):
#                   the week built with those knobs, the test's compiler too
#                   (its sizes follow SCAN1_TILE). Give a build folder of its
#                   own for each setting: objects already built are not
#                   rebuilt for a new SCAN1.

.PHONY: tune-w13 tune-w13-emu
KNOWN_GOALS += tune-w13 tune-w13-emu

TUNE_W13     := $(BUILD)/tune/w13_variants
TUNE_W13_WK  := phase3/week13
TUNE_W13_SUP := $(BUILD)/$(TUNE_W13_WK)/support/yard_cub_scan.o
TUNE_ARGS    ?=

$(TUNE_W13): instructor/tune/w13/variants.cu $(TUNE_W13_WK)/solution/scan1pass.cu $(TUNE_W13_WK)/scan1pass.h \
             $(TUNE_W13_SUP) $(LIBWB) $(NVCC_STAMP)
	@mkdir -p $(@D)
	$(if $(Q),@echo "  NVCC    $<")
	$(Q)$(NVCC) $(NVFLAGS) -I$(TUNE_W13_WK) -o $@ $< $(TUNE_W13_SUP) $(LIBWB) -ldl -lrt -lpthread -lm

tune-w13: $(TUNE_W13)
	$(TUNE_W13) $(TUNE_ARGS)

tune-w13-emu:
	bash instructor/tune/w13/emu/run.sh $(SCAN1)

ifneq ($(SCAN1),)
ifneq ($(filter-out tune-w13-emu,$(MAKECMDGOALS)),)
ifeq ($(BUILD),build)
$(error SCAN1=$(SCAN1) needs a build folder of its own (BUILD=build-scan1): objects built without the knobs would be linked as they are)
endif
NVFLAGS += $(SCAN1)
CFLAGS  += $(SCAN1)
endif
endif
