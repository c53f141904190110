# mk/regress.mk — the regression suite (week 52): the speed checkpoints of
# every week (or WEEKS="..."), compared with a baseline taken on this GPU.
#
#   make regress-baseline [RUNS=3] [WEEKS="..."]
#       runs each speed checkpoint RUNS times and writes
#       regress/baseline-GPU.tsv: per checkpoint the median ratio and the
#       noise band learned from the spread (tools/include/wb_regress.h)
#   make regress [WEEKS="..."]
#       runs each speed checkpoint once and compares it with that baseline:
#       one line per checkpoint, "REGRESSION" where the ratio fell below the
#       band or no figure came; exit 1 if any did
#
# Each checkpoint runs alone (CK_RUN_CASE), from the reference solution in
# the authors' tree and from your code in a student copy; its results record
# is kept under build/regress/. It needs a GPU: without one it says so.
# A checkpoint the week's Python tests judge (a `pycheckpoint:` line, or any
# checkpoint of a week without a C test: Phase 7's Python weeks, week 63,
# week 52's capstone) runs through phase7/common/wb_pyrun.py as `make WEEK
# check` runs it, into the same kind of record (python3 must import torch).

.PHONY: regress regress-baseline regress-prepare
KNOWN_GOALS += regress regress-baseline regress-prepare

RUNS ?= 3
REGRESS_WEEKS = $(if $(filter command line,$(origin WEEKS)),$(GIVEN_WEEKS),$(ALL_WEEKS))
REGRESS_DIR := $(BUILD)/regress
regress_impl = $(if $(wildcard $(1)/solution),solution,learner)

# regress_run: one run (number $$run in the shell) of every speed checkpoint
# into $(REGRESS_DIR)/run$$run/
regress_run = mkdir -p $(REGRESS_DIR)/run$$run; for w in $(REGRESS_WEEKS); do \
	  impl=$$([ -d $$w/solution ] && echo solution || echo learner); \
	  pydir=$$([ -d $$w/solution ] && echo $$w/solution || echo $$w); \
	  hasc=$$(ls $$w/test_*.c 2>/dev/null); py=" $$($(WB) week-info $$w pyspeed | tr '\n' ' ') "; \
	  for id in $$($(WB) week-info $$w speed); do \
	    r=$(REGRESS_DIR)/run$$run/$${w//\//-}-$$id.tsv; rm -f $$r; \
	    if [ -n "$$hasc" ] && [[ "$$py" != *" $$id "* ]]; then \
	      CK_RUN_CASE=$$id WB_WEEK_DIR=$$w WB_RESULTS=$$r $(BUILD)/$$w/$$impl/test >$$r.log 2>&1; \
	    else \
	      CK_RUN_CASE=$$id WB_IMPL=$$impl python3 phase7/common/wb_pyrun.py $(WB) $$w $$pydir $$r >$$r.log 2>&1; \
	    fi; \
	    [ -f $$r ] || echo "  $$w $$id: no results record (see $$r.log)"; \
	  done; done

regress-prepare: $(WB) $(GPU_PROBE)
	$(Q)why=$$($(GPU_PROBE)) || { echo ">>> make $(or $(filter regress-baseline,$(MAKECMDGOALS)),regress) needs an NVIDIA GPU: $$why. Nothing was measured."; exit 2; }
	$(if $(filter command line,$(origin WEEKS)),$(call check_weeks,$(GIVEN_WEEKS)))
	$(Q)$(MAKE) -k -j$(NPROC) $(foreach w,$(REGRESS_WEEKS),$(if $(wildcard $(w)/test_*.c),$(BUILD)/$(w)/$(call regress_impl,$(w))/test)) >$(BUILD)/regress-build.log 2>&1 || \
	  { tail -n 20 $(BUILD)/regress-build.log; echo ">>> a week did not build (log: $(BUILD)/regress-build.log)"; exit 2; }
	@rm -rf $(REGRESS_DIR) && mkdir -p $(REGRESS_DIR)

baseline_file = regress/baseline-$$(nvidia-smi --query-gpu=name --format=csv,noheader -i 0 2>/dev/null | tr -c 'A-Za-z0-9\n' '-' | tr -s '-' | sed 's/-$$//').tsv

regress-baseline: regress-prepare
	$(Q)for run in $$(seq $(RUNS)); do echo "run $$run of $(RUNS)"; $(regress_run); done
	$(Q)mkdir -p regress && b=$(baseline_file) && $(WB) regress-baseline $$b $$(ls $(REGRESS_DIR)/run*/*.tsv)

regress: regress-prepare
	$(Q)run=1; $(regress_run)
	$(Q)b=$(baseline_file); [ -f $$b ] || { echo ">>> no baseline for this GPU ($$b): make regress-baseline first"; exit 2; }; \
	  $(WB) regress-check $$b $$(ls $(REGRESS_DIR)/run1/*.tsv)
