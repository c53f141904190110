/* views.h — week 05: shapes and strides, on the host (no GPU needed).
 *
 * A tensor is a pointer, a shape and strides (in elements): element
 * (i0, ..., i{n-1}) lives at sum(i_d * stride_d). These functions predict
 * the strides PyTorch and NumPy give; the tests check them by brute force. */
#ifndef VIEWS_H
#define VIEWS_H

#ifdef __cplusplus
extern "C" {
#endif

#define VIEWS_MAX_DIMS 8

/* Row-major (C order) strides of a contiguous tensor of this shape. */
void views_contiguous_strides(int ndim, const long long *shape, long long *strides);

/* The view x.permute(perm): dimension d of the result is dimension perm[d]
 * of x. Returns 0, or -1 (outputs untouched) if perm is not a permutation of
 * 0..ndim-1. Never copies: only shape and strides change. */
int views_permute(int ndim, const long long *shape, const long long *strides, const int *perm,
                  long long *new_shape, long long *new_strides);

/* x.view(new_shape): returns 1 and fills new_strides when the same memory
 * can be read with new_shape (no copy); 0 when a copy is needed (what
 * reshape() would then do); -1 when the element counts differ. A tensor with
 * no elements can always be viewed (contiguous strides). */
int views_strides(int ndim, const long long *shape, const long long *strides, int new_ndim,
                  const long long *new_shape, long long *new_strides);

#ifdef __cplusplus
}
#endif
#endif
