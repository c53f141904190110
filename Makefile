# The CUDA workbook. `make` (or `make help`) says what can be typed.
#
# Non-recursive: every week is found by its phaseP/weekNN/week.txt, so adding
# a week edits nothing here. A week folder holds, per exercise, the starter
# EX.cu the learner edits, solution/EX.cu, the header EX.h both implement, the
# Check test test_weekNN.c, optional support/*.cu shared by both versions,
# week.txt (exercises, checkpoints, targets, hints) and README.md.

.DEFAULT_GOAL := help
MAKEFLAGS += --no-builtin-rules --no-print-directory
.SUFFIXES:
.DELETE_ON_ERROR:
.SECONDARY:
SHELL := /bin/bash

V ?= 0
Q := $(if $(filter 1,$(V)),,@)

# ---------------------------------------------------------------- toolchain
NVCC      ?= $(or $(shell command -v nvcc 2>/dev/null),/usr/local/cuda/bin/nvcc)
CUDA_HOME ?= $(patsubst %/bin/nvcc,%,$(NVCC))
CC        ?= gcc
CXX       ?= g++
# Build for the GPU in this machine; sm_90 (H100) when none can be asked.
ARCH ?= $(or $(shell nvidia-smi --query-gpu=compute_cap --format=csv,noheader 2>/dev/null | head -n1 | tr -d '.[:space:]' | sed -n 's/^\([0-9][0-9]*\)$$/sm_\1/p'),sm_90)
# Where Check lives when it is not installed system-wide (headers in include/, static libs in lib/).
CHECK_DIR ?=

BUILD := build
CUDA_INC := $(CUDA_HOME)/include
CUDA_LIB := $(firstword $(wildcard $(CUDA_HOME)/lib64 $(CUDA_HOME)/targets/x86_64-linux/lib))

CFLAGS   := -std=c11 -O2 -g -Wall -Wextra -Wno-format-truncation -D_GNU_SOURCE -Icommon/include -I$(CUDA_INC) $(if $(CHECK_DIR),-I$(CHECK_DIR)/include)
NVFLAGS  := -O3 -lineinfo -arch=$(ARCH) -std=c++17 -Icommon/include -Xcompiler -Wall
LDCUDA   := -L$(CUDA_LIB) -lcudart_static -ldl -lrt -lpthread -lm
LDCHECK  := $(if $(CHECK_DIR),-L$(CHECK_DIR)/lib) -Wl,-Bstatic -lcheck_pic -lsubunit -Wl,-Bdynamic

# ---------------------------------------------------------------- weeks
WEEKS := $(sort $(patsubst %/week.txt,%,$(wildcard phase[0-9]/week[0-9][0-9]/week.txt)))
IMPL  ?= learner
IMPLS := learner solution starter

# The week named on the command line: phase0/week01, phase0/week1 or phase0/week01/.
week_goal := $(firstword $(filter phase%,$(MAKECMDGOALS)))
WEEK := $(if $(week_goal),$(shell echo '$(week_goal)' | sed -E 's#/+$$##; s#^(phase[0-9])/week([0-9])$$#\1/week0\2#'))
ifneq ($(week_goal),)
  ifeq ($(filter $(WEEK),$(WEEKS)),)
    $(error '$(week_goal)' is not a week of this workbook; `make status` lists them)
  endif
endif
ifeq ($(filter $(IMPL),learner solution starter),)
  $(error IMPL must be learner (your code, the default), solution or starter)
endif

meta = $(shell sed -n 's/^$(2):[[:space:]]*//p' $(1)/week.txt)
exercises = $(call meta,$(1),exercise)
src_of = $(if $(filter learner,$(2)),$(1)/$(3).cu,$(if $(filter solution,$(2)),$(1)/solution/$(3).cu,$(BUILD)/$(1)/starter-src/$(3).cu))
test_bin = $(BUILD)/$(1)/$(2)/test

