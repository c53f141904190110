"""Week 46, the exercise: a torch.compile backend that runs the workbook's kernels.

    compiled = torch.compile(model, backend=workbook_backend, dynamic=False)

Dynamo traces the model's forward into a torch.fx.GraphModule and hands it
to the backend with example inputs; what the backend returns is called in
place of the forward. This backend rewrites the graph in place:

  - every LayerNorm over the last dimension  -> kernels.layer_norm
  - every attention, softmax(q @ k^T * scale) @ v, FP16 or BF16
                                              -> kernels.attention
  - every other softmax over the last dimension -> kernels.softmax

and leaves every other node as it is (the linears, the GELU, the views and
the adds still run as eager PyTorch). It is for inference: the kernels have
no backward, so workbook_backend refuses (RuntimeError, before any rewrite) a
graph compiled with grad mode on and an input that requires grad (the
model's weights, usually), and the kernels refuse such a tensor too
(kernels.py): a gradient is never lost without a word. Run the compiled
model under torch.no_grad() or torch.inference_mode(). workbook_backend is
given: it checks that, runs the three rewrites (attention before softmax, or the attention's softmax
would be taken alone), checks the graph, regenerates its Python code and
returns it. REPORT holds what the last compile replaced.

Your part: the three replace_* functions, each returning how many patterns
it replaced. kernels.py (given) holds the kernels and their arguments;
the helpers node_value, is_call, arg, last_dim, scale_of and untransposed
are given.
"""

import operator

import torch
import torch.nn.functional as F

import kernels

REPORT = {"layer_norm": 0, "attention": 0, "softmax": 0}


def node_value(node):
    """The example value dynamo recorded for a node (a fake tensor with the
    node's shape and dtype), or None for a constant or a node without one."""
    if not isinstance(node, torch.fx.Node):
        return None
    return node.meta.get("example_value")


def is_call(node, functions=(), methods=()):
    """True when node calls one of `functions` (op call_function) or a tensor
    method named in `methods` (op call_method: x.softmax(...))."""
    if not isinstance(node, torch.fx.Node):
        return False
    if node.op == "call_function":
        return node.target in functions
    if node.op == "call_method":
        return node.target in methods
    return False


LAYER_NORMS = (F.layer_norm, torch.layer_norm)
SOFTMAXES = (F.softmax, torch.softmax, torch.Tensor.softmax, torch.nn.functional.softmax)
MATMULS = (operator.matmul, torch.matmul, torch.bmm)
MULS = (operator.mul, torch.mul)
DIVS = (operator.truediv, torch.div)
TRANSPOSES = (torch.transpose,)


def arg(node, i, name, default=None):
    """Argument i of a call (positional), or its keyword `name`, or default."""
    if len(node.args) > i:
        return node.args[i]
    return node.kwargs.get(name, default)


def last_dim(dim, ndim):
    return isinstance(dim, int) and dim in (-1, ndim - 1)


def replace_layer_norms(gm):
    """Point every LayerNorm over the last dimension at kernels.layer_norm. Returns how many."""
    # TODO: for each node of gm.graph.nodes that is_call(node, LAYER_NORMS) and normalizes the
    # last dimension only (normalized_shape of one element, equal to the input's last size:
    # node_value(...) has the shape), make it call kernels.layer_norm, which takes the same
    # arguments: node.target = kernels.layer_norm. Count them. README, "Rewriting a node".
    return 0


def scale_of(node):
    """(scores, scale) when node is scores * c, c * scores or scores / c for a
    Python number c, else (node, None)."""
    if is_call(node, MULS) and len(node.args) == 2:
        a, b = node.args
        if isinstance(b, (int, float)):
            return a, float(b)
        if isinstance(a, (int, float)):
            return b, float(a)
    if is_call(node, DIVS) and len(node.args) == 2 and isinstance(node.args[1], (int, float)) \
            and node.args[1] != 0 and not node.kwargs:
        return node.args[0], 1.0 / float(node.args[1])
    return node, None


def untransposed(node):
    """k when node is k with its last two dimensions swapped, else None."""
    if not (is_call(node, TRANSPOSES, ("transpose",)) and len(node.args) == 3):
        return None
    k = node.args[0]
    kv = node_value(k)
    if kv is None:
        return None
    dims = {d % kv.dim() for d in node.args[1:] if isinstance(d, int)}
    return k if dims == {kv.dim() - 2, kv.dim() - 1} else None


def replace_attention(gm):
    """Replace every softmax(q @ k^T * scale) @ v on 4-D FP16/BF16 tensors by
    one kernels.attention call; erase the nodes it made dead. Returns how many."""
    # TODO: find softmax nodes (is_call(node, SOFTMAXES, ("softmax",))) over the last dim of a
    # 4-D FP16/BF16 tensor whose input is (q @ kt) * scale (or / c: scale_of) with kt a transpose
    # of k's last two dims (untransposed(kt) gives k),
    # and whose only user is a matmul (softmax @ v). Insert before that matmul
    # graph.call_function(kernels.attention, (q, k, v, scale)), replace_all_uses_with it, then
    # graph.erase_node the matmul, softmax, scale, scores and transpose (users before inputs).
    # Skip any pattern whose intermediate nodes have other users. README, "Matching attention".
    return 0


def replace_softmax(gm):
    """Replace every remaining softmax over the last dimension by kernels.softmax. Returns how many."""
    # TODO: for each softmax node left (torch.softmax(x, dim), F.softmax, x.softmax(dim): a
    # call_method has x as args[0] too) over the last dimension, with no dtype argument, insert
    # graph.call_function(kernels.softmax, (x, -1)) before it, replace_all_uses_with, erase it.
    # README, "Rewriting a node".
    return 0


def grad_inputs(gm, example_inputs):
    """The names of the graph's inputs whose gradient would be asked for: grad
    mode on (dynamo compiles again when it changes) and the input requires grad.
    Empty under torch.no_grad() and torch.inference_mode()."""
    if not torch.is_grad_enabled():
        return []
    names = [n.target for n in gm.graph.nodes if n.op == "placeholder"]
    if len(names) != len(example_inputs):
        names = ["input %d" % i for i in range(len(example_inputs))]
    return [name for name, t in zip(names, example_inputs) if isinstance(t, torch.Tensor) and t.requires_grad]


def workbook_backend(gm, example_inputs):
    """The backend: rewrite gm in place, then hand back its forward (everything
    not replaced runs as eager PyTorch). A graph whose gradients are wanted is
    refused before anything is rewritten: the kernels have no backward."""
    wanted = grad_inputs(gm, example_inputs)
    if wanted:
        raise RuntimeError(
            "workbook_backend is for inference: grad mode is on and %d of the graph's inputs require grad (%s%s), "
            "but the week's kernels have no backward, so those gradients would stop at them. Run the compiled "
            "model under torch.no_grad() or torch.inference_mode(), or train it with another backend (README, "
            "\"No backward\")" % (len(wanted), ", ".join(wanted[:3]), ", ..." if len(wanted) > 3 else ""))
    REPORT["attention"] = replace_attention(gm)
    REPORT["softmax"] = replace_softmax(gm)
    REPORT["layer_norm"] = replace_layer_norms(gm)
    gm.graph.lint()  # a node used after it was erased, or an input defined after its use, stops here
    gm.recompile()
    return gm.forward
