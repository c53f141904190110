# mk/phase7.mk — Phase 7's Python side, as far as the engine is concerned:
# the results record written from Python must be one the C reader takes.
#
#   make test-python-results   phase7/common/wb_results.py writes a record,
#                              `wb results` reads it back (run by make test)
#
# Python is only for Phase 7's glue; where python3 is missing the check is
# reported skipped, never passed.

.PHONY: test-python-results
KNOWN_GOALS += test-python-results

test-python-results: $(WB)
	$(Q)if ! command -v python3 >/dev/null; then \
	  $(WB) ledger-add $(LEDGER) SKIP "results record written from Python" "python3 not installed"; exit 0; fi; \
	if python3 -m py_compile phase7/common/*.py && python3 phase7/common/check_wb_results.py $(WB) >$(BUILD)/python-results.log 2>&1; \
	then $(WB) ledger-add $(LEDGER) PASS "results record written from Python, read by the C reader" "$$(tail -n1 $(BUILD)/python-results.log)"; \
	else cat $(BUILD)/python-results.log; $(WB) ledger-add $(LEDGER) FAIL "results record written from Python" "see $(BUILD)/python-results.log"; fi

# A student copy without Phase 7 has nothing of it to test.
ifneq ($(wildcard phase7/common/check_wb_results.py),)
TEST_EXTRA += test-python-results
endif
