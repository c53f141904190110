"""Week 45, exercise 2: a function with no graph breaks.

pool(x, w, limit) is a small piece of a model: rescale x when its largest
magnitude passes `limit`, project it (x @ w), squash it (tanh), replace any
NaN by 0, and average over the sequence dimension.

    x: (B, T, D) FP32, w: (D, E) FP32, limit: a Python float > 0
    returns (B, E): the mean over T of nan_to_num(tanh(x' @ w)), where
    x' = x * (limit / max|x|) if max|x| > limit, else x.

As given (the starter), torch.compile breaks its graph three times: the
largest magnitude is read back to Python (float(...)), a print, and a Python
`if` on a tensor. Rewrite it so that torch._dynamo.explain finds one graph
and no break, and it returns the same values as before on every input (the
test compares it with the original, including inputs where the rescale does
and does not happen, and NaN). README, "Graph breaks".
"""

import torch


def pool(x, w, limit):
    #@solution
    peak = x.abs().amax()                        # stays a tensor: no read back to Python
    x = torch.where(peak > limit, x * (limit / peak), x)   # both branches computed, one kept
    h = torch.tanh(x @ w)
    h = torch.nan_to_num(h, nan=0.0)             # h is a tanh (never +-inf): only NaN changes, no `if` needed
    return h.mean(dim=1)
    #@starter
    #| # TODO: three graph breaks to remove (README, "Graph breaks"); the values must not change.
    #| peak = float(x.abs().amax())
    #| if peak > limit:
    #|     x = x * (limit / peak)
    #| h = torch.tanh(x @ w)
    #| print("pool: peak", peak)
    #| if torch.isnan(h).any():
    #|     h = torch.nan_to_num(h, nan=0.0)
    #| return h.mean(dim=1)
    #@end
