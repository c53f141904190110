# phase4/week20/week.mk — week 20's package: libwbk as a shared library, its
# Python module and its program, built and installed. Included by the
# Makefile (every phaseP/weekNN/week.mk is).
#
#   make phase4/week20                  also builds build/phase4/week20/IMPL/libwbk.so.1
#                                       (the week's test runs the Python bindings on it)
#   make install PREFIX=dir [IMPL=...]  installs, from your code (IMPL=learner) by default:
#                                         PREFIX/lib/libwbk.so.1.0.0 (+ libwbk.so.1, libwbk.so)
#                                         PREFIX/include/wbk.h
#                                         PREFIX/lib/python/wbk.py   (PYTHONPATH=PREFIX/lib/python)
#                                         PREFIX/bin/wbk-app
#
# make test's check of the installed package is test_install.sh beside this file.
#
# The library is the week's wbk.cu and the kernels week.txt `uses:` (weeks
# 04, 06 and 07: the reference solutions in the workbook, your own files in a
# student copy), compiled again as position-independent code with hidden
# symbols: only the WBK_API functions of wbk.h are exported, and the static
# CUDA runtime inside stays private (--exclude-libs).

ifneq ($(wildcard phase4/week20/week.txt),)
W20       := phase4/week20
W20_DIR   := $(BUILD)/$(W20)
W20_VER    = $(shell sed -n 's/^\#define WBK_VERSION_$(1) \([0-9][0-9]*\).*/\1/p' $(W20)/wbk.h)
W20_MAJOR := $(call W20_VER,MAJOR)
W20_SOVER := $(W20_MAJOR).$(call W20_VER,MINOR).$(call W20_VER,PATCH)
W20_SO    := libwbk.so.$(W20_SOVER)
# The kernels packaged: week/exercise of weeks this one uses.
W20_KERNELS := phase0/week04/saxpylib phase1/week06/transpose phase1/week07/reduce
W20_PICF  := -Xcompiler -fPIC -Xcompiler -fvisibility=hidden
W20_INC   := $(foreach k,$(W20_KERNELS),-I$(patsubst %/,%,$(dir $(k))))
W20_USED_PIC := $(W20_KERNELS:%=$(W20_DIR)/pic/%.o)

.PHONY: install
KNOWN_GOALS += install

define w20_pic_used
$(W20_DIR)/pic/$(1).o: $(call ref_dir,$(patsubst %/,%,$(dir $(1))))/$(notdir $(1)).cu $(NVCC_STAMP) | $(DEPS_OK)
	@mkdir -p $$(@D)
	$$(if $(Q),@echo "  NVCC    $$< (-fPIC, for libwbk)")
	$(Q)$(NVCC) $(NVFLAGS) $(W20_PICF) -I$(patsubst %/,%,$(dir $(1))) -MMD -MP -c $$< -o $$@
endef
$(foreach k,$(W20_KERNELS),$(eval $(call w20_pic_used,$(k))))

define w20_impl
$(W20_DIR)/$(1)/pic/wbk.o: $(call src_of,$(W20),$(1),wbk) $(NVCC_STAMP) | $(DEPS_OK)
	@mkdir -p $$(@D)
	$$(if $(Q),@echo "  NVCC    $$< (-fPIC, for libwbk)")
	$(Q)$(NVCC) $(NVFLAGS) $(W20_PICF) -I$(W20) $(W20_INC) -MMD -MP -c $$< -o $$@ || { \
	  echo ">>> $$< does not compile: the first error above names the line."; exit 1; }

$(W20_DIR)/$(1)/$(W20_SO): $(W20_DIR)/$(1)/pic/wbk.o $(W20_USED_PIC)
	$$(if $(Q),@echo "  LD      $$@")
	$(Q)$(CXX) -shared -o $$@ -Wl,-soname,libwbk.so.$(W20_MAJOR) $$^ -L$(CUDA_LIB) -lcudart_static -ldl -lrt -lpthread \
	  -Wl,--exclude-libs,ALL -Wl,--no-undefined
	$(Q)ln -sf $(W20_SO) $$(@D)/libwbk.so.$(W20_MAJOR) && ln -sf libwbk.so.$(W20_MAJOR) $$(@D)/libwbk.so

# The week's test runs the Python bindings on the library beside it.
$(call test_bin,$(W20),$(1)): $(W20_DIR)/$(1)/$(W20_SO)

$(W20_DIR)/$(1)/wbk-app: $(W20_DIR)/app_main.o $(W20_DIR)/$(1)/app.o $(W20_DIR)/$(1)/$(W20_SO) $(LIBWB)
	$$(if $(Q),@echo "  LD      $$@")
	$(Q)$(CXX) -o $$@ $(W20_DIR)/app_main.o $(W20_DIR)/$(1)/app.o -L$(W20_DIR)/$(1) -lwbk \
	  -Wl,-rpath,'$$$$ORIGIN:$$$$ORIGIN/../lib' $(LIBWB) $(LDCUDA)
endef
$(foreach i,$(IMPLS),$(eval $(call w20_impl,$(i))))

$(W20_DIR)/app_main.o: $(W20)/app_main.c $(W20)/app.h $(W20)/wbk.h | $(DEPS_OK)
	@mkdir -p $(@D)
	$(if $(Q),@echo "  CC      $<")
	$(Q)$(CC) $(CFLAGS) -I$(W20) -c $< -o $@

# w20_install(impl, prefix)
define w20_install
install -d $(2)/lib/python $(2)/include $(2)/bin && \
install -m 755 $(W20_DIR)/$(1)/$(W20_SO) $(2)/lib/ && \
ln -sf $(W20_SO) $(2)/lib/libwbk.so.$(W20_MAJOR) && ln -sf libwbk.so.$(W20_MAJOR) $(2)/lib/libwbk.so && \
install -m 644 $(W20)/wbk.h $(2)/include/ && \
install -m 644 $(W20)/python/wbk.py $(2)/lib/python/ && \
install -m 755 $(W20_DIR)/$(1)/wbk-app $(2)/bin/
endef

ifneq ($(filter install,$(MAKECMDGOALS)),)
ifeq ($(PREFIX),)
$(error say where: make install PREFIX=$$HOME/.local (installs week 20's libwbk from IMPL=$(IMPL)))
endif
endif
install: $(W20_DIR)/$(IMPL)/$(W20_SO) $(W20_DIR)/$(IMPL)/wbk-app
	$(Q)$(call w20_install,$(IMPL),$(PREFIX))
	@echo "Installed libwbk $(W20_SOVER) ($(IMPL_LABEL)) in $(PREFIX): lib/$(W20_SO), include/wbk.h, lib/python/wbk.py, bin/wbk-app"
	@echo "Python: PYTHONPATH=$(PREFIX)/lib/python python3 -c 'import wbk; print(wbk.version())'"

endif
