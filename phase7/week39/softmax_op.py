"""Week 39, exercise 5: what the dispatcher needs from Python besides the kernels.

    op = softmax_op.op()                 # torch.ops.wb_softmax39.softmax, fake kernel and autograd registered
    y = op(x)                            # x (rows, cols), FP32/FP16/BF16, CPU or CUDA
    torch.compile(lambda x: op(x) * 2, fullgraph=True)(x)   # one graph, no break

softmax_ext.cu registers the op with a schema and a kernel for CPU and one
for CUDA (README, Task 3). Two things are still missing for torch to treat it
as one of its own, and they are written here, in Python, against the op's
name:

- the fake (meta) kernel: what torch.compile, the fake-tensor tracer and
  torch.export run instead of the op while they trace. It computes no value:
  from the input's metadata alone (shape, dtype, device) it makes an output
  with the metadata the real kernels give (a new contiguous tensor of x's
  shape and dtype on x's device), and it refuses what they refuse.
- the autograd formula: register_autograd with a backward and a
  setup_context that saves what the backward reads (here y: the softmax's
  gradient is y * (dy - sum(dy * y)) along the row).

The pybind function of the same module (ext().softmax) has neither, and
cannot have them: torch never sees it as an op.
"""

import torch

import wb_ext

NAME = "wb_softmax39::softmax"  # the namespace is the extension's name (TORCH_EXTENSION_NAME)
DTYPES = (torch.float32, torch.float16, torch.bfloat16)

_OP = None


def ext():
    """The JIT build of softmax_ext.cu in this folder: loading it registers the op."""
    return wb_ext.load("wb_softmax39", ["softmax_ext.cu"])


def softmax_fake(x):
    """The fake kernel: an output with the metadata of the real one, no values."""
    # TODO (Task 5): torch._check that x is 2-D and of one of DTYPES (a message that says what
    # is wrong), then return a new tensor of x's shape, dtype and device with the layout the
    # kernels give: contiguous (x.new_empty(x.shape)), never x itself. README, Task 5.
    raise NotImplementedError("softmax_fake is not written yet (week 39, softmax_op.py: README, Task 5)")


def setup_context(ctx, inputs, output):
    """Runs after the forward, with its inputs and its output: save what backward reads."""
    # TODO (Task 5): the backward needs y, the op's output: ctx.save_for_backward(output).
    raise NotImplementedError("setup_context is not written yet (week 39, softmax_op.py: README, Task 5)")


def backward(ctx, dy):
    """dx = y * (dy - sum_j dy_j y_j) along each row, in float32, rounded once to x's dtype."""
    # TODO (Task 5): (y,) = ctx.saved_tensors; return y * (dy - (dy * y).sum(dim=1, keepdim=True)),
    # computed in float32 and rounded once to y's dtype. README, Task 5.
    raise NotImplementedError("backward is not written yet (week 39, softmax_op.py: README, Task 5)")


def register():
    """Give the op its fake kernel and its autograd formula (once a process)."""
    # TODO (Task 5): torch.library.register_fake(NAME)(softmax_fake), and
    # torch.library.register_autograd(NAME, backward, setup_context=setup_context).
    pass


def op():
    """torch.ops.wb_softmax39.softmax, with its fake kernel and autograd registered."""
    global _OP
    if _OP is None:
        ext()
        try:
            o = torch.ops.wb_softmax39.softmax
        except (AttributeError, RuntimeError) as e:
            raise RuntimeError("the extension loaded, but registers no torch.ops.wb_softmax39.softmax "
                               "(TORCH_LIBRARY in softmax_ext.cu: README, Task 3): %s" % e) from None
        register()
        _OP = o
    return _OP
