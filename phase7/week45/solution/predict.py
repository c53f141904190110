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
    #@solution
    "mlp_block": {
        "triton": 2,
        "extern": 2,
        "fused": [["addmm", "gelu"], ["add", "addmm", "native_layer_norm"]],
        "why": "The two GEMMs are cuBLAS mm calls; each bias add is split off the addmm into the "
               "pointwise kernel after it: bias + GELU in one kernel, bias + residual + LayerNorm "
               "(one row of 256 is one persistent reduction) in the other.",
    },
    "attn_scores": {
        "triton": 1,
        "extern": 1,
        "fused": [["_softmax", "add", "exp", "mul", "prepare_softmax_online", "sub", "view"]],
        "why": "q k^T is one batched GEMM (bmm, between views to and from 3-D); the scale and the bias "
               "add are pointwise work folded into the softmax's row reduction, which Inductor writes "
               "as an online softmax (max and sum in one pass, then sub and exp): one kernel reads the "
               "scores once.",
    },
    "center_softmax": {
        "triton": 1,
        "extern": 0,
        "fused": [["_softmax", "exp", "mean", "mul", "prepare_softmax_online", "sub"]],
        "why": "The mean, the max and the sum reduce over the same row of 1000: Inductor keeps the "
               "row in one program and does all three there (the max and the sum as one online "
               "softmax pass), with the subtract, exp, divide and scale around them.",
    },
    #@starter
    #| "mlp_block": {"triton": None, "extern": None, "fused": None, "why": ""},
    #| "attn_scores": {"triton": None, "extern": None, "fused": None, "why": ""},
    #| "center_softmax": {"triton": None, "extern": None, "fused": None, "why": ""},
    #@end
}
