// cluster_hist.cu — week 56: a histogram counted in a thread-block cluster's
// distributed shared memory. Each CTA of a cluster of C holds a C-th of the
// bins in its shared memory; every thread adds each key into the shared
// memory of the CTA that owns its bin, wherever in the cluster that is
// (cooperative_groups' map_shared_rank); cluster barriers order the zeroing,
// the counting and the write-back; each CTA adds its bins to the global
// histogram at the end.
//
// sm_90a code (week.txt: nvflags -gencode=arch=compute_90a,code=sm_90a):
// clusters exist from compute capability 9.0.
#include <cooperative_groups.h>
#include <cuda_runtime.h>
#include <stdint.h>

#include "cluster_hist.h"

namespace cg = cooperative_groups;

namespace {

constexpr int THREADS = 1024;  // one CTA a cluster rank; at 227 KiB of bins, one CTA an SM

// The threads of the whole grid walk the keys: the first few one at a time
// up to a 16-byte boundary, then 16 bytes (4 keys) a load, then the last
// few one at a time. add(k) counts one key.
template <typename Add>
__device__ __forceinline__ void for_each_key(const uint32_t *__restrict__ keys, size_t n, Add add)
{
    const size_t tid = (size_t)blockIdx.x * blockDim.x + threadIdx.x, stride = (size_t)gridDim.x * blockDim.x;
    size_t head = ((16 - ((uintptr_t)keys & 15)) & 15) / 4;  // keys before the first 16-byte boundary
    if (head > n) head = n;
    if (tid < head) add(keys[tid]);
    const size_t n4 = (n - head) / 4;
    const uint4 *k4 = reinterpret_cast<const uint4 *>(keys + head);
    for (size_t i = tid; i < n4; i += stride) {
        const uint4 v = k4[i];
        add(v.x), add(v.y), add(v.z), add(v.w);
    }
    const size_t done = head + 4 * n4;  // at most 3 keys left
    if (tid < n - done) add(keys[done + tid]);
}

// Launched in clusters of C = gridDim.x's cluster dimension; per_cta bins a
// CTA, in its dynamic shared memory.
__global__ void __launch_bounds__(THREADS) cluster_hist_kernel(const uint32_t *__restrict__ keys, size_t n,
                                                               uint32_t *__restrict__ bins, uint32_t nbins,
                                                               uint32_t per_cta)
{
#if defined(__CUDA_ARCH__) && __CUDA_ARCH__ < 900
    __trap();  // no clusters before Hopper: the tests skip before any launch there
#else
    extern __shared__ uint32_t hist[];  // this CTA's bins: rank * per_cta .. + per_cta - 1
    /* TODO (README, task 2): cg::this_cluster(); zero this CTA's per_cta
     * bins; cluster.sync(); count every key (for_each_key does the walking):
     * a key k < nbins belongs to CTA k / per_cta of the cluster, at index
     * k % per_cta of its `hist`: cluster.map_shared_rank(hist, owner) is
     * that array, and atomicAdd into it; cluster.sync(); then add each
     * non-zero bin of this CTA to bins[rank * per_cta + i] (atomicAdd: every
     * cluster adds into the same global bins), i < per_cta, rank * per_cta + i < nbins. */
    (void)keys, (void)n, (void)bins, (void)nbins, (void)per_cta, (void)hist;
#endif
}

// The device's shared-memory limit a CTA can opt in to, once per device,
// with the kernel's own limit raised to it.
cudaError_t device_smem_limit(size_t *limit)
{
    static int dev = -1;
    static size_t lim = 0;
    int d, v = 0;
    cudaError_t e = cudaGetDevice(&d);
    if (e != cudaSuccess) return e;
    if (d != dev) {
        if ((e = cudaDeviceGetAttribute(&v, cudaDevAttrMaxSharedMemoryPerBlockOptin, d)) != cudaSuccess) return e;
        if ((e = cudaFuncSetAttribute(cluster_hist_kernel, cudaFuncAttributeMaxDynamicSharedMemorySize, v)) !=
            cudaSuccess)
            return e;
        dev = d, lim = (size_t)v;
    }
    *limit = lim;
    return cudaSuccess;
}

}  // namespace

extern "C" chist_status cluster_hist_plan(uint32_t nbins, int cluster, size_t smem_limit, chist_plan *p)
{
    /* TODO (README, task 1): refuse (CHIST_ERR_ARG) p NULL, nbins 0, cluster
     * not 0, 1, 2, 4, 8; cluster 0 takes the smallest of 1, 2, 4, 8 whose
     * share ceil(nbins / C) of 4-byte bins fits smem_limit; a share that
     * does not fit (at the cluster asked for, or at 8) is CHIST_ERR_TOO_BIG;
     * fill cluster, bins_per_cta, smem_bytes. Compute the share in 64 bits. */
    (void)nbins, (void)cluster, (void)smem_limit, (void)p;
    return CHIST_ERR_ARG;
}

extern "C" cudaError_t cluster_hist(const uint32_t *keys, size_t n, uint32_t *bins, uint32_t nbins, int cluster)
{
    if (nbins == 0) return cudaSuccess;
    if (!(cluster == 0 || cluster == 1 || cluster == 2 || cluster == 4 || cluster == 8)) return cudaErrorInvalidValue;
    size_t limit = 0;
    cudaError_t e = device_smem_limit(&limit);
    if (e != cudaSuccess) return e;
    chist_plan plan;
    if (cluster_hist_plan(nbins, cluster, limit, &plan) != CHIST_OK) return cudaErrorInvalidValue;
    /* TODO (README, task 2): a cudaLaunchConfig_t with one attribute,
     * cudaLaunchAttributeClusterDimension = { plan.cluster, 1, 1 }, THREADS
     * threads, plan.smem_bytes of dynamic shared memory; grid = clusters x
     * plan.cluster CTAs with clusters from cudaOccupancyMaxActiveClusters
     * (no more than the keys keep busy); zero bins (cudaMemsetAsync), and
     * if n > 0 cudaLaunchKernelEx(&cfg, cluster_hist_kernel, keys, n, bins,
     * nbins, plan.bins_per_cta). */
    (void)keys, (void)n, (void)bins, (void)plan;
    return cudaSuccess;
}
