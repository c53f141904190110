# instructor/tune/w59/tune.mk — week 59's tolerance model (instructor-only, never
# released). Included by mk/instructor.mk, as every instructor/tune/*/tune.mk is.
#
#   make tune-w59-tol   builds build/tune/w59_tol_model and runs it: a CPU model
#                       of the reference backward's roundings against
#                       test_week59.c's reference and bound (no GPU needed).

.PHONY: tune-w59-tol
KNOWN_GOALS += tune-w59-tol

TUNE_W59_TOL := $(BUILD)/tune/w59_tol_model

$(TUNE_W59_TOL): instructor/tune/w59/tol_model.c phase6/week59/support/bwd_ref.h
	@mkdir -p $(@D)
	$(if $(Q),@echo "  CC      $<")
	$(Q)$(CC) -std=c11 -O2 -Wall -Wextra -Iphase6/week59 -o $@ $< -lm

tune-w59-tol: $(TUNE_W59_TOL)
	$(TUNE_W59_TOL)
