"""wb_softmax40 — week 40's softmax op as an installable package.

    pip install --no-build-isolation .        # in phase7/week40 (torch must be importable)
    python -c "import torch, wb_softmax40; print(wb_softmax40.softmax(torch.randn(4, 8, device='cuda')))"

The compiled part is the submodule wb_softmax40._C (softmax_checked.cu with
its binding); this file is the Python face of the package.
"""

import torch  # noqa: F401  (loads libtorch before _C, which links against it)

from . import _C

__all__ = ["softmax"]


def softmax(x):
    """Row softmax of a 2-D contiguous CUDA tensor (float32, float16 or bfloat16),
    computed in float32; anything else is a RuntimeError naming the problem."""
    return _C.softmax(x)
