# mk/roofline.mk — the roofline plot, the lab notebook and its microbenchmarks.
#
#   make roofline      every build/bench/*.csv on one roofline -> build/roofline.png
#                      (CSV=... to choose files, BW=GB/s PEAK=GFLOP/s to set the FP32
#                      roof, TC=GFLOP/s the FP16/BF16 tensor-core one when the device
#                      is not in roofline_csv's table of published figures)
#   make journal       notebook/daily/YYYY-MM-DD.md from the template (never overwrites)
#   make microbench    bandwidth (pageable/pinned/D2D) and pointer-chasing latency on
#                      this GPU -> build/notebook/*.csv and latency.png
#
# Data wrangling is notebook/tools/roofline_csv.c; drawing is gnuplot.
# tests/roofline.sh (run by make test) draws the committed fixture CSVs.

.PHONY: roofline journal microbench
KNOWN_GOALS += roofline journal microbench

ROOFLINE_TOOL := $(BUILD)/notebook/roofline_csv
ROOFLINE_GP   := notebook/tools/roofline.gp
CSV  ?= $(wildcard $(BUILD)/bench/*.csv notebook/microbench/roofline-data/*.csv)
ROOFLINE_PNG ?= $(BUILD)/roofline.png
PNG_SIG := 89504e470d0a1a0a

$(ROOFLINE_TOOL): notebook/tools/roofline_csv.c
	@mkdir -p $(@D)
	$(if $(Q),@echo "  CC      $<")
	$(Q)$(CC) -std=c11 -O2 -Wall -Wextra -Wno-format-truncation -o $@ $< -lm

# roofline_draw(csv files, png, extra tool flags)
define roofline_draw
$(ROOFLINE_TOOL) $(3) $(2).dat $(2).roof $(1) && \
  gnuplot -e "dat='$(2).dat'; roof='$(2).roof'; png='$(2)'" $(ROOFLINE_GP)
endef

roofline: $(ROOFLINE_TOOL)
	@command -v gnuplot >/dev/null || { echo ">>> gnuplot not found: install it (apt-get install gnuplot-nox) to draw the roofline."; exit 1; }
	@[ -n "$(strip $(CSV))" ] || { echo ">>> no benchmark CSVs yet: run e.g. make $(or $(filter phase2/week09,$(ALL_WEEKS)),$(firstword $(ALL_WEEKS))) bench (and other weeks' bench) first."; exit 1; }
	@mkdir -p $(dir $(ROOFLINE_PNG))
	$(Q)$(call roofline_draw,$(CSV),$(ROOFLINE_PNG),$(if $(BW),-b $(BW)) $(if $(PEAK),-p $(PEAK)) $(if $(TC),-t $(TC)))
	@echo "Roofline: $(ROOFLINE_PNG) (points: $(ROOFLINE_PNG).dat)"


# ---------------------------------------------------------------- the lab notebook
TODAY = $(shell date +%Y-%m-%d)
journal:
	@f=notebook/daily/$(TODAY).md; \
	if [ -e $$f ]; then echo "$$f already exists: left as it is."; \
	else sed "s/YYYY-MM-DD/$(TODAY)/g" notebook/daily/TEMPLATE.md > $$f && echo "Created $$f"; fi

MB_DIR := $(BUILD)/notebook
$(MB_DIR)/%: notebook/microbench/%.cu $(LIBWB)
	@mkdir -p $(@D)
	$(if $(Q),@echo "  NVCC    $<")
	$(Q)$(NVCC) $(NVFLAGS) -o $@ $< $(LIBWB)

# mb_run(program, csv): write to csv.tmp, rename on success; a failed or
# interrupted (Ctrl-C) run leaves no empty or partial CSV behind: bash runs
# the EXIT trap on both.
mb_run = trap 'rm -f $(2).tmp' EXIT; $(1) > $(2).tmp && mv -f $(2).tmp $(2) || { echo ">>> $(notdir $(1)) failed: $(2) not written."; exit 1; }

microbench: $(GPU_PROBE) $(MB_DIR)/bandwidth $(MB_DIR)/latency
	$(Q)why=$$($(GPU_PROBE)) || { echo ">>> make microbench needs an NVIDIA GPU: $$why. Nothing was measured, no CSV written."; exit 1; }
	@echo "== bandwidth (256 MiB copies)"
	$(Q)$(call mb_run,$(MB_DIR)/bandwidth,$(MB_DIR)/bandwidth.csv)
	@echo "== latency (pointer chasing)"
	$(Q)$(call mb_run,$(MB_DIR)/latency,$(MB_DIR)/latency.csv)
	$(Q)if command -v gnuplot >/dev/null; then \
	  gnuplot -e "csv='$(MB_DIR)/latency.csv'; png='$(MB_DIR)/latency.png'" notebook/microbench/latency.gp && \
	  echo "Latency plot: $(MB_DIR)/latency.png"; else echo "gnuplot not found: CSVs in $(MB_DIR)"; fi
