"""Week 40: the package wb_softmax40, installable with pip.

    pip install --no-deps --no-build-isolation .      # in phase7/week40, torch importable

The layout pip sees:

    setup.py                      this file
    wb_softmax40/__init__.py      the Python package
    softmax_checked.cu            the kernel and its binding -> wb_softmax40._C
    softmax_checked.h             its C API

--no-build-isolation builds against the torch you have (an isolated build
would download a second torch to compile against, and might get another
version, whose ABI your torch cannot load). The test installs a copy of
this layout, with softmax_checked.cu from the folder under test, into a
folder of its own under build/ (pip install --target) and imports it from
there.
"""

import os

from setuptools import setup
from torch.utils.cpp_extension import BuildExtension, CUDAExtension

HERE = os.path.dirname(os.path.abspath(__file__))
# WB40_NS: the op's namespace, torch.ops.wb_softmax40.softmax (without it, the
# extension's name: _C, which says nothing about whose op it is)
DEFS = ["-O3", "-DWB_TORCH_EXT", "-DWB40_NS=wb_softmax40"]

setup(
    name="wb_softmax40",
    version="0.40",
    description="The CUDA workbook's week-40 softmax op",
    packages=["wb_softmax40"],
    ext_modules=[
        CUDAExtension(
            "wb_softmax40._C",  # the module's full name: TORCH_EXTENSION_NAME is then _C
            [os.path.relpath(os.path.join(HERE, "softmax_checked.cu"))],
            include_dirs=[HERE],
            extra_compile_args=dict(cxx=DEFS, nvcc=DEFS + ["-lineinfo"]),
        )
    ],
    cmdclass=dict(build_ext=BuildExtension),
    zip_safe=False,
)
