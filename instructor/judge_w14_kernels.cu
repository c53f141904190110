// judge_w14_kernels.cu — week 14's judge kernels (judge_w14_kernels.h):
// w14.sort-speed's inputs made from a seed, a timed output checked in full
// (its keys re-derived from the seed, never read from the buffers the
// runner saw), and CUB's SortPairs for the judge and its yard runner.
#include <cub/cub.cuh>

#include "judge_w14_kernels.h"
#include "wb_hd.h"

namespace {

// The values' permutation of [0, n): v = ((i * mul) ^ mask) & (n - 1), and
// its inverse i = ((v ^ mask) * inv) & (n - 1), inv = mul^-1 mod 2^32.
struct vperm {
    unsigned mul, inv, mask, low;
};

vperm vperm_of(unsigned long long seed, size_t n)
{
    vperm p;
    p.mul = (unsigned)wb_hash_bits(seed, 0) | 1u;
    p.mask = (unsigned)wb_hash_bits(seed, 1);
    p.low = (unsigned)(n - 1);
    unsigned x = p.mul; // Newton: each step doubles the correct low bits (3 to start)
    for (int k = 0; k < 5; k++) x *= 2u - p.mul * x;
    p.inv = x;
    return p;
}

bool pow2(size_t n) { return n && n <= (1ull << 31) && (n & (n - 1)) == 0; }

unsigned grid(size_t n)
{
    size_t b = (n + 255) / 256;
    return (unsigned)(b < 8192 ? (b ? b : 1) : 8192);
}

__device__ unsigned key_at(unsigned long long seed, size_t i) { return (unsigned)(wb_hash_bits(seed, i) >> 48); }

__global__ void keys_k(unsigned *d, size_t n, unsigned long long seed)
{
    for (size_t i = blockIdx.x * (size_t)blockDim.x + threadIdx.x; i < n; i += (size_t)gridDim.x * blockDim.x)
        d[i] = key_at(seed, i);
}

__global__ void vals_k(unsigned *d, size_t n, vperm p)
{
    for (size_t i = blockIdx.x * (size_t)blockDim.x + threadIdx.x; i < n; i += (size_t)gridDim.x * blockDim.x)
        d[i] = (((unsigned)i * p.mul) ^ p.mask) & p.low;
}

__global__ void check_k(const unsigned *ko, const unsigned *vo, size_t n, unsigned long long sk, vperm p,
                        unsigned long long *bad)
{
    for (size_t i = blockIdx.x * (size_t)blockDim.x + threadIdx.x; i < n; i += (size_t)gridDim.x * blockDim.x) {
        unsigned k = ko[i], v = vo[i];
        bool wrong = v >= n;
        unsigned at = ((v ^ p.mask) * p.inv) & p.low;
        if (!wrong) wrong = k != key_at(sk, at);
        if (!wrong && i > 0) { // the pair before: (key, position) smaller (a wrong one is counted at its own place)
            unsigned pk = ko[i - 1], pv = vo[i - 1];
            if (pv < n) {
                unsigned pat = ((pv ^ p.mask) * p.inv) & p.low;
                wrong = pk > k || (pk == k && pat >= at);
            }
        }
        if (wrong) {
            atomicAdd(&bad[0], 1ull);
            atomicMin(&bad[1], (unsigned long long)i);
        }
    }
}

__global__ void gather_k(const unsigned *ko, const unsigned *vo, size_t n, const unsigned long long *idx, int m,
                         unsigned *dst)
{
    int j = blockIdx.x * blockDim.x + threadIdx.x;
    if (j < m) {
        unsigned long long i = idx[j];
        dst[j] = i < n ? ko[i] : i < 2 * n ? vo[i - n] : 0xffffffffu;
    }
}

} // namespace

extern "C" cudaError_t jd_w14_sort_keys(unsigned *d, size_t n, unsigned long long seed, cudaStream_t s)
{
    if (!n) return cudaSuccess;
    keys_k<<<grid(n), 256, 0, s>>>(d, n, seed);
    return cudaGetLastError();
}

extern "C" cudaError_t jd_w14_sort_vals(unsigned *d, size_t n, unsigned long long seed, cudaStream_t s)
{
    if (!pow2(n)) return cudaErrorInvalidValue;
    vals_k<<<grid(n), 256, 0, s>>>(d, n, vperm_of(seed, n));
    return cudaGetLastError();
}

extern "C" cudaError_t jd_w14_sort_check(const unsigned *ko, const unsigned *vo, size_t n, unsigned long long sk,
                                         unsigned long long sv, unsigned long long *bad, cudaStream_t s)
{
    if (!pow2(n)) return cudaErrorInvalidValue;
    unsigned long long init[2] = { 0, ~0ull };
    cudaError_t e = cudaMemcpyAsync(bad, init, sizeof init, cudaMemcpyHostToDevice, s);
    if (e != cudaSuccess) return e;
    check_k<<<grid(n), 256, 0, s>>>(ko, vo, n, sk, vperm_of(sv, n), bad);
    return cudaGetLastError();
}

extern "C" cudaError_t jd_w14_cub_sort_pairs(void *tmp, size_t *bytes, const unsigned *keys_in, unsigned *keys_out,
                                             const unsigned *vals_in, unsigned *vals_out, int n, int end_bit,
                                             cudaStream_t s)
{
    return cub::DeviceRadixSort::SortPairs(tmp, *bytes, keys_in, keys_out, vals_in, vals_out, n, 0, end_bit, s);
}

extern "C" cudaError_t jd_w14_gather_pairs(const unsigned *ko, const unsigned *vo, size_t n,
                                           const unsigned long long *idx, int m, unsigned *dst, cudaStream_t s)
{
    if (m <= 0) return cudaSuccess;
    gather_k<<<(m + 255) / 256, 256, 0, s>>>(ko, vo, n, idx, m, dst);
    return cudaGetLastError();
}
