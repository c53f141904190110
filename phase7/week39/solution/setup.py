"""Week 39, exercise 4: build the op with setuptools.

    python setup.py build_ext --inplace            # in your week folder, by hand
    make phase7/week39 check                       # the test builds it into build/

The extension is the same softmax_ext.cu the JIT build compiles: one
CUDAExtension named wb_softmax39_setup (the name of the Python module it
makes, and TORCH_EXTENSION_NAME inside the .cu), with -DWB_TORCH_EXT for
both compilers so the binding is compiled in, and torch's BuildExtension
as the build_ext command (it knows how to run nvcc on a .cu and which
flags torch was built with).

Paths are taken from this file's folder, never from the current directory:
the test runs `python FOLDER/setup.py build_ext --build-temp ...
--build-lib ...` from a folder of its own under build/. The header
softmax_ext.h is next to this file in your week folder; when the test
builds the reference or the starter from elsewhere it names the week folder
in WB_EXT_INCLUDE.
"""

import os

from setuptools import setup
from torch.utils.cpp_extension import BuildExtension, CUDAExtension

HERE = os.path.dirname(os.path.abspath(__file__))
INCLUDE = [HERE] + [d for d in os.environ.get("WB_EXT_INCLUDE", "").split(os.pathsep) if d]

#@solution
FLAGS = ["-O3", "-DWB_TORCH_EXT"]

setup(
    name="wb_softmax39_setup",
    ext_modules=[
        CUDAExtension(
            name="wb_softmax39_setup",
            sources=[os.path.join(HERE, "softmax_ext.cu")],
            include_dirs=INCLUDE,
            extra_compile_args={"cxx": FLAGS, "nvcc": FLAGS + ["-lineinfo"]},
        )
    ],
    cmdclass={"build_ext": BuildExtension},
)
#@starter
#| # TODO (Task 4): setup(name=..., ext_modules=[CUDAExtension(name="wb_softmax39_setup",
#| # sources=[os.path.join(HERE, "softmax_ext.cu")], include_dirs=INCLUDE,
#| # extra_compile_args={"cxx": [...], "nvcc": [...]})], cmdclass={"build_ext": BuildExtension}).
#| # Both compilers need -DWB_TORCH_EXT, or the binding is not compiled in. README, Task 4.
#| raise SystemExit("setup.py: not written yet (phase7/week39/setup.py: README, Task 4)")
#@end
