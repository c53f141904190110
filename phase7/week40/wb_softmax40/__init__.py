"""wb_softmax40 — week 40's softmax op as an installable package.

    pip install --no-build-isolation .        # in phase7/week40 (torch must be importable)
    python -c "import torch, wb_softmax40; print(wb_softmax40.softmax(torch.randn(4, 8, device='cuda')))"

The compiled part is the submodule wb_softmax40._C (softmax_checked.cu with
its binding); importing it registers the op torch.ops.wb_softmax40.softmax
with torch's dispatcher (a CPU and a CUDA kernel). This file is the Python
face of the package: softmax is that op; softmax_pybind the pybind function
of the same module, CUDA only, which torch.compile cannot see into.
"""

import torch

from . import _C

__all__ = ["softmax", "softmax_pybind"]

softmax = torch.ops.wb_softmax40.softmax
"""Row softmax of a 2-D contiguous tensor (float32, float16 or bfloat16; CPU or
CUDA), computed in float32; anything else is a RuntimeError naming the problem."""

softmax_pybind = _C.softmax
