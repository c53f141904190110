# mk/needs-cudnn-frontend.mk — the cuDNN frontend headers (C++, header-only) for
# the weeks whose week.txt says `needs: cudnn-frontend` (week 38 measures its
# attention kernel against cuDNN's SDPA graph, which only the frontend builds).
# The Makefile gives those weeks' objects NEEDS_cudnn-frontend_NVF and makes
# them wait for NEEDS_cudnn-frontend_DEP.
#
# The headers come from the PyPI package nvidia-cudnn-frontend, which ships
# them in include/. The first build of such a week installs the package under
# .deps/cudnn-frontend-pkg and copies that folder to
# .deps/cudnn-frontend/include. No cuDNN library is linked: the week's code
# defines NV_CUDNN_FRONTEND_USE_DYNAMIC_LOADING and hands the frontend the
# library that wb_cudnn_open loaded (wb_cudnn.h). Offline machines: copy an
# existing .deps/cudnn-frontend/include there, or set CUDNN_FRONTEND_INCLUDE
# to the include/ folder of a cudnn-frontend checkout or package and it is
# copied instead.
CUDNN_FRONTEND_VERSION ?= 1.32.0
CUDNN_FRONTEND_INCLUDE ?=

.deps/cudnn-frontend/include:
	@echo "  cuDNN frontend headers -> $@"
	$(Q)mkdir -p .deps/cudnn-frontend
	$(Q)if [ -n '$(CUDNN_FRONTEND_INCLUDE)' ]; then cp -r '$(CUDNN_FRONTEND_INCLUDE)' $@.tmp; \
	else python3 -m pip install --quiet --no-deps --target .deps/cudnn-frontend-pkg 'nvidia-cudnn-frontend==$(CUDNN_FRONTEND_VERSION)' && \
	  cp -r .deps/cudnn-frontend-pkg/include $@.tmp; fi && \
	  test -f $@.tmp/cudnn_frontend.h && mv $@.tmp $@ || \
	  { rm -rf $@.tmp; echo ">>> could not get the cuDNN frontend headers: install nvidia-cudnn-frontend==$(CUDNN_FRONTEND_VERSION) with pip, or set CUDNN_FRONTEND_INCLUDE=/path/to/cudnn-frontend/include"; exit 1; }

NEEDS_cudnn-frontend_NVF := -I.deps/cudnn-frontend/include
NEEDS_cudnn-frontend_DEP := .deps/cudnn-frontend/include
