# tools/here.mk — make typed inside a week or phase folder. Each week folder's
# Makefile (and each phase folder's) is one line that includes this file.
# In a week folder, `make check` is `make phaseP/weekNN check` run in the
# workbook's top folder (any variable given, IMPL=, NAME=, travels with it);
# in a phase folder it says which command to type. (The one line is
# `include ../../tools/here.mk`; a week added later copies it.)
MAKEFLAGS += --no-print-directory
here_parts := $(subst /, ,$(CURDIR))
here_week  := $(filter week%,$(lastword $(here_parts)))
ifneq ($(here_week),)
here_w := $(word $(words $(wordlist 2,$(words $(here_parts)),$(here_parts))),$(here_parts))/$(here_week)
.DEFAULT_GOAL := here-build
here-build:
	@echo "(in the top folder: make $(here_w))"
	@$(MAKE) -C ../.. $(here_w)
%:
	@echo "(in the top folder: make $(here_w) $@)"
	@$(MAKE) -C ../.. $(here_w) $@
else
.DEFAULT_GOAL := here-help
here-help:
	@echo ">>> run make from the workbook's top folder (cd ..), naming the week: make $(lastword $(here_parts))/weekNN check"; exit 2
%:
	@echo ">>> run make from the workbook's top folder (cd ..), naming the week: make $(lastword $(here_parts))/weekNN $@"; exit 2
endif
