# instructor/tune/w58/tune.mk — week 58's decode variants (instructor-only,
# never released). Included by mk/instructor.mk, as every instructor/tune/*/tune.mk is.
#
#   make tune-w58       on a GPU: for every set in TUNE_W58_SETS (comma-separated
#                       macros of phase6/week58/solution/w4a16_decode.cu, e.g.
#                       W58_DEC_VARIANT=4,W58_DEC4_STAGES=3), the week built with
#                       the reference compiled with that set in a build folder of
#                       its own (build-w58-SET), its check run (w58.decode and
#                       w58.decode-speed among the four) and `bench NAME=batch`;
#                       logs and a summary in build/tune/w58/ (sweep.sh).
#   make tune-w58-emu   no GPU: the reference compiled for the CPU with each set of
#                       TUNE_W58_EMU_SETS and run on w58.decode's shapes in an
#                       emulator (emu/README.md): results, guards, mbarrier phases,
#                       bulk-copy rules. TUNE_W58_EMU_MACHINES: SMS:PER_SM:SM
#                       triples (the splits; SM 80 takes the fall-back);
#                       TUNE_W58_EMU_SEED: the data's and the schedule's seed.
#   W58DEC='-DW58_DEC_VARIANT=4' BUILD=build-w58v4 with any goal (make
#                       phase6/week58 check IMPL=solution, bench NAME=batch): the
#                       week built with those macros. Give a build folder of its own
#                       for each setting: objects already built are not rebuilt
#                       for a new W58DEC.

.PHONY: tune-w58 tune-w58-emu
KNOWN_GOALS += tune-w58 tune-w58-emu

TUNE_W58_SETS ?= W58_DEC_VARIANT=1 W58_DEC_VARIANT=4 W58_DEC_VARIANT=4,W58_DEC4_XBULK=0 \
                 W58_DEC_VARIANT=4,W58_DEC4_STAGES=3,W58_DEC4_BLOCKS=3 W58_DEC_VARIANT=4,W58_DEC4_STAGES=8,W58_DEC4_BLOCKS=1
TUNE_W58_EMU_SETS ?= W58_DEC_VARIANT=4 W58_DEC_VARIANT=4,W58_DEC4_XBULK=0 W58_DEC_VARIANT=4,W58_DEC4_STAGES=2
TUNE_W58_EMU_MACHINES ?= 132:2:90 1:1:90 8:2:90 132:2:80
TUNE_W58_EMU_SEED ?= 1

tune-w58:
	$(Q)TUNE_W58_SETS='$(TUNE_W58_SETS)' bash instructor/tune/w58/sweep.sh

tune-w58-emu:
	$(Q)BUILD=$(BUILD) CC='$(CC)' CXX='$(CXX)' CUDA_INC='$(CUDA_INC)' TUNE_W58_EMU_SETS='$(TUNE_W58_EMU_SETS)' \
	  TUNE_W58_EMU_MACHINES='$(TUNE_W58_EMU_MACHINES)' TUNE_W58_EMU_SEED='$(TUNE_W58_EMU_SEED)' bash instructor/tune/w58/emu/run.sh

ifneq ($(W58DEC),)
ifneq ($(filter-out tune-w58 tune-w58-emu,$(MAKECMDGOALS)),)
ifeq ($(BUILD),build)
$(error W58DEC=$(W58DEC) needs a build folder of its own (BUILD=build-w58v4): objects built without the macros would be linked as they are)
endif
NVFLAGS += $(W58DEC)
endif
endif
