"""Week 45, exercise 1: predict what Inductor generates for three blocks.

The blocks are in blocks.py (read them there). For each, before you run
anything, write down what torch.compile (Inductor, on an NVIDIA GPU, FP32, the
shapes of blocks.example_inputs, the settings of blocks.pinned()) generates:

  "triton": how many Triton kernels its generated code defines;
  "extern": how many extern kernel calls it makes (extern_kernels.mm, .addmm,
            .bmm, ...: library calls, cuBLAS for a GEMM, not Triton);
  "fused":  one entry per Triton kernel: the aten ops that kernel's name lists,
            as a list of op names, e.g. ["add", "native_layer_norm"] (order does
            not matter; the README, "Reading a kernel's name", says which names);
  "why":    a sentence: why those ops landed together, and why the others did not.

w45.predict checks "triton" and "extern", w45.fusion checks "fused", against
what Inductor generates in the same run. Then run blocks.py with
TORCH_LOGS=output_code and read the code you predicted (README, "Reading the
generated code").
"""

PREDICTIONS = {
    "mlp_block": {"triton": None, "extern": None, "fused": None, "why": ""},
    "attn_scores": {"triton": None, "extern": None, "fused": None, "why": ""},
    "center_softmax": {"triton": None, "extern": None, "fused": None, "why": ""},
}
