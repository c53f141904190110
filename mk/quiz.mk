# mk/quiz.mk — the per-phase quizzes, for everyone. Included by the Makefile.
#
#   make quiz PHASE=0 [ANSWERS=file]   take a quiz (phase 0-8 or preflight)
#
# quizzes/*.txt are the sealed copies (no keys); grading and sealing are the
# instructor's (mk/instructor.mk).

.PHONY: quiz
KNOWN_GOALS += quiz

# The quiz program: quizzes/quiz.c (its main) and its parts (QUIZ_OBJ, the Makefile).
$(QUIZ_BIN): $(BUILD)/quizzes/quiz.o $(QUIZ_OBJ) $(QUIZ_CLASS_OBJ) $(HOST_OBJ)
	@mkdir -p $(@D)
	$(if $(Q),@echo "  CC      $@")
	$(Q)$(CC) $(CFLAGS) -o $@ $^ -lm

PHASE ?=
quiz_file = quizzes/$(if $(filter preflight,$(PHASE)),preflight,phase$(PHASE)).txt

quiz: $(QUIZ_BIN)
	@[ -n "$(PHASE)" ] && [ -f "$(quiz_file)" ] || { echo ">>> $(if $(PHASE),PHASE=$(PHASE) is not a quiz,say which quiz): make quiz PHASE=0 (0-8, or preflight) [ANSWERS=file]"; exit 2; }
	$(Q)$(QUIZ_BIN) take $(quiz_file) $(ANSWERS)
