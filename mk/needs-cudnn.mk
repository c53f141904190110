# mk/needs-cudnn.mk — cuDNN's headers for the weeks whose week.txt says
# `needs: cudnn` (week 17 measures a convolution, Phase 6 softmax and
# attention against cuDNN). Only the headers are needed at build time: the
# tests load libcudnn.so.9 at run time through common/include/wb_cudnn.h,
# and a checkpoint that needs it SKIPs with the reason where no cuDNN loads.
#
# Where cudnn.h is looked for: CUDNN_INCLUDE if you set it; the CUDA
# toolkit's include folder; /usr/include; then the include/ folder of the
# Python package nvidia-cudnn-cu* (torch installs it; on machines with torch
# and no system cuDNN that is the only copy). Looked up once per make run.
CUDNN_INCLUDE ?= $(eval CUDNN_INCLUDE := $(shell \
  for d in $(CUDA_HOME)/include /usr/local/cuda/include /usr/include; do [ -f $$d/cudnn.h ] && { echo $$d; exit 0; }; done; \
  python3 -c 'import nvidia.cudnn, os; d = os.path.join(list(nvidia.cudnn.__path__)[0], "include"); print(d if os.path.isfile(os.path.join(d, "cudnn.h")) else "")' 2>/dev/null))$(CUDNN_INCLUDE)

NEEDS_cudnn_NVF = -I$(or $(CUDNN_INCLUDE),/cudnn-headers-not-found)
NEEDS_cudnn_DEP = $(if $(CUDNN_INCLUDE),,cudnn-headers-missing)

.PHONY: cudnn-headers-missing
cudnn-headers-missing:
	@echo ">>> cuDNN's headers (cudnn.h) were not found. Install cuDNN 9 (the CUDA toolkit's, your distribution's package, or pip install nvidia-cudnn-cu12), or set CUDNN_INCLUDE=/path/to/include"; exit 1
# the week's C test may include <cudnn.h> too (for the types)
NEEDS_cudnn_CFLAGS = -I$(or $(CUDNN_INCLUDE),/cudnn-headers-not-found)
