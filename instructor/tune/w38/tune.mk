# instructor/tune/w38/tune.mk — week 38's tuning program (instructor-only, never
# released). Included by mk/instructor.mk, as every instructor/tune/*/tune.mk is.
#
#   make tune-w38   builds build/tune/w38_variants and runs it: every variant of
#                   week 38's reference FlashAttention kernel, checked, timed
#                   against cuDNN's SDPA (see the head of instructor/tune/w38/variants.cu).
#                   TUNE_ARGS="0 5 6" runs only those variants.
#
# It needs a GPU, cuDNN 9 at run time and the cuDNN frontend headers at build
# time, like week 38 itself, whose support object and Phase 6's library
# (bf16_fill, phase6/common/) it links.

.PHONY: tune-w38
KNOWN_GOALS += tune-w38

TUNE_W38     := $(BUILD)/tune/w38_variants
TUNE_W38_WK  := phase6/week38
TUNE_W38_SUP := $(BUILD)/phase6/common/cudnn-frontend/libneed.a $(BUILD)/phase6/common/libphase.a
TUNE_ARGS    ?=

$(TUNE_W38): instructor/tune/w38/variants.cu $(TUNE_W38_WK)/solution/flash_attn.cu $(TUNE_W38_WK)/flash_attn.h \
             $(TUNE_W38_SUP) $(LIBWB) $(NVCC_STAMP)
	@mkdir -p $(@D)
	$(if $(Q),@echo "  NVCC    $<")
	$(Q)$(NVCC) $(NVFLAGS) -I$(TUNE_W38_WK) -Iphase6/common -Iphase6/common/cudnn-frontend -o $@ $< $(TUNE_W38_SUP) $(LIBWB) -ldl -lrt -lpthread -lm

tune-w38: $(TUNE_W38)
	$(TUNE_W38) $(TUNE_ARGS)
