# The CUDA workbook. `make` (or `make help`) says what can be typed.
#
# Non-recursive: every week is found by its phaseP/weekNN/week.txt, so adding
# a week edits nothing here. A week folder holds, per exercise, the starter
# EX.cu the learner edits, solution/EX.cu, the header EX.h both implement, the
# Check test test_weekNN.c, optional support/*.cu shared by both versions,
# week.txt (exercises, checkpoints, targets, hints, uses, needs) and README.md.
# week.txt has one reader, the C one (common/src/wb_meta.c): `wb make-vars`
# turns every week.txt into build/weeks.mk, which this file includes.

.DEFAULT_GOAL := help
MAKEFLAGS += --no-builtin-rules --no-print-directory
.SUFFIXES:
.DELETE_ON_ERROR:
.SECONDARY:
SHELL := /bin/bash

# NVLink multicast stays off in every process make starts, whatever the
# caller's environment or command line says (common/include/wb_multicast.h).
override export NCCL_NVLS_ENABLE := 0
override export TORCH_SYMM_MEM_DISABLE_MULTICAST := 1
override export NVSHMEM_DISABLE_NVLS := 1

V ?= 0
Q := $(if $(filter 1,$(V)),,@)

# ---------------------------------------------------------------- toolchain
NVCC      ?= $(or $(shell command -v nvcc 2>/dev/null),/usr/local/cuda/bin/nvcc)
CUDA_HOME ?= $(patsubst %/bin/nvcc,%,$(NVCC))
CC        ?= gcc
CXX       ?= g++
# Build for the GPU in this machine; sm_90 (H100) when none can be asked.
ARCH ?= $(or $(shell nvidia-smi --query-gpu=compute_cap --format=csv,noheader 2>/dev/null | head -n1 | tr -d '.[:space:]' | sed -n 's/^\([0-9][0-9]*\)$$/sm_\1/p'),sm_90)
# An ARCH you give must be one this nvcc knows (sm_90a builds as compute_90).
ifneq ($(filter command line environment,$(origin ARCH)),)
  ifeq ($(filter sm_%,$(ARCH)),)
    $(error ARCH=$(ARCH) names no architecture the way nvcc's -arch reads it: give ARCH=sm_$(patsubst sm%,%,$(patsubst compute_%,%,$(ARCH))) (sm_90 for the H100))
  endif
  ifeq ($(shell $(NVCC) --list-gpu-arch 2>/dev/null | grep -qx 'compute_$(patsubst %a,%,$(patsubst %f,%,$(patsubst sm_%,%,$(ARCH))))' && echo ok),)
    $(error ARCH=$(ARCH) is not a GPU architecture $(NVCC) can build for (`$(NVCC) --list-gpu-arch` lists them as compute_NN; give ARCH=sm_NN, e.g. sm_90 for the H100))
  endif
endif
# Where Check lives when it is not installed system-wide (headers in include/, static libs in lib/).
CHECK_DIR ?=

BUILD := build
CUDA_INC := $(CUDA_HOME)/include
CUDA_LIB := $(firstword $(wildcard $(CUDA_HOME)/lib64 $(CUDA_HOME)/targets/x86_64-linux/lib))

CFLAGS   := -std=c11 -O2 -g -U_FORTIFY_SOURCE -D_FORTIFY_SOURCE=2 -Wall -Wextra -Wno-format-truncation -Wno-missing-field-initializers -D_GNU_SOURCE -Icommon/include -Itools/include -I$(CUDA_INC) $(if $(CHECK_DIR),-I$(CHECK_DIR)/include)
NVFLAGS  := -O3 -lineinfo -arch=$(ARCH) -std=c++17 -Icommon/include -Xcompiler -Wall
LDCUDA   := -L$(CUDA_LIB) -lcudart_static -ldl -lrt -lpthread -lm
LDCHECK  := $(if $(CHECK_DIR),-L$(CHECK_DIR)/lib) -Wl,-Bstatic -lcheck_pic -lsubunit -Wl,-Bdynamic

# ---------------------------------------------------------------- weeks
# ALL_WEEKS: every folder with a week.txt (WEEKS= on the command line is the
# grader's and release's list, never this one).
ALL_WEEKS := $(sort $(patsubst %/week.txt,%,$(wildcard phase[0-9]/week[0-9][0-9]/week.txt)))
IMPL  ?= learner
IMPLS := learner solution starter

# phase0/week1 and phase0/week01/ mean phase0/week01.
canon_week = $(shell echo '$(1)' | sed -E 's#/+$$##; s#^(phase[0-9])/week([0-9])$$#\1/week0\2#')
# Every week name in $(1) is a week of this workbook, or stop here, before
# anything is built, saying what the name should have been.
define check_weeks
$(foreach w,$(1),$(if $(filter $(w),$(ALL_WEEKS)),,$(error '$(w)' is not a week of this workbook$(if $(filter %/$(notdir $(w)),$(ALL_WEEKS)),: week $(patsubst week%,%,$(notdir $(w))) is $(filter %/$(notdir $(w)),$(ALL_WEEKS)),)$(if $(filter $(w)/%,$(ALL_WEEKS)),: $(w)'s weeks are $(filter $(w)/%,$(ALL_WEEKS)),); `make status` lists them)))
endef

# The week named on the command line: phase0/week01, phase0/week1 or phase0/week01/.
week_goals := $(filter phase%,$(MAKECMDGOALS))
week_goal  := $(firstword $(week_goals))
WEEK := $(if $(week_goal),$(call canon_week,$(week_goal)))
ifneq ($(word 2,$(week_goals)),)
  $(error one week at a time: you named $(week_goals); run make once for each)
endif
$(call check_weeks,$(WEEK))
ifeq ($(filter $(IMPL),learner solution starter),)
  $(error IMPL must be learner (your code, the default), solution or starter)
endif

# What can be typed (mk/*.mk fragments add theirs to KNOWN_GOALS); anything
# else stops here, before a build, instead of failing after one.
ACTIONS := check watch bench hint reset sanitize profile ptx sass
KNOWN_GOALS := help status $(ACTIONS) clean distclean test starters all build-all
unknown_goals = $(filter-out $(KNOWN_GOALS) $(week_goals) build/% $(BUILD)/% .deps/%,$(MAKECMDGOALS))

src_of = $(if $(filter learner,$(2)),$(1)/$(3).cu,$(if $(filter solution,$(2)),$(1)/solution/$(3).cu,$(BUILD)/$(1)/starter-src/$(3).cu))
test_bin = $(BUILD)/$(1)/$(2)/test
results_of = $(BUILD)/$(1)/results-$(2).tsv

# ---------------------------------------------------------------- common library and tool
COMMON_SRC := $(wildcard common/src/*.c)
HOST_SRC   := common/src/wb_stats.c common/src/wb_rand.c common/src/wb_compare.c common/src/wb_meta.c \
              tools/src/wb_progress.c common/src/wb_results.c common/src/wb_file.c common/src/wb_multicast.c tools/src/wb_regress.c
COMMON_CU  := $(wildcard common/src/*.cu)
COMMON_OBJ := $(COMMON_SRC:%.c=$(BUILD)/%.o) $(COMMON_CU:%.cu=$(BUILD)/%.o)
LIBWB      := $(BUILD)/libwb.a
WB         := $(BUILD)/wb
HOST_OBJ   := $(HOST_SRC:%.c=$(BUILD)/%.o)
# The quiz program (mk/quiz.mk) and its parts (quizzes/quiz.h); where
# instructor/ is, `quiz grade` too (instructor/quiz_class.c, gradebook.c).
QUIZ_BIN   := $(BUILD)/quizzes/quiz
QUIZ_OBJ   := $(patsubst %.c,$(BUILD)/%.o,quizzes/sha256.c quizzes/quiz_parse.c quizzes/quiz_seal.c quizzes/quiz_grade.c quizzes/quiz_take.c)
QUIZ_CLASS_OBJ := $(if $(wildcard instructor/quiz_class.c),$(BUILD)/instructor/quiz_class.o $(BUILD)/instructor/gradebook.o $(BUILD)/instructor/names.o)
DEPS_OK    := $(BUILD)/.deps-ok

# Every CUDA object depends on this file, which holds the nvcc command line
# (architecture included): a different ARCH, nvcc or flag rebuilds them all.
NVCC_STAMP := $(BUILD)/.nvcc-flags
NVCC_LINE  := $(NVCC) $(NVFLAGS)
$(NVCC_STAMP): FORCE
	@mkdir -p $(@D)
	@[ "$$(cat $@ 2>/dev/null)" = '$(NVCC_LINE)' ] || echo '$(NVCC_LINE)' > $@
.PHONY: FORCE
FORCE:

$(DEPS_OK): tools/setup.sh
	$(Q)CHECK_DIR='$(CHECK_DIR)' NVCC='$(NVCC)' bash tools/setup.sh build
	@mkdir -p $(@D) && touch $@

$(BUILD)/%.o: %.c | $(DEPS_OK)
	@mkdir -p $(@D)
	$(if $(Q),@echo "  CC      $<")
	$(Q)$(CC) $(CFLAGS) -MMD -MP -c $< -o $@

$(BUILD)/common/src/%.o: common/src/%.cu $(NVCC_STAMP) | $(DEPS_OK)
	@mkdir -p $(@D)
	$(if $(Q),@echo "  NVCC    $<")
	$(Q)$(NVCC) $(NVFLAGS) -MMD -MP -c $< -o $@

$(LIBWB): $(COMMON_OBJ)
	$(if $(Q),@echo "  AR      $@")
	$(Q)rm -f $@ && ar rcs $@ $^

$(WB): $(patsubst %.c,$(BUILD)/%.o,$(wildcard tools/wb/*.c)) $(HOST_SRC:%.c=$(BUILD)/%.o)
	$(if $(Q),@echo "  LD      $@")
	$(Q)$(CC) $(CFLAGS) -o $@ $^ -lm

# Exits 0 when the CUDA runtime sees a GPU it can use ("1 GPU: NAME"), else
# prints why not and exits 1 (wb_gpu_probe, wb_cuda.h): make sanitize,
# microbench and regress, and the grader, ask it before anything else.
GPU_PROBE := $(BUILD)/gpu-probe
$(GPU_PROBE): tools/gpu_probe.c $(LIBWB)
	$(if $(Q),@echo "  LD      $@")
	$(Q)$(CC) $(CFLAGS) -o $@ $^ $(LDCUDA)

# ---------------------------------------------------------------- what week.txt says
# build/weeks.mk: WEEK_EX, WEEK_LIBS, WEEK_NVF, WEEK_USES, WEEK_NEEDS for
# every week, written by `wb make-vars` (make remakes it, then starts again).
# Not for `make clean` alone: nothing needs building to remove things.
WEEKS_MK := $(BUILD)/weeks.mk
ifneq ($(or $(filter-out clean distclean,$(MAKECMDGOALS)),$(if $(MAKECMDGOALS),,help)),)
include $(WEEKS_MK)
endif
$(WEEKS_MK): $(WB) common/curriculum.txt $(ALL_WEEKS:%=%/week.txt)
	$(Q)$(WB) make-vars > $@.tmp && mv $@.tmp $@ || { rm -f $@.tmp; echo ">>> a week.txt is wrong (the line above names it); fix it and run make again."; exit 1; }

# Third-party headers a week `needs:` come from mk/needs-NAME.mk, which sets
# NEEDS_NAME_NVF (nvcc flags), NEEDS_NAME_DEP (what to fetch first) and,
# optionally, NEEDS_NAME_CFLAGS (for the week's C test) and NEEDS_NAME_LIBS
# (link flags).
-include $(sort $(wildcard mk/needs-*.mk))

# Code shared by the weeks of one phase lives in phaseP/common/: its headers
# are on every week's include path, its .cu and .c files make one library per
# phase, and its tests are phaseP/common/tests/test_*.c (run by make test).
phase_of_week = $(firstword $(subst /, ,$(1)))
phase_inc = $(if $(wildcard $(call phase_of_week,$(1))/common),-I$(call phase_of_week,$(1))/common)
phase_lib = $(if $(wildcard $(call phase_of_week,$(1))/common/*.cu $(call phase_of_week,$(1))/common/*.c),$(BUILD)/$(call phase_of_week,$(1))/common/libphase.a)
PHASE_COMMONS := $(patsubst %/common/,%,$(sort $(dir $(wildcard phase[0-9]/common/*.cu phase[0-9]/common/*.c))))
PHASE_TESTS := $(patsubst %.c,$(BUILD)/%,$(wildcard $(PHASE_COMMONS:%=%/common/tests/test_*.c)))

# Code a phase's weeks share that needs an optional dependency (mk/needs-NAME.mk)
# lives in phaseP/common/NAME/: its .cu files are built with that need's flags,
# its folder is on the include path of the phase's weeks whose week.txt says
# `needs: NAME`, and its objects, as one archive, are on their test programs'
# link line: a program takes only the files it calls (week 38's and week 62's
# cuDNN attention yardstick, phase6/common/cudnn-frontend/, is not linked into
# week 59, whose own cuDNN file would clash with it).
need_dirs   = $(foreach n,$($(1)_NEEDS),$(wildcard $(call phase_of_week,$(1))/common/$(n)))
need_inc    = $(foreach d,$(call need_dirs,$(1)),-I$(d))
need_objs   = $(foreach d,$(call need_dirs,$(1)),$(if $(wildcard $(d)/*.cu),$(BUILD)/$(d)/libneed.a))
NEED_COMMONS := $(patsubst %/,%,$(sort $(dir $(wildcard phase[0-9]/common/*/*.cu))))

# said under the NVCC line of a file that includes the cuDNN frontend (minutes of compiling, once)
frontend_note = @! grep -qs 'cudnn_frontend' $$< || echo "          (the cuDNN frontend's headers: a few minutes to compile, once)"

define need_common_rules
$(BUILD)/$(1)/%.o: $(1)/%.cu $(NVCC_STAMP) | $(DEPS_OK) $(NEEDS_$(notdir $(1))_DEP)
	@mkdir -p $$(@D)
	$$(if $(Q),@echo "  NVCC    $$<")
	$$(if $(Q),$(frontend_note))
	$(Q)$(NVCC) $(NVFLAGS) $(NEEDS_$(notdir $(1))_NVF) -I$(patsubst %/,%,$(dir $(1))) -I$(1) -MMD -MP -c $$< -o $$@
$(BUILD)/$(1)/libneed.a: $(patsubst %.cu,$(BUILD)/%.o,$(wildcard $(1)/*.cu))
	$$(if $(Q),@echo "  AR      $$@")
	$(Q)rm -f $$@ && ar rcs $$@ $$^
endef
$(foreach d,$(NEED_COMMONS),$(eval $(call need_common_rules,$(d))))

# Weeks a week `uses:`: their headers on the include path, their exercises
# linked in, built from the reference solution where this copy has it and
# from the learner's own file in a student copy (no solution/ folder).
ref_impl = $(if $(wildcard $(1)/solution/$(2).cu),solution,learner)
ref_dir  = $(if $(wildcard $(1)/solution),$(1)/solution,$(1))
# (the grader's scratch copy of a used week holds its reference's objects in
# build/WEEK/prebuilt/, built outside the sandbox, and not their sources)
used_objs = $(foreach v,$($(1)_USES),$(foreach e,$($(v)_EX),$(or $(wildcard $(BUILD)/$(v)/prebuilt/$(e).o),$(BUILD)/$(v)/$(call ref_impl,$(v),$(e))/$(e).o)))
uniq = $(if $(1),$(firstword $(1)) $(call uniq,$(filter-out $(firstword $(1)),$(1))))
week_nvf = $($(1)_NVF) $(call phase_inc,$(1)) $(call need_inc,$(1)) $(foreach v,$($(1)_USES),-I$(v)) $(foreach n,$($(1)_NEEDS),$(NEEDS_$(n)_NVF))
week_dep = $(foreach n,$($(1)_NEEDS),$(NEEDS_$(n)_DEP))
week_cflags = $(foreach n,$($(1)_NEEDS),$(NEEDS_$(n)_CFLAGS))
week_libs = $(call uniq,$($(1)_LIBS) $(foreach v,$($(1)_USES),$($(v)_LIBS)) $(foreach n,$($(1)_NEEDS),$(NEEDS_$(n)_LIBS)))

define phase_common_rules
$(BUILD)/$(1)/common/%.o: $(1)/common/%.cu $(NVCC_STAMP) | $(DEPS_OK)
	@mkdir -p $$(@D)
	$$(if $(Q),@echo "  NVCC    $$<")
	$(Q)$(NVCC) $(NVFLAGS) -I$(1)/common -MMD -MP -c $$< -o $$@
$(BUILD)/$(1)/common/%.o: $(1)/common/%.c | $(DEPS_OK)
	@mkdir -p $$(@D)
	$$(if $(Q),@echo "  CC      $$<")
	$(Q)$(CC) $(CFLAGS) -I$(1)/common -MMD -MP -c $$< -o $$@
$(BUILD)/$(1)/common/libphase.a: $(patsubst $(1)/common/%,$(BUILD)/$(1)/common/%.o,$(basename $(wildcard $(1)/common/*.cu $(1)/common/*.c)))
	$$(if $(Q),@echo "  AR      $$@")
	$(Q)rm -f $$@ && ar rcs $$@ $$^
$(filter $(BUILD)/$(1)/%,$(PHASE_TESTS:=.o)): $(BUILD)/%.o: %.c | $(DEPS_OK)
	@mkdir -p $$(@D)
	$$(if $(Q),@echo "  CC      $$<")
	$(Q)$(CC) $(CFLAGS) -I$(1)/common -Icommon/tests -MMD -MP -c $$< -o $$@
$(filter $(BUILD)/$(1)/%,$(PHASE_TESTS)): %: %.o $(BUILD)/$(1)/common/libphase.a $(LIBWB)
	$$(if $(Q),@echo "  LD      $$@")
	$(Q)$(CXX) -o $$@ $$^ $(LDCUDA) $(LDCHECK)
endef
$(foreach p,$(PHASE_COMMONS),$(eval $(call phase_common_rules,$(p))))

# ---------------------------------------------------------------- per-week rules
define week_rules
$(1)_TEST := $$(wildcard $(1)/test_*.c)
$(1)_SUP  := $$(wildcard $(1)/support/*.cu)

# The week's own flags (nvflags, uses, needs, libs): a change rebuilds the week.
$(BUILD)/$(1)/.week-flags: FORCE
	@mkdir -p $$(@D)
	@[ "$$$$(cat $$@ 2>/dev/null)" = '$(call week_nvf,$(1)) | $(call week_libs,$(1)) | $($(1)_USES) | $(call ref_dir,$(1)) $(foreach v,$($(1)_USES),$(call ref_dir,$(v)))' ] || echo '$(call week_nvf,$(1)) | $(call week_libs,$(1)) | $($(1)_USES) | $(call ref_dir,$(1)) $(foreach v,$($(1)_USES),$(call ref_dir,$(v)))' > $$@

# The untouched starter: derived from the reference, or, in a student copy
# (no solution/), the pristine one a release keeps in .starter/.
$(BUILD)/$(1)/starter-src/%.cu: $(if $(wildcard $(1)/solution/*.cu),$(1)/solution/%.cu $(WB),$(1)/.starter/%.cu)
	@mkdir -p $$(@D)
	$(Q)$(if $(wildcard $(1)/solution/*.cu),$(WB) strip $$< > $$@,cp $$< $$@)

# A test file renamed or removed since the last build: its name in the old
# dependency file (test.d) is no reason to stop.
$(1)/test_%.c: ;

$(BUILD)/$(1)/test.o: $$($(1)_TEST) $(BUILD)/$(1)/.week-flags | $(DEPS_OK) $(call week_dep,$(1))
	@mkdir -p $$(@D)
	$$(if $(Q),@echo "  CC      $$<")
	$(Q)$(CC) $(CFLAGS) -I$(1) $(call phase_inc,$(1)) $(call need_inc,$(1)) $(foreach v,$($(1)_USES),-I$(v)) $(call week_cflags,$(1)) -MMD -MP -c $$< -o $$@

# Support files may include a reference exercise of this week or of a used
# one by name ("EX.cu"): those folders (solution/, which holds only .cu
# files) come first on their include path, so "EX.cu" is the reference and
# "EX.h" still comes from the week folder.
$(BUILD)/$(1)/support/%.o: $(1)/support/%.cu $(NVCC_STAMP) $(BUILD)/$(1)/.week-flags | $(DEPS_OK) $(call week_dep,$(1))
	@mkdir -p $$(@D)
	$$(if $(Q),@echo "  NVCC    $$<")
	$$(if $(Q),$(frontend_note))
	$(Q)$(NVCC) -I$(call ref_dir,$(1)) $(foreach v,$($(1)_USES),-I$(call ref_dir,$(v))) $(NVFLAGS) $(call week_nvf,$(1)) -I$(1) -MMD -MP -c $$< -o $$@

endef

# Static pattern rules: a deleted exercise file is an error ("No rule to make
# target"), never a stale object used as it is.
define impl_rules
$(patsubst %,$(BUILD)/$(1)/$(2)/%.o,$($(1)_EX)): $(BUILD)/$(1)/$(2)/%.o: $(call src_of,$(1),$(2),%) $(NVCC_STAMP) $(BUILD)/$(1)/.week-flags | $(DEPS_OK) $(call week_dep,$(1))
	@mkdir -p $$(@D)
	$$(if $(Q),@echo "  NVCC    $$<")
	$(Q)$(NVCC) $(NVFLAGS) $(call week_nvf,$(1)) -I$(1) -MMD -MP -c $$< -o $$@ || { rc=$$$$?; [ $$$$rc -gt 128 ] && exit $$$$rc; \
	  echo ">>> $$< does not compile: the first error above names the line. Fix it, or 'make $(1) reset EX=$$*' to start that file again."; exit 1; }

$(BUILD)/$(1)/$(2)/test: $(BUILD)/$(1)/.week-flags $(BUILD)/$(1)/test.o $(patsubst %,$(BUILD)/$(1)/$(2)/%.o,$($(1)_EX)) $(patsubst $(1)/support/%.cu,$(BUILD)/$(1)/support/%.o,$($(1)_SUP)) $(call need_objs,$(1)) $(call used_objs,$(1)) $(call phase_lib,$(1)) $(LIBWB)
	$$(if $(Q),@echo "  LD      $$@")
	$(Q)$(CXX) -o $$@ $$(filter %.o %.a,$$^) $(LIBWB) $(call week_libs,$(1)) $(LDCUDA) $(LDCHECK) || { \
	  echo ">>> the test program of $(1) did not link: an 'undefined reference' above names a function the test calls that the exercise files do not define (keep the names and signatures of $(1)/*.h), a 'multiple definition' one defined twice. 'make $(1) reset EX=NAME' restores a starter."; exit 1; }
endef

# Fragments add what one week, one phase or one tool needs beside the rules
# above, and the goals they answer to KNOWN_GOALS: a week's own in
# phaseP/weekNN/week.mk, a phase's in phaseP/common/phase.mk, the tools
# beside the weeks (plots, quizzes, grading, regression) in mk/*.mk.
# Fragments build and offer commands; tests are scripts (tests/run.sh).
-include $(filter-out mk/needs-%.mk,$(sort $(wildcard mk/*.mk)))
-include $(sort $(wildcard phase[0-9]/common/phase.mk))
-include $(sort $(wildcard phase[0-9]/week[0-9][0-9]/week.mk))

$(foreach w,$(ALL_WEEKS),$(eval $(call week_rules,$(w))))
$(foreach w,$(ALL_WEEKS),$(foreach i,$(IMPLS),$(eval $(call impl_rules,$(w),$(i)))))

# A week released without solutions (a student copy, `make release`) keeps
# its pristine starter in .starter/ (IMPL=starter builds from there, the
# week's rules above); IMPL=solution has nothing to build.
ifneq ($(and $(filter solution,$(IMPL)),$(WEEK)),)
ifeq ($(wildcard $(WEEK)/solution/*.cu $(WEEK)/solution/*.py),)
$(error this copy of the workbook has no solutions (a student copy): IMPL=solution has nothing to build; IMPL=starter builds the untouched starter)
endif
endif

-include $(shell find $(BUILD) -name '*.d' 2>/dev/null)

# "did you mean": the nearest of the words $(2) to $(1), within two edits (tools/closest.awk).
closest = $(shell awk -f tools/closest.awk -v w='$(1)' $(2))
ifneq ($(unknown_goals),)
  bad_goal := $(firstword $(unknown_goals))
  # a bare week01 (or week1) names its folder
  bad_week := $(filter %/$(shell echo '$(bad_goal)' | sed -E 's#/+$$##; s#^week([0-9])$$#week0\1#'),$(ALL_WEEKS))
  # Phase0/Week01: the same name in lower case
  bad_week := $(or $(bad_week),$(filter $(call canon_week,$(shell echo '$(bad_goal)' | tr A-Z a-z)),$(ALL_WEEKS)))
  goal_hint := $(if $(bad_week),make $(bad_week) $(filter $(ACTIONS),$(MAKECMDGOALS)),$(call closest,$(bad_goal),$(sort $(KNOWN_GOALS))))
  $(error '$(bad_goal)' is not something this workbook's make knows ($(if $(goal_hint),did you mean '$(strip $(goal_hint))'? ,)`make help` lists what you can type))
endif
# A variable given on the command line that no part of the workbook reads
# is a misspelling until shown otherwise (a misspelt IMPL= would run your code):
# stop when it is two edits from one that is read, say so otherwise. (V, the
# one-letter switch for full commands, is too short for the scan's pattern.)
cmdline_vars := $(foreach v,$(.VARIABLES),$(if $(filter command line,$(origin $(v))),$(v)))
ifneq ($(cmdline_vars),)
  read_vars := $(shell cat Makefile mk/*.mk tools/here.mk $(wildcard phase[0-9]/common/phase.mk phase[0-9]/week[0-9][0-9]/week.mk instructor/tune/*/tune.mk tests/*.sh instructor/tests/*.sh instructor/*.sh .ci/* phase7/common/*.py tools/*.sh) 2>/dev/null | grep -oE '[A-Z][A-Z0-9_]+' | sort -u)
  unread_vars := $(filter-out $(read_vars) WB_% CK_% V MAKEFLAGS MAKEOVERRIDES SHELL,$(cmdline_vars))
  $(foreach v,$(unread_vars),$(if $(call closest,$(v),$(read_vars)),$(error $(v)=$($(v)): no part of the workbook reads $(v) (did you mean $(call closest,$(v),$(read_vars))?)),$(if $(MAKE_RESTARTS)$(filter-out 0,$(MAKELEVEL)),,$(warning $(v)=$($(v)) is read by no part of the workbook: it changes nothing))))
endif
# A missing exercise file of the learner's week: say how to get it back.
# (reset, hint and clean work without it: reset is how it comes back)
ifneq ($(and $(WEEK),$(filter learner,$(IMPL)),$(if $(filter reset clean distclean hint,$(MAKECMDGOALS)),,x)),)
  $(foreach e,$($(WEEK)_EX),$(if $(wildcard $(WEEK)/$(e).cu),,$(error $(WEEK)/$(e).cu is missing: `make $(WEEK) reset EX=$(e)` restores the starter)))
endif

# ---------------------------------------------------------------- what a learner types
.PHONY: help status $(ALL_WEEKS) $(week_goal) check watch bench hint reset sanitize profile ptx sass clean distclean test starters
.PHONY: all build-all

help: $(WB)
	@$(WB) help

status: $(WB)
	@$(WB) status

need_week = $(if $(WEEK),,$(error say which week: make phase0/week01 $(1)))
# bench, sanitize, profile, ptx and sass work on a week's C test program and its .cu exercises
need_c_test = $(if $(call has_c_test,$(WEEK)),,@echo ">>> $(WEEK) is Python only: its checkpoints, the speed ones too, run in 'make $(WEEK) check'; make $(1) needs a week with a C test."; exit 1)
RUN_ENV = WB_WEEK_DIR=$(WEEK) WB_WEEK=$(WEEK)
IMPL_LABEL = $(if $(filter solution,$(IMPL)),reference solution,$(if $(filter starter,$(IMPL)),untouched starter,your code))

# `make phase0/week01` builds; followed by an action, the action does the work.
$(ALL_WEEKS) $(filter-out $(ALL_WEEKS),$(week_goal)):
	$(if $(filter $(ACTIONS) clean distclean,$(MAKECMDGOALS)),@:,$(if $(call has_c_test,$(WEEK)),$(Q)$(MAKE) $(call test_bin,$(WEEK),$(IMPL)) && echo "Built $(call test_bin,$(WEEK),$(IMPL)) from $(IMPL_LABEL). Next: make $(WEEK) check",@echo "$(WEEK) is Python only (tested with pytest): nothing to build. Next: make $(WEEK) check"))

# The test program writes the results record; `wb report` reads it, records
# what passed (your own code only) and says what to do next. A week with
# Python tests (Phase 7, phase7/common/phase.mk) adds their records to the same file.
has_c_test = $(wildcard $(1)/test_*.c)
check:
	$(call need_week,check)
	$(if $(filter command line,$(origin EX) $(origin NAME)),@echo "note: check runs the whole week; EX= is read by reset and NAME= by bench and profile (CK_RUN_CASE=ID checks one checkpoint: the ids are in $(WEEK)/week.txt)")
	$(if $(call has_c_test,$(WEEK)),$(Q)$(MAKE) $(call test_bin,$(WEEK),$(IMPL)))
	$(Q)rm -f $(call results_of,$(WEEK),$(IMPL)); st=0; \
	  $(if $(call has_c_test,$(WEEK)),$(RUN_ENV) WB_IMPL='$(IMPL_LABEL)' WB_RESULTS=$(call results_of,$(WEEK),$(IMPL)) $(call test_bin,$(WEEK),$(IMPL)) || st=$$?;) \
	  $(if $(call has_py_test,$(WEEK)),$(call py_check,$(WEEK),$(IMPL),$(call results_of,$(WEEK),$(IMPL)),'$(IMPL_LABEL)') || st=$$?;) \
	  $(WB) report $(call results_of,$(WEEK),$(IMPL)) $(WEEK) $(if $(filter learner,$(IMPL)),--record) --status $$st \
	    --impl $(IMPL) --bin $(call test_bin,$(WEEK),$(IMPL))

# Check again at each save of an exercise file (tools/watch.sh says how).
watch: $(WB)
	$(call need_week,watch)
	@bash tools/watch.sh $(WEEK) $(if $(filter-out learner,$(IMPL)),IMPL=$(IMPL))

bench:
	$(call need_week,bench)
	$(call need_c_test,bench)
	$(Q)$(MAKE) $(call test_bin,$(WEEK),$(IMPL))
	@mkdir -p $(BUILD)/bench
	$(Q)$(RUN_ENV) WB_CSV=$(BUILD)/bench/$(subst /,-,$(WEEK))-$(IMPL).csv $(call test_bin,$(WEEK),$(IMPL)) --bench $(NAME)

hint: $(WB)
	$(call need_week,hint)
	$(if $(filter command line,$(origin EX)),@echo "note: hint shows the week's hints in order whatever EX= says (each names its file); EX= is read by reset")
	@$(WB) hint $(WEEK)

reset: $(WB)
	$(call need_week,reset)
	@$(WB) reset $(WEEK) $(EX)

# compute-sanitizer needs one process: Check's fork mode is turned off.
# It also needs a GPU: with none every GPU test skips, and each tool reports
# 0 errors on kernels that never ran. So the GPU probe (build/gpu-probe) asks
# first, and with no GPU this stops saying that nothing was checked. The probe
# asks the CUDA runtime the tests link (cudaGetDeviceCount), not nvidia-smi:
# nvidia-smi can be missing where a GPU works (some containers), and list a
# GPU this runtime cannot use (driver older than the runtime,
# CUDA_VISIBLE_DEVICES); the skip lines the tests print are not parsed.
SANITIZE_TOOLS ?= memcheck racecheck initcheck synccheck
sanitize:
	$(call need_week,sanitize)
	$(call need_c_test,sanitize)
	$(Q)$(MAKE) $(call test_bin,$(WEEK),$(IMPL))
	$(Q)$(MAKE) -s $(GPU_PROBE)
	$(Q)why=$$($(GPU_PROBE)) || { echo ">>> make sanitize needs an NVIDIA GPU: $$why. Nothing was checked (compute-sanitizer sees only kernels that run)."; exit 1; }
	@command -v compute-sanitizer >/dev/null || { echo ">>> compute-sanitizer not found: it ships with the CUDA toolkit ($(CUDA_HOME)/bin); add that folder to PATH."; exit 1; }
	$(Q)st=0; for t in $(SANITIZE_TOOLS); do echo "== compute-sanitizer --tool $$t"; \
	  $(RUN_ENV) CK_FORK=no WB_BENCH_SAMPLES=1 compute-sanitizer --tool $$t --error-exitcode 99 $(call test_bin,$(WEEK),$(IMPL)) >$(BUILD)/$(WEEK)/sanitize-$$t.log 2>&1; rc=$$?; \
	  grep -E "ERROR SUMMARY|RACECHECK SUMMARY|========= (Invalid|Race|Uninitialized|Barrier)" $(BUILD)/$(WEEK)/sanitize-$$t.log | head -n 8; \
	  [ $$rc -eq 99 ] && st=1; done; \
	  echo "Full logs: $(BUILD)/$(WEEK)/sanitize-*.log"; exit $$st

profile:
	$(call need_week,profile)
	$(call need_c_test,profile)
	$(Q)$(MAKE) $(call test_bin,$(WEEK),$(IMPL))
	$(Q)$(MAKE) -s $(GPU_PROBE)
	$(Q)why=$$($(GPU_PROBE)) || { echo ">>> make profile needs an NVIDIA GPU: $$why. Nothing was profiled (ncu reports only kernels that run)."; exit 1; }
	@command -v ncu >/dev/null || { echo ">>> ncu (Nsight Compute) not found: it ships with the CUDA toolkit; add its folder to PATH."; exit 1; }
	$(Q)$(RUN_ENV) WB_BENCH_SAMPLES=1 ncu --set full --launch-count $${COUNT:-6} -o $(BUILD)/$(WEEK)/profile -f $(call test_bin,$(WEEK),$(IMPL)) --bench $(NAME) && \
	  echo "Report: $(BUILD)/$(WEEK)/profile.ncu-rep (open it in ncu-ui, or: ncu --import $(BUILD)/$(WEEK)/profile.ncu-rep --page details)"

# Every exercise is compiled even when one does not compile, and then make
# fails with the line naming it; IMPL=starter makes the starter first.
ptx:
	$(call need_week,ptx)
	$(call need_c_test,ptx)
	@mkdir -p $(BUILD)/$(WEEK)/$(IMPL)
	$(Q)$(if $(filter starter,$(IMPL)),$(MAKE) -s $(foreach ex,$($(WEEK)_EX),$(call src_of,$(WEEK),$(IMPL),$(ex))))
	$(Q)bad=; for ex in $($(WEEK)_EX); do rm -f $(BUILD)/$(WEEK)/$(IMPL)/$$ex.ptx; \
	  if $(NVCC) $(NVFLAGS) $(call week_nvf,$(WEEK)) -I$(WEEK) -ptx $(call src_of,$(WEEK),$(IMPL),$$ex) -o $(BUILD)/$(WEEK)/$(IMPL)/$$ex.ptx; then \
	  echo "PTX of $$ex: $(BUILD)/$(WEEK)/$(IMPL)/$$ex.ptx ($$(grep -c '^\s*\(ld\|st\)\.' $(BUILD)/$(WEEK)/$(IMPL)/$$ex.ptx) loads/stores)"; \
	  else bad="$$bad $$ex"; fi; done; \
	  for ex in $$bad; do echo ">>> $(call src_of,$(WEEK),$(IMPL),$$ex) does not compile: its first error above names the line.$(if $(filter learner,$(IMPL)), Fix it or 'make $(WEEK) reset EX=$$ex' to start that file again.)"; done; [ -z "$$bad" ]

# cuobjdump is asked for first, before anything is built: a toolkit can
# hold nvcc without it (NVIDIA's apt packages install it apart, as
# cuda-cuobjdump-X-Y for nvcc X.Y).
sass:
	$(call need_week,sass)
	$(call need_c_test,sass)
	@command -v cuobjdump >/dev/null || [ -x $(CUDA_HOME)/bin/cuobjdump ] || { \
	  v=$$($(NVCC) --version 2>/dev/null | sed -n 's/.*release \([0-9]*\)\.\([0-9]*\).*/\1-\2/p' | head -n 1); \
	  echo ">>> cuobjdump is missing (not on PATH, not in $(CUDA_HOME)/bin), and make sass needs it: install it$${v:+ (the NVIDIA apt package cuda-cuobjdump-$$v, for this nvcc)} or put the folder that holds it on PATH; make $(WEEK) ptx needs only nvcc."; exit 1; }
	$(Q)$(MAKE) $(patsubst %,$(BUILD)/$(WEEK)/$(IMPL)/%.o,$($(WEEK)_EX))
	$(Q)for ex in $($(WEEK)_EX); do \
	  $$(command -v cuobjdump || echo $(CUDA_HOME)/bin/cuobjdump) -sass $(BUILD)/$(WEEK)/$(IMPL)/$$ex.o > $(BUILD)/$(WEEK)/$(IMPL)/$$ex.sass && \
	  echo "SASS of $$ex: $(BUILD)/$(WEEK)/$(IMPL)/$$ex.sass"; done

# Everything in build/ but what cannot be rebuilt: build/bench (the CSVs
# make roofline plots) and build/.wb-state (which hints were shown, where
# they were kept before they moved beside the progress file, progress.md.hints:
# make hint moves a week's count from there the next time it is asked).
clean:
	$(if $(WEEK),rm -rf $(BUILD)/$(WEEK),$(Q)[ ! -d $(BUILD) ] || find $(BUILD) -mindepth 1 -maxdepth 1 ! -name bench ! -name .wb-state -exec rm -rf {} +; \
	  echo "kept $(BUILD)/bench (roofline data); make distclean removes everything")

.PHONY: distclean
distclean:
	rm -rf $(BUILD)

# Regenerate every committed starter from its solution (authors).
starters: $(WB)
	$(Q)for w in $(ALL_WEEKS); do $(WB) write-starters $$w || exit 1; done

# ---------------------------------------------------------------- the workbook's own tests
HARNESS_TEST := $(BUILD)/common/tests/test_harness

$(HARNESS_TEST): $(patsubst %.c,$(BUILD)/%.o,$(filter-out %/test_runner.c,$(wildcard common/tests/*.c))) $(BUILD)/tools/src/wb_progress.o $(BUILD)/tools/src/wb_regress.o $(LIBWB)
	$(if $(Q),@echo "  LD      $@")
	$(Q)$(CXX) -o $@ $^ $(LDCUDA) $(LDCHECK)

# FP16 and BF16 on the host (common/include/wb_f16.h) against a reference of its own.
# The checkpoint logic itself, run as a week's test is (common/tests/test_runner.c).
RUNNER_TEST := $(BUILD)/common/tests/test_runner
$(RUNNER_TEST): $(BUILD)/common/tests/test_runner.o $(LIBWB)
	$(if $(Q),@echo "  LD      $@")
	$(Q)$(CXX) -o $@ $^ $(LDCUDA) $(LDCHECK)

build-all: $(HARNESS_TEST) $(RUNNER_TEST) $(PHASE_TESTS) $(WB) $(GPU_PROBE) $(foreach w,$(ALL_WEEKS),$(if $(call has_c_test,$(w)),$(foreach i,solution starter,$(call test_bin,$(w),$(i)))))

all: build-all

# The workbook's own test suite is tests/run.sh: each step a script that
# runs alone (tests/*.sh, a week's test_*.sh, instructor/tests/*.sh), one
# ledger, one closing line: N passed, N failed, N skipped.
# TEST_WEEKS="phase0/week01 phase1/week05" limits the per-week part (a GPU
# session with a time limit can run the suite in parts); the default is all,
# or the week named beside `test` (`make phase6/week60 test`: that week's
# part, not all 63 weeks).
NPROC := $(shell nproc 2>/dev/null || echo 2)
TEST_WEEKS ?= $(if $(and $(WEEK),$(filter test,$(MAKECMDGOALS))),$(WEEK),$(ALL_WEEKS))
override TEST_WEEKS := $(foreach w,$(TEST_WEEKS),$(call canon_week,$(w)))
$(call check_weeks,$(TEST_WEEKS))

test: $(HARNESS_TEST) $(PHASE_TESTS) $(RUNNER_TEST) $(WB)
	$(Q)TEST_WEEKS='$(TEST_WEEKS)' ONE_WEEK='$(if $(and $(WEEK),$(filter test,$(MAKECMDGOALS))),1)' NPROC=$(NPROC) \
	  MAKE='$(MAKE)' bash tests/run.sh
