"""Week 40, exercise 2: the fake kernel of the hardened op, with the same refusals.

    op = checked_op.op()        # torch.ops.wb_softmax40_jit.softmax, its fake kernel registered
    y = op(x)                   # CPU tensors to the CPU kernel, CUDA tensors to the CUDA kernel

softmax_checked.cu registers the op with a CPU and a CUDA kernel (README,
Task 3); each refuses a dtype, a shape and a layout it cannot compute. While
torch.compile (or torch.export) traces a function, the op is not run: its
fake kernel is, on tensors that have a shape, a dtype and a device but no
data. An input the kernels refuse must be refused there too, with the same
words, or the trace succeeds and the error comes later, from inside the
compiled code, far from the line that called the op. This op has no
backward: week 39's op shows register_autograd; this one is forward only.
"""

import torch

import wb_ext

NAME = "wb_softmax40_jit::softmax"  # the namespace is the JIT build's name (TORCH_EXTENSION_NAME)
DTYPES = (torch.float32, torch.float16, torch.bfloat16)

_OP = None


def ext():
    """The JIT build of softmax_checked.cu in this folder: loading it registers the op."""
    return wb_ext.load("wb_softmax40_jit", ["softmax_checked.cu"])


def softmax_fake(x):
    """The fake kernel: refuse what the kernels refuse, in their order and words;
    else a new contiguous tensor of x's shape and dtype on x's device."""
    # TODO (Task 4): torch._check(cond, lambda: "softmax_checked: ...") for the dtype (DTYPES),
    # the shape (2-D) and contiguity (x.is_contiguous()), in the kernels' order and with their
    # words; then return torch.empty_like(x) (x is contiguous by then). README, Task 4.
    raise NotImplementedError("softmax_fake is not written yet (week 40, checked_op.py: README, Task 4)")


def register():
    """Register the fake kernel for the op (once a process)."""
    # TODO (Task 4): torch.library.register_fake(NAME)(softmax_fake)
    pass


def op():
    """torch.ops.wb_softmax40_jit.softmax, with its fake kernel registered."""
    global _OP
    if _OP is None:
        ext()
        try:
            o = torch.ops.wb_softmax40_jit.softmax
        except (AttributeError, RuntimeError) as e:
            raise RuntimeError("the extension loaded, but registers no torch.ops.wb_softmax40_jit.softmax "
                               "(TORCH_LIBRARY in softmax_checked.cu: README, Task 3): %s" % e) from None
        register()
        _OP = o
    return _OP
