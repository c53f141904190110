# mk/quiz.mk — the per-phase quizzes, for everyone. Included by the Makefile.
#
#   make quiz PHASE=0 [ANSWERS=file]   take a quiz (phase 0-8 or preflight)
#
# quizzes/*.txt are the sealed copies (no keys); grading and sealing are the
# instructor's (mk/instructor.mk).

.PHONY: quiz
KNOWN_GOALS += quiz

QUIZ_BIN  := $(BUILD)/quizzes/quiz
HOST_OBJ  := $(HOST_SRC:%.c=$(BUILD)/%.o)

$(QUIZ_BIN): quizzes/quiz.c $(HOST_OBJ)
	@mkdir -p $(@D)
	$(if $(Q),@echo "  CC      $@")
	$(Q)$(CC) $(CFLAGS) -o $@ $< $(HOST_OBJ) -lm

PHASE ?=
quiz_file = quizzes/$(if $(filter preflight,$(PHASE)),preflight,phase$(PHASE)).txt

quiz: $(QUIZ_BIN)
	@[ -n "$(PHASE)" ] && [ -f "$(quiz_file)" ] || { echo ">>> say which quiz: make quiz PHASE=0 (0-8, or preflight) [ANSWERS=file]"; exit 2; }
	$(Q)$(QUIZ_BIN) take $(quiz_file) $(ANSWERS)
