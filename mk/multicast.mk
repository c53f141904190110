# mk/multicast.mk — NVLink multicast stays off (common/include/wb_multicast.h).
#
#   make test-multicast-off   checks, for `make test`, that
#     - a command make runs sees the three settings even when the caller's
#       environment and command line turn them on;
#     - no code of the workbook (C, CUDA, Python, shell, make) names
#       cuMulticastCreate, outside this check and the header that explains
#       the rule.
# The test programs set them again themselves (checked by make test's
# harness step) and the grader puts them in every sandboxed run (checked by
# the instructor tests).

.PHONY: test-multicast-off
KNOWN_GOALS += test-multicast-off

$(BUILD)/multicast-env.txt: FORCE
	@mkdir -p $(@D)
	@echo "$$NCCL_NVLS_ENABLE $$TORCH_SYMM_MEM_DISABLE_MULTICAST $$NVSHMEM_DISABLE_NVLS" > $@

test-multicast-off: $(WB)
	$(Q)rm -f $(BUILD)/multicast-env.txt; \
	NCCL_NVLS_ENABLE=1 TORCH_SYMM_MEM_DISABLE_MULTICAST=0 NVSHMEM_DISABLE_NVLS=0 \
	  $(MAKE) -s NCCL_NVLS_ENABLE=1 TORCH_SYMM_MEM_DISABLE_MULTICAST=0 NVSHMEM_DISABLE_NVLS=0 $(BUILD)/multicast-env.txt; \
	got=$$(cat $(BUILD)/multicast-env.txt 2>/dev/null); \
	if [ "$$got" = "0 1 1" ]; then $(WB) ledger-add $(LEDGER) PASS "multicast off in every command make runs, whatever the caller set"; \
	else $(WB) ledger-add $(LEDGER) FAIL "multicast off in every command make runs" "NCCL_NVLS_ENABLE TORCH_SYMM_MEM_DISABLE_MULTICAST NVSHMEM_DISABLE_NVLS = '$$got', expected '0 1 1'"; fi; \
	hits=$$(grep -rlI --exclude-dir=build --exclude-dir=.deps --exclude-dir=.git --exclude-dir=.dev --include='*.c' --include='*.h' --include='*.cu' --include='*.cuh' --include='*.cpp' --include='*.py' --include='*.sh' --include='*.mk' --include=Makefile cuMulticastCreate . | grep -v -e '^./mk/multicast.mk$$' -e '^./common/include/wb_multicast.h$$'); \
	if [ -z "$$hits" ]; then $(WB) ledger-add $(LEDGER) PASS "no workbook file calls cuMulticastCreate"; \
	else $(WB) ledger-add $(LEDGER) FAIL "no workbook file calls cuMulticastCreate" "found in: $$(echo $$hits)"; fi

TEST_EXTRA += test-multicast-off
