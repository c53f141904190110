# instructor/tune/w58/tune.mk — week 58's decode variants (instructor-only,
# never released). Included by mk/instructor.mk, as every instructor/tune/*/tune.mk is.
#
#   make tune-w58       on a GPU: for every set in TUNE_W58_SETS (comma-separated
#                       macros of phase6/week58/solution/w4a16_decode.cu, e.g.
#                       W58_DEC_VARIANT=2), the week built with the reference
#                       compiled with that set in a build folder of its own
#                       (build-w58-SET), its check run (w58.decode and
#                       w58.decode-speed among the four) and `bench NAME=batch`;
#                       logs and a summary in build/tune/w58/ (sweep.sh).
#   W58DEC='-DW58_DEC_VARIANT=2' BUILD=build-w58v2 with any goal (make
#                       phase6/week58 check IMPL=solution, bench NAME=batch): the
#                       week built with those macros. Give a build folder of its own
#                       for each setting: objects already built are not rebuilt
#                       for a new W58DEC.

.PHONY: tune-w58
KNOWN_GOALS += tune-w58

TUNE_W58_SETS ?= W58_DEC_VARIANT=5 W58_DEC_VARIANT=9

tune-w58:
	$(Q)TUNE_W58_SETS='$(TUNE_W58_SETS)' bash instructor/tune/w58/sweep.sh

$(eval $(call tune_nvflags,W58DEC,tune-w58,build-w58v2))
