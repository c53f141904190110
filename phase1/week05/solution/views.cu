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
    //@solution
    long long s = 1;
    for (int d = ndim - 1; d >= 0; d--) {
        strides[d] = s;
        s *= shape[d] > 1 ? shape[d] : 1;
    }
    //@starter
    //| /* TODO: the last dimension has stride 1; each earlier one the product
    //|  * of the shapes after it. */
    //| (void)ndim, (void)shape, (void)strides;
    //@end
}

int views_permute(int ndim, const long long *shape, const long long *strides, const int *perm,
                  long long *new_shape, long long *new_strides)
{
    //@solution
    int seen[VIEWS_MAX_DIMS] = { 0 };
    if (ndim < 0 || ndim > VIEWS_MAX_DIMS) return -1;
    for (int d = 0; d < ndim; d++) {
        if (perm[d] < 0 || perm[d] >= ndim || seen[perm[d]]) return -1;
        seen[perm[d]] = 1;
    }
    for (int d = 0; d < ndim; d++) {
        new_shape[d] = shape[perm[d]];
        new_strides[d] = strides[perm[d]];
    }
    return 0;
    //@starter
    //| /* TODO: check perm is a permutation of 0..ndim-1 (else return -1), then
    //|  * new_shape[d] = shape[perm[d]], new_strides[d] = strides[perm[d]]. */
    //| (void)ndim, (void)shape, (void)strides, (void)perm, (void)new_shape, (void)new_strides;
    //| return -1;
    //@end
}

int views_strides(int ndim, const long long *shape, const long long *strides, int new_ndim,
                  const long long *new_shape, long long *new_strides)
{
    //@solution
    long long numel = 1, new_numel = 1;
    for (int d = 0; d < ndim; d++) numel *= shape[d];
    for (int d = 0; d < new_ndim; d++) new_numel *= new_shape[d];
    if (numel != new_numel) return -1;
    if (numel == 0 || ndim == 0) {
        views_contiguous_strides(new_ndim, new_shape, new_strides);
        return 1;
    }
    int view_d = new_ndim - 1;
    long long chunk_base = strides[ndim - 1], tensor_numel = 1, view_numel = 1;
    for (int d = ndim - 1; d >= 0; d--) {
        tensor_numel *= shape[d];
        /* a chunk ends at dimension 0, or where d-1 does not continue it */
        if (d == 0 || (shape[d - 1] != 1 && strides[d - 1] != tensor_numel * chunk_base)) {
            while (view_d >= 0 && (view_numel < tensor_numel || new_shape[view_d] == 1)) {
                new_strides[view_d] = view_numel * chunk_base;
                view_numel *= new_shape[view_d];
                view_d--;
            }
            if (view_numel != tensor_numel) return 0;
            if (d > 0) {
                chunk_base = strides[d - 1];
                tensor_numel = 1;
                view_numel = 1;
            }
        }
    }
    return view_d == -1 ? 1 : 0;
    //@starter
    //| /* TODO: -1 if the element counts differ; else walk both shapes from the
    //|  * last dimension, chunk by chunk (see the hints), and return 1 with the
    //|  * strides, or 0 when a copy is needed. */
    //| (void)ndim, (void)shape, (void)strides, (void)new_ndim, (void)new_shape, (void)new_strides;
    //| return -1;
    //@end
}
