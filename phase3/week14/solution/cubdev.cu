/* cubdev.cu — week 14, exercise 2: CUB's device-wide algorithms from C.
 *
 * Every CUB device algorithm is called twice: first with a null workspace,
 * when it only writes the bytes it needs into temp_storage_bytes; then with
 * a workspace of that size, when it does the work. The caller allocates the
 * workspace once, outside any loop that times or repeats the call (a
 * cudaMalloc per call costs more than a small reduction). These wrappers
 * expose exactly that pattern to C: tmp == NULL asks, tmp != NULL works.
 *
 * CUB returns a cudaError_t from every call (a workspace too small is
 * cudaErrorInvalidValue, a bad launch its launch error): pass it on.
 * Radix sort touches only bits [begin_bit, end_bit): keys known to be below
 * 2^16 sort in two 8-bit passes instead of four. */
#include <cub/cub.cuh>
#include "cubdev.h"

cudaError_t cubdev_sum(void *tmp, size_t *tmp_bytes, const float *x, float *out, int n)
{
    //@solution
    return cub::DeviceReduce::Sum(tmp, *tmp_bytes, x, out, n);
    //@starter
    //| /* TODO: cub::DeviceReduce::Sum with tmp and *tmp_bytes passed straight
    //|  * through (a null tmp is CUB's size query), and its error returned. */
    //| (void)tmp, (void)tmp_bytes, (void)x, (void)out, (void)n;
    //| return cudaErrorNotSupported;
    //@end
}

cudaError_t cubdev_scan(void *tmp, size_t *tmp_bytes, const float *x, float *y, int n)
{
    //@solution
    return cub::DeviceScan::InclusiveSum(tmp, *tmp_bytes, x, y, n);
    //@starter
    //| /* TODO: cub::DeviceScan::InclusiveSum, the same pattern. */
    //| (void)tmp, (void)tmp_bytes, (void)x, (void)y, (void)n;
    //| return cudaErrorNotSupported;
    //@end
}

cudaError_t cubdev_sort_pairs(void *tmp, size_t *tmp_bytes, const unsigned *keys_in, unsigned *keys_out,
                              const unsigned *vals_in, unsigned *vals_out, int n, int end_bit)
{
    //@solution
    return cub::DeviceRadixSort::SortPairs(tmp, *tmp_bytes, keys_in, keys_out, vals_in, vals_out, n, 0, end_bit);
    //@starter
    //| /* TODO: cub::DeviceRadixSort::SortPairs over bits [0, end_bit) only. */
    //| (void)tmp, (void)tmp_bytes, (void)keys_in, (void)keys_out, (void)vals_in, (void)vals_out, (void)n;
    //| (void)end_bit;
    //| return cudaErrorNotSupported;
    //@end
}
