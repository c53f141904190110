# phase7/common/phase.mk — Phase 7's Python side: weeks whose exercises are
# Python (Triton kernels, PyTorch glue), tested with pytest, judged and
# recorded as every other week's checkpoints are. Included by the Makefile
# (every phaseP/common/phase.mk is).
#
# A week lists its Python exercises in week.txt (`pyexercise: NAME`: the
# learner edits WEEK/NAME.py, the reference is WEEK/solution/NAME.py, the
# starter is derived from it by `wb strip` with #@solution / #@starter /
# #@end regions) and tests them in WEEK/test_*.py. `make WEEK check` runs the
# C test first when the week has one, then the Python tests
# (phase7/common/wb_pyrun.py with the plugin phase7/common/wb_pytest.py),
# which add their checkpoints to the same results record. `make test` does
# the same for the reference and the untouched starter.
#
# tests/python.sh (run by make test) checks that every Python file compiles
# and that the Python writer's record is one the C reader takes.
#
# Python is only for Phase 7's glue; where python3 is missing the check is
# reported skipped, never passed.

.PHONY: py-check
KNOWN_GOALS += py-check

has_py_test = $(wildcard $(1)/test_*.py)

# The folder whose NAME.py files a run tests: yours, the reference, the derived starter.
py_dir = $(if $(filter learner,$(2)),$(1),$(if $(filter solution,$(2)),$(1)/solution,$(BUILD)/$(1)/starter-src))

# In a recipe's shell: run WEEK's Python tests on IMPL's code and add their
# records to RESULTS. $(call py_check,WEEK,IMPL,RESULTS,LABEL); WEEK may be a
# shell variable ($$w): a make of its own resolves it.
py_check = $(MAKE) -s py-check PYW=$(1) PYI=$(2) PYR=$(3) PYL=$(4)

py-check: $(WB)
	@[ -n "$(PYW)" ] && [ -n "$(PYI)" ] && [ -n "$(PYR)" ] || { echo ">>> py-check is make's own (PYW=WEEK PYI=IMPL PYR=RESULTS)"; exit 2; }
	$(Q)$(if $(filter starter,$(PYI)),$(if $($(PYW)_PY),$(MAKE) -s $(patsubst %,$(BUILD)/$(PYW)/starter-src/%.py,$($(PYW)_PY)) || exit 1;)) \
	if ! command -v python3 >/dev/null; then \
	  echo ">>> python3 is not installed: the Python checkpoints of $(PYW) cannot run (install python3; torch and triton for the checkpoints themselves)"; exit 1; fi; \
	WB_WEEK_DIR=$(PYW) WB_WEEK=$(PYW) WB_IMPL="$(PYL)" python3 phase7/common/wb_pyrun.py $(WB) $(PYW) $(call py_dir,$(PYW),$(PYI)) $(PYR)

# The starter of a Python exercise, derived from the reference (or, in a
# student copy, the pristine one a release keeps in WEEK/.starter/).
define py_week_rules
$(BUILD)/$(1)/starter-src/%.py: $(if $(wildcard $(1)/solution),$(1)/solution/%.py,$(1)/.starter/%.py) $(WB)
	@mkdir -p $$(@D)
	$(Q)$(if $(wildcard $(1)/solution),$(WB) strip $$< > $$@,cp $$< $$@)
endef
$(foreach w,$(ALL_WEEKS),$(if $($(w)_PY),$(eval $(call py_week_rules,$(w)))))

# A missing Python exercise of the learner's week: say how to get it back.
ifneq ($(and $(WEEK),$(filter learner,$(IMPL)),$(if $(filter reset clean distclean hint,$(MAKECMDGOALS)),,x)),)
  $(foreach e,$($(WEEK)_PY),$(if $(wildcard $(WEEK)/$(e).py),,$(error $(WEEK)/$(e).py is missing: `make $(WEEK) reset EX=$(e)` restores the starter)))
endif
