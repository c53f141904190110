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
    //@solution
    cg::cluster_group cluster = cg::this_cluster();
    const uint32_t rank = cluster.block_rank();
    for (uint32_t i = threadIdx.x; i < per_cta; i += blockDim.x) hist[i] = 0;
    // Every CTA's bins are zero before any thread of the cluster adds into
    // them: a CTA may start counting while another is still zeroing.
    cluster.sync();
    for_each_key(keys, n, [&](uint32_t k) {
        if (k >= nbins) return;
        const uint32_t owner = k / per_cta;
        // The owner's `hist` in this thread's generic address space: the
        // same offset in another CTA's shared memory (mapa underneath).
        uint32_t *h = cluster.map_shared_rank(hist, (int)owner);
        atomicAdd(h + (k - owner * per_cta), 1u);
    });
    // Every add of the cluster has landed before a CTA reads its bins, and
    // no CTA leaves (its shared memory with it) while others still add into it.
    cluster.sync();
    const uint32_t lo = rank * per_cta;
    for (uint32_t i = threadIdx.x; i < per_cta && lo + i < nbins; i += blockDim.x) {
        const uint32_t v = hist[i];
        if (v) atomicAdd(&bins[lo + i], v);  // other clusters add into the same global bins
    }
    //@starter
    //| /* TODO (README, task 2): cg::this_cluster(); zero this CTA's per_cta
    //|  * bins; cluster.sync(); count every key (for_each_key does the walking):
    //|  * a key k < nbins belongs to CTA k / per_cta of the cluster, at index
    //|  * k % per_cta of its `hist`: cluster.map_shared_rank(hist, owner) is
    //|  * that array, and atomicAdd into it; cluster.sync(); then add each
    //|  * non-zero bin of this CTA to bins[rank * per_cta + i] (atomicAdd: every
    //|  * cluster adds into the same global bins), i < per_cta, rank * per_cta + i < nbins. */
    //| (void)keys, (void)n, (void)bins, (void)nbins, (void)per_cta, (void)hist;
    //@end
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
    //@solution
    if (!p || nbins == 0 || !(cluster == 0 || cluster == 1 || cluster == 2 || cluster == 4 || cluster == 8))
        return CHIST_ERR_ARG;
    int c = cluster ? cluster : 1;
    // ceil in 64 bits: nbins near 2^32 must not wrap
    auto share = [&](int k) { return ((uint64_t)nbins + (uint64_t)k - 1) / (uint64_t)k; };
    if (!cluster)
        while (c < CHIST_MAX_CLUSTER && share(c) * 4 > smem_limit) c *= 2;
    if (share(c) * 4 > smem_limit) return CHIST_ERR_TOO_BIG;
    p->cluster = c;
    p->bins_per_cta = (uint32_t)share(c);
    p->smem_bytes = (size_t)share(c) * 4;
    return CHIST_OK;
    //@starter
    //| /* TODO (README, task 1): refuse (CHIST_ERR_ARG) p NULL, nbins 0, cluster
    //|  * not 0, 1, 2, 4, 8; cluster 0 takes the smallest of 1, 2, 4, 8 whose
    //|  * share ceil(nbins / C) of 4-byte bins fits smem_limit; a share that
    //|  * does not fit (at the cluster asked for, or at 8) is CHIST_ERR_TOO_BIG;
    //|  * fill cluster, bins_per_cta, smem_bytes. Compute the share in 64 bits. */
    //| (void)nbins, (void)cluster, (void)smem_limit, (void)p;
    //| return CHIST_ERR_ARG;
    //@end
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
    //@solution
    // The launch: grid.x a multiple of the cluster size, the cluster's shape
    // an attribute of this launch (not of the kernel: C changes with nbins).
    cudaLaunchConfig_t cfg = {};
    cudaLaunchAttribute attr[1];
    attr[0].id = cudaLaunchAttributeClusterDimension;
    attr[0].val.clusterDim.x = (unsigned)plan.cluster, attr[0].val.clusterDim.y = 1, attr[0].val.clusterDim.z = 1;
    cfg.blockDim = dim3(THREADS);
    cfg.dynamicSmemBytes = plan.smem_bytes;
    cfg.stream = 0;
    cfg.attrs = attr, cfg.numAttrs = 1;
    cfg.gridDim = dim3((unsigned)plan.cluster);
    // As many clusters as can run at once, and no more than the keys keep
    // busy (16 keys a thread at least): each CTA pays for zeroing and
    // writing back its bins once.
    int active = 0;
    if ((e = cudaOccupancyMaxActiveClusters(&active, cluster_hist_kernel, &cfg)) != cudaSuccess) return e;
    if (active < 1) return cudaErrorInvalidClusterSize;  // this cluster cannot be resident on this GPU
    const size_t per_cluster = (size_t)plan.cluster * THREADS * 16;
    size_t want = (n + per_cluster - 1) / per_cluster;
    if (want < 1) want = 1;
    const size_t clusters = want < (size_t)active ? want : (size_t)active;
    cfg.gridDim = dim3((unsigned)(clusters * (size_t)plan.cluster));
    if ((e = cudaMemsetAsync(bins, 0, (size_t)nbins * 4, 0)) != cudaSuccess) return e;
    if (n == 0) return cudaSuccess;
    return cudaLaunchKernelEx(&cfg, cluster_hist_kernel, keys, n, bins, nbins, plan.bins_per_cta);
    //@starter
    //| /* TODO (README, task 2): a cudaLaunchConfig_t with one attribute,
    //|  * cudaLaunchAttributeClusterDimension = { plan.cluster, 1, 1 }, THREADS
    //|  * threads, plan.smem_bytes of dynamic shared memory; grid = clusters x
    //|  * plan.cluster CTAs with clusters from cudaOccupancyMaxActiveClusters
    //|  * (no more than the keys keep busy); zero bins (cudaMemsetAsync), and
    //|  * if n > 0 cudaLaunchKernelEx(&cfg, cluster_hist_kernel, keys, n, bins,
    //|  * nbins, plan.bins_per_cta). */
    //| (void)keys, (void)n, (void)bins, (void)plan;
    //| return cudaSuccess;
    //@end
}
