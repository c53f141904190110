"""Week 63: data-parallel training with a DDP of your own.

MiniDDP wraps a model the way torch.nn.parallel.DistributedDataParallel
does, and does DDP's one job: after backward, every rank holds the average
of all ranks' gradients, computed while backward is still running.

    model = MiniDDP(make_model().to(dev), bucket_cap_mb=2)
    loss = loss_fn(model(x), y)
    loss.backward()              # your hooks launch the buckets' all-reduces
    model.finish_grad_sync()     # wait for them; p.grad is the average
    opt.step()

Three parts are yours (README, "Tasks"):
  1. plan_buckets: which parameters share a bucket (reverse registration
     order, up to the cap in bytes);
  2. the constructor's broadcast: every rank starts from rank 0's weights;
  3. _grad_ready and finish_grad_sync: copy each gradient into its bucket
     as autograd finishes it, all-reduce a bucket asynchronously the moment
     its last gradient lands (buckets in order), wait before the optimizer.

Use torch.distributed's own calls (dist.broadcast, dist.all_reduce with
async_op=True): the test watches dist.all_reduce to see what was sent,
when, and how.
"""

import functools

import torch
import torch.distributed as dist


def plan_buckets(sizes, cap_bytes):
    """The buckets of parameters whose gradients are `sizes` bytes each, in
    registration order (model.parameters()). Returns a list of buckets, each
    a list of indices into `sizes`: bucket 0 is all-reduced first.

    Gradients come out of backward roughly in reverse registration order (the
    last layer's first), so walk the parameters from the last to the first.
    A parameter joins the current bucket unless the bucket already holds one
    and would then pass cap_bytes; then the bucket is closed and the parameter
    starts the next one. A parameter bigger than the cap is alone in its
    bucket. No parameters: no buckets."""
    if cap_bytes <= 0:
        raise ValueError("plan_buckets: cap_bytes must be positive, not %r" % (cap_bytes,))
    # TODO: walk i from len(sizes) - 1 down to 0; keep the current bucket and the bytes
    # it holds; close it when it holds a parameter and sizes[i] would take it past
    # cap_bytes. README, "Buckets".
    return []


class MiniDDP(torch.nn.Module):
    """A data-parallel wrapper: forward is the module's, backward leaves the
    average of every rank's gradients in p.grad once finish_grad_sync()
    returns. Every trainable parameter must get a gradient in every step (no
    unused parameters), and all of them share one dtype and one device."""

    def __init__(self, module, bucket_cap_mb=25.0, group=None):
        super().__init__()
        self.module = module
        self.group = group
        self.world = dist.get_world_size(group)
        self.params = [p for p in module.parameters() if p.requires_grad]
        if len({(p.dtype, p.device) for p in self.params}) > 1:
            raise ValueError("MiniDDP: every trainable parameter must have one dtype and one device")

        # 1. Every rank starts from rank 0's weights (and buffers).
        # TODO: dist.broadcast every parameter and buffer from rank 0 (under torch.no_grad()).
        # README, "Same start".
        pass

        # 2. The buckets, a flat buffer each, and where each gradient sits in it.
        sizes = [p.numel() * p.element_size() for p in self.params]
        self.buckets = plan_buckets(sizes, int(bucket_cap_mb * 1024 * 1024))
        self.flat = []      # bucket b's buffer
        self.slot = {}      # parameter index -> (bucket, offset, numel)
        for b, idx in enumerate(self.buckets):
            off = 0
            for i in idx:
                self.slot[i] = (b, off, self.params[i].numel())
                off += self.params[i].numel()
            p0 = self.params[idx[0]]
            self.flat.append(torch.empty(off, dtype=p0.dtype, device=p0.device))
        self._reset()

        # 3. A hook a parameter: autograd calls it once p.grad holds this step's gradient.
        for i, p in enumerate(self.params):
            p.register_post_accumulate_grad_hook(functools.partial(self._grad_ready, i))

    def _reset(self):
        self.pending = [len(idx) for idx in self.buckets]  # gradients each bucket still waits for
        self.works = [None] * len(self.buckets)            # each bucket's all-reduce, once launched
        self.next = 0                                      # the next bucket to launch

    def forward(self, *args, **kwargs):
        return self.module(*args, **kwargs)

    def _grad_ready(self, i, p):
        """p (parameter i) has its gradient: into its bucket; launch every
        bucket that is now full, in order."""
        # TODO: copy p.grad into bucket b's slot (self.slot[i] = (b, offset, numel)); count
        # it off (self.pending[b]); while the bucket self.next has no gradient pending,
        # divide its buffer by self.world, launch dist.all_reduce(buf, async_op=True), keep the
        # work in self.works and move self.next on. README, "Overlap".
        pass

    def finish_grad_sync(self):
        """Wait for every bucket's all-reduce and put the averages back in
        p.grad. Call after backward, before the optimizer step."""
        # TODO: every bucket launched? wait() on each work, copy each slot back into its
        # p.grad, then self._reset() for the next step. README, "Overlap".
        self._reset()