# ---------------------------------------------------------------- common library and tool
COMMON_SRC := $(wildcard common/src/*.c)
HOST_SRC   := common/src/wb_stats.c common/src/wb_rand.c common/src/wb_compare.c common/src/wb_meta.c common/src/wb_progress.c
COMMON_CU  := $(wildcard common/src/*.cu)
COMMON_OBJ := $(COMMON_SRC:%.c=$(BUILD)/%.o) $(COMMON_CU:%.cu=$(BUILD)/%.o)
LIBWB      := $(BUILD)/libwb.a
WB         := $(BUILD)/wb
DEPS_OK    := $(BUILD)/.deps-ok

$(DEPS_OK): tools/setup.sh
	$(Q)CHECK_DIR='$(CHECK_DIR)' NVCC='$(NVCC)' bash tools/setup.sh build
	@mkdir -p $(@D) && touch $@

$(BUILD)/%.o: %.c | $(DEPS_OK)
	@mkdir -p $(@D)
	$(if $(Q),@echo "  CC      $<")
	$(Q)$(CC) $(CFLAGS) -MMD -MP -c $< -o $@

$(BUILD)/common/src/%.o: common/src/%.cu | $(DEPS_OK)
	@mkdir -p $(@D)
	$(if $(Q),@echo "  NVCC    $<")
	$(Q)$(NVCC) $(NVFLAGS) -MMD -MP -c $< -o $@

$(LIBWB): $(COMMON_OBJ)
	$(if $(Q),@echo "  AR      $@")
	$(Q)rm -f $@ && ar rcs $@ $^

$(WB): tools/wb.c $(HOST_SRC:%.c=$(BUILD)/%.o)
	$(if $(Q),@echo "  LD      $@")
	$(Q)$(CC) $(CFLAGS) -o $@ $^

# ---------------------------------------------------------------- per-week rules
define week_rules
$(1)_EX   := $$(call exercises,$(1))
$(1)_LIBS := $$(call meta,$(1),libs)
$(1)_NVF  := $$(call meta,$(1),nvflags)
$(1)_TEST := $$(wildcard $(1)/test_*.c)
$(1)_SUP  := $$(wildcard $(1)/support/*.cu)

$(BUILD)/$(1)/starter-src/%.cu: $(1)/solution/%.cu $(WB)
	@mkdir -p $$(@D)
	$(Q)$(WB) strip $$< > $$@

$(BUILD)/$(1)/test.o: $$($(1)_TEST) | $(DEPS_OK)
	@mkdir -p $$(@D)
	$$(if $(Q),@echo "  CC      $$<")
	$(Q)$(CC) $(CFLAGS) -I$(1) -MMD -MP -c $$< -o $$@

$(BUILD)/$(1)/support/%.o: $(1)/support/%.cu | $(DEPS_OK)
	@mkdir -p $$(@D)
	$$(if $(Q),@echo "  NVCC    $$<")
	$(Q)$(NVCC) $(NVFLAGS) $$($(1)_NVF) -I$(1) -MMD -MP -c $$< -o $$@

endef

define impl_rules
$(BUILD)/$(1)/$(2)/%.o: $(call src_of,$(1),$(2),%) | $(DEPS_OK)
	@mkdir -p $$(@D)
	$$(if $(Q),@echo "  NVCC    $$<")
	$(Q)$(NVCC) $(NVFLAGS) $$($(1)_NVF) -I$(1) -MMD -MP -c $$< -o $$@ || { \
	  echo ">>> $$< does not compile: the first error above names the line. Fix it, or 'make $(1) reset' to start again."; exit 1; }

$(BUILD)/$(1)/$(2)/test: $(BUILD)/$(1)/test.o $$(patsubst %,$(BUILD)/$(1)/$(2)/%.o,$$($(1)_EX)) $$(patsubst $(1)/support/%.cu,$(BUILD)/$(1)/support/%.o,$$($(1)_SUP)) $(LIBWB)
	$$(if $(Q),@echo "  LD      $$@")
	$(Q)$(CXX) -o $$@ $$(filter %.o,$$^) $(LIBWB) $$($(1)_LIBS) $(LDCUDA) $(LDCHECK)
endef

$(foreach w,$(WEEKS),$(eval $(call week_rules,$(w))))
$(foreach w,$(WEEKS),$(foreach i,$(IMPLS),$(eval $(call impl_rules,$(w),$(i)))))

-include $(shell find $(BUILD) -name '*.d' 2>/dev/null)

# ---------------------------------------------------------------- what a learner types
.PHONY: help status $(WEEKS) $(week_goal) check bench hint reset sanitize profile ptx sass clean test starters
.PHONY: all build-all test-extra

help: $(WB)
	@$(WB) help

status: $(WB)
	@$(WB) status

ACTIONS := check bench hint reset sanitize profile ptx sass
need_week = $(if $(WEEK),,$(error say which week: make phase0/week01 $(1)))
RUN_ENV = WB_WEEK_DIR=$(WEEK) WB_WEEK=$(WEEK)
IMPL_LABEL = $(if $(filter solution,$(IMPL)),reference solution,$(if $(filter starter,$(IMPL)),untouched starter,your code))

# `make phase0/week01` builds; followed by an action, the action does the work.
$(WEEKS) $(filter-out $(WEEKS),$(week_goal)):
	$(if $(filter $(ACTIONS) clean,$(MAKECMDGOALS)),@:,$(Q)$(MAKE) $(call test_bin,$(WEEK),$(IMPL)) && echo "Built $(call test_bin,$(WEEK),$(IMPL)) from $(IMPL_LABEL). Next: make $(WEEK) check")

check:
	$(call need_week,check)
	$(Q)$(MAKE) $(call test_bin,$(WEEK),$(IMPL))
	$(Q)$(RUN_ENV) WB_IMPL='$(IMPL_LABEL)' WB_RECORD=$(if $(filter learner,$(IMPL)),1,0) $(call test_bin,$(WEEK),$(IMPL))

bench:
	$(call need_week,bench)
	$(Q)$(MAKE) $(call test_bin,$(WEEK),$(IMPL))
	@mkdir -p $(BUILD)/bench
	$(Q)$(RUN_ENV) WB_CSV=$(BUILD)/bench/$(subst /,-,$(WEEK))-$(IMPL).csv $(call test_bin,$(WEEK),$(IMPL)) --bench $(NAME)

hint: $(WB)
	$(call need_week,hint)
	@$(WB) hint $(WEEK)

reset: $(WB)
	$(call need_week,reset)
	@$(WB) reset $(WEEK) $(EX)

# compute-sanitizer needs one process: Check's fork mode is turned off.
# It also needs a GPU: with none every GPU test skips, and each tool reports
# 0 errors on kernels that never ran. So the GPU probe (mk/roofline.mk) asks
# first, and with no GPU this stops saying that nothing was checked. The probe
# asks the CUDA runtime the tests link (cudaGetDeviceCount), not nvidia-smi:
# nvidia-smi can be missing where a GPU works (some containers), and list a
# GPU this runtime cannot use (driver older than the runtime,
# CUDA_VISIBLE_DEVICES); the skip lines the tests print are not parsed.
SANITIZE_TOOLS ?= memcheck racecheck initcheck synccheck
sanitize:
	$(call need_week,sanitize)
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
	$(Q)$(MAKE) $(call test_bin,$(WEEK),$(IMPL))
	@command -v ncu >/dev/null || { echo ">>> ncu (Nsight Compute) not found: it ships with the CUDA toolkit; add its folder to PATH."; exit 1; }
	$(Q)$(RUN_ENV) WB_BENCH_SAMPLES=1 ncu --set full --launch-count $${COUNT:-6} -o $(BUILD)/$(WEEK)/profile -f $(call test_bin,$(WEEK),$(IMPL)) --bench $(NAME) && \
	  echo "Report: $(BUILD)/$(WEEK)/profile.ncu-rep (open it in ncu-ui, or: ncu --import $(BUILD)/$(WEEK)/profile.ncu-rep --page details)"

ptx:
	$(call need_week,ptx)
	@mkdir -p $(BUILD)/$(WEEK)/$(IMPL)
	$(Q)for ex in $(call exercises,$(WEEK)); do \
	  $(NVCC) $(NVFLAGS) $($(WEEK)_NVF) -I$(WEEK) -ptx $(call src_of,$(WEEK),$(IMPL),$$ex) -o $(BUILD)/$(WEEK)/$(IMPL)/$$ex.ptx && \
	  echo "PTX of $$ex: $(BUILD)/$(WEEK)/$(IMPL)/$$ex.ptx ($$(grep -c '^\s*\(ld\|st\)\.' $(BUILD)/$(WEEK)/$(IMPL)/$$ex.ptx) loads/stores)"; done

sass:
	$(call need_week,sass)
	$(Q)$(MAKE) $(patsubst %,$(BUILD)/$(WEEK)/$(IMPL)/%.o,$(call exercises,$(WEEK)))
	@command -v cuobjdump >/dev/null || [ -x $(CUDA_HOME)/bin/cuobjdump ] || { echo ">>> cuobjdump not found: it ships with the CUDA toolkit ($(CUDA_HOME)/bin)."; exit 1; }
	$(Q)for ex in $(call exercises,$(WEEK)); do \
	  $$(command -v cuobjdump || echo $(CUDA_HOME)/bin/cuobjdump) -sass $(BUILD)/$(WEEK)/$(IMPL)/$$ex.o > $(BUILD)/$(WEEK)/$(IMPL)/$$ex.sass && \
	  echo "SASS of $$ex: $(BUILD)/$(WEEK)/$(IMPL)/$$ex.sass"; done

clean:
	$(if $(WEEK),rm -rf $(BUILD)/$(WEEK),rm -rf $(BUILD))

# Regenerate every committed starter from its solution (authors).
starters: $(WB)
	$(Q)for w in $(WEEKS); do $(WB) write-starters $$w || exit 1; done

# ---------------------------------------------------------------- the workbook's own tests
HARNESS_TEST := $(BUILD)/common/tests/test_harness
LEDGER := $(BUILD)/test-ledger.tsv

$(HARNESS_TEST): $(BUILD)/common/tests/test_harness.o $(LIBWB)
	$(if $(Q),@echo "  LD      $@")
	$(Q)$(CXX) -o $@ $^ $(LDCUDA) $(LDCHECK)

build-all: $(HARNESS_TEST) $(WB) $(foreach w,$(WEEKS),$(foreach i,solution starter,$(call test_bin,$(w),$(i))))

all: build-all

# 1. the harness's own tests; 2. per week: starters match their solutions,
# starter/solution/test compile, the solution passes (GPU tests skip with no
# GPU), the untouched starter fails every checkpoint a GPU could run;
# 3. one closing line: N passed, N failed, N skipped.
NPROC := $(shell nproc 2>/dev/null || echo 2)
# TEST_WEEKS="phase0/week01 phase1/week05" limits the per-week part (a GPU
# session with a time limit can run the suite in parts); the default is all.
TEST_WEEKS ?= $(WEEKS)

test: $(HARNESS_TEST) $(WB)
	@rm -f $(LEDGER)
	@echo "Building every week (solution and starter), $(NPROC) jobs; log in $(BUILD)/build-all.log"
	$(Q)$(MAKE) -k -j$(NPROC) build-all >$(BUILD)/build-all.log 2>&1 || true
	$(Q)WB_LEDGER=$(LEDGER) $(HARNESS_TEST) || true
	$(Q)for w in $(TEST_WEEKS); do t0=$$SECONDS; \
	  if $(WB) drift $$w; then $(WB) ledger-add $(LEDGER) PASS "$$w starters derive from solutions"; \
	  else $(WB) ledger-add $(LEDGER) FAIL "$$w starters derive from solutions" "see above"; fi; \
	  for i in solution starter; do \
	    if $(MAKE) $(BUILD)/$$w/$$i/test >$(BUILD)/build-$${w//\//-}-$$i.log 2>&1; then \
	      $(WB) ledger-add $(LEDGER) PASS "$$w $$i compiles and links"; \
	    else cat $(BUILD)/build-$${w//\//-}-$$i.log; $(WB) ledger-add $(LEDGER) FAIL "$$w $$i compiles and links" "see the log above"; continue; fi; \
	  done; \
	  [ -x $(BUILD)/$$w/solution/test ] && WB_WEEK_DIR=$$w WB_LEDGER=$(LEDGER) WB_IMPL="reference solution" WB_PROGRESS=$(BUILD)/test-progress.md $(BUILD)/$$w/solution/test; \
	  [ -x $(BUILD)/$$w/starter/test ] && WB_WEEK_DIR=$$w WB_LEDGER=$(LEDGER) WB_IMPL="untouched starter" WB_EXPECT=fail WB_PROGRESS=$(BUILD)/test-progress.md $(BUILD)/$$w/starter/test >$(BUILD)/starter-$${w//\//-}.log 2>&1; \
	  grep -h "^  \(PASS\|FAIL\|SKIP\) " $(BUILD)/starter-$${w//\//-}.log | sed 's/^/  starter: /' | cut -c1-110; \
	  echo "  ($$w: $$((SECONDS - t0)) s)"; \
	done; true
	$(Q)$(MAKE) -s test-extra
	@echo
	$(Q)$(WB) ledger $(LEDGER)

# Fragments in mk/*.mk add tools beside the weeks (plots, grading, quizzes).
# Each may append a target to TEST_EXTRA; `make test` runs them after the
# weeks, and they add their own lines to $(LEDGER) with `$(WB) ledger-add`.
TEST_EXTRA :=
-include $(sort $(wildcard mk/*.mk))

test-extra: $(WB)
	$(Q)for t in $(TEST_EXTRA); do $(MAKE) -s $$t LEDGER=$(abspath $(LEDGER)) || $(WB) ledger-add $(LEDGER) FAIL "$$t" "exited non-zero"; done
