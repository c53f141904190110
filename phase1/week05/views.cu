/* views.cu — week 05, exercise 2: shapes and strides on the host.
 *
 * permute never copies: it reorders shape and strides. view is free only
 * when the new shape can be read from the same memory with some strides:
 * walk the old shape from the last dimension, grouping dimensions into
 * contiguous chunks (stride[d] == stride[d+1] * shape[d+1]); every chunk must
 * be matched by a run of new dimensions with the same element count, which
 * then get strides that step through the chunk. This is PyTorch's
 * computeStride; the test checks it against brute force. */
#include "views.h"

void views_contiguous_strides(int ndim, const long long *shape, long long *strides)
{
    /* TODO: the last dimension has stride 1; each earlier one the product
     * of the shapes after it. */
    (void)ndim, (void)shape, (void)strides;
}

int views_permute(int ndim, const long long *shape, const long long *strides, const int *perm,
                  long long *new_shape, long long *new_strides)
{
    /* TODO: check perm is a permutation of 0..ndim-1 (else return -1), then
     * new_shape[d] = shape[perm[d]], new_strides[d] = strides[perm[d]]. */
    (void)ndim, (void)shape, (void)strides, (void)perm, (void)new_shape, (void)new_strides;
    return -1;
}

int views_strides(int ndim, const long long *shape, const long long *strides, int new_ndim,
                  const long long *new_shape, long long *new_strides)
{
    /* TODO: -1 if the element counts differ; else walk both shapes from the
     * last dimension, chunk by chunk (see the hints), and return 1 with the
     * strides, or 0 when a copy is needed. */
    (void)ndim, (void)shape, (void)strides, (void)new_ndim, (void)new_shape, (void)new_strides;
    return -1;
}
