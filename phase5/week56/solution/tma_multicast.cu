// tma_multicast.cu — week 56: one matrix copied `copies` times by a cluster
// of `copies` CTAs that share every box. CTA r of the cluster loads the r-th
// slice of each 128 x 32 box with a TMA load multicast to the whole cluster,
// so the box is read from global memory once and lands, at the same offset,
// in the shared memory of every CTA; each CTA's own mbarrier counts all the
// box's bytes, and each CTA stores its own copy with TMA. A stage is
// refilled only once every CTA of the cluster has finished reading it: each
// CTA arrives on the `empty` barrier of every CTA of the cluster (a remote
// mbarrier arrival), and each CTA waits on its own before loading its slice.
//
// sm_90a code (week.txt: nvflags -gencode=arch=compute_90a,code=sm_90a):
// clusters, TMA and multicast need compute capability 9.0.
#include <cooperative_groups.h>
#include <cuda.h>          // CUtensorMap and its enums: types only, nothing links libcuda
#include <cudaTypedefs.h>  // PFN_cuTensorMapEncodeTiled_v12000
#include <cuda_runtime.h>
#include <limits.h>
#include <stdint.h>

#include "tma_box.h"  // week 53's tensor-map planner
#include "tma_ptx.h"  // week 53's PTX wrappers and encode_tiled_fn
#include "tma_multicast.h"

namespace cg = cooperative_groups;

namespace {

constexpr int BOX_COLS = 32;   // 128 bytes: the 128B swizzle's span
constexpr int BOX_ROWS = 128;  // 16 KiB a box; a slice is 128 / copies rows (64 or 32: whole 8-row swizzle groups)
constexpr int SWIZZLE = 128;
constexpr int STAGES = 4;
constexpr unsigned BOX_BYTES = BOX_COLS * BOX_ROWS * 4;
constexpr unsigned SMEM_ALIGN = 1024;
constexpr size_t SMEM_BYTES = STAGES * BOX_BYTES + SMEM_ALIGN;

// ---------------------------------------------------------------- the PTX (given: read each one)
// Week 53's wrappers (mbar_init, fence_mbar_init, fence_proxy_async_smem,
// mbar_arrive_expect_tx, mbar_wait, tma_load_2d, bulk_commit, bulk_wait_read,
// bulk_wait, prefetch_map, smem_u32) are in common/include/tma_ptx.h; the
// cluster's own are here.

// Arrive once on the mbarrier at the same offset as `bar` in the shared
// memory of CTA `cta` of this cluster (this CTA's own when cta is its rank):
// mapa turns the local address into that CTA's address in the cluster's
// shared window. The default semantics (release at CTA scope), as CUTLASS's
// ClusterBarrier::arrive: what the arrival publishes is that this CTA's TMA
// store has read the stage (bulk_wait_read, before it), not data written by
// ordinary stores; .release.cluster would put a MEMBAR.ALL.GPU before every
// arrival (seen in the SASS).
[[maybe_unused]] __device__ __forceinline__ void mbar_arrive_cluster(uint32_t bar, uint32_t cta)
{
    asm volatile("{\n\t.reg .b32 remote;\n\t"
                 "mapa.shared::cluster.u32 remote, %0, %1;\n\t"
                 "mbarrier.arrive.shared::cluster.b64 _, [remote];\n\t}"
                 ::"r"(bar), "r"(cta)
                 : "memory");
}

// The same load, delivered to every CTA of the cluster whose bit is set in
// `mask` (bit r: rank r), at the same offset `dst` in each one's shared
// memory, its bytes counted on the mbarrier at offset `bar` in each of them.
[[maybe_unused]] __device__ __forceinline__ void tma_load_2d_multicast(uint32_t dst, const CUtensorMap *map, uint32_t bar, int x,
                                                      int y, uint16_t mask)
{
    asm volatile("cp.async.bulk.tensor.2d.shared::cluster.global.mbarrier::complete_tx::bytes.multicast::cluster"
                 " [%0], [%1, {%3, %4}], [%2], %5;"
                 ::"r"(dst), "l"(reinterpret_cast<uint64_t>(map)), "r"(bar), "r"(x), "r"(y), "h"(mask)
                 : "memory");
}

// A TMA store of the box at `src` to (x, y, z) of a 3-D map (z: the copy).
[[maybe_unused]] __device__ __forceinline__ void tma_store_3d(const CUtensorMap *map, uint32_t src, int x, int y, int z)
{
    asm volatile("cp.async.bulk.tensor.3d.global.shared::cta.bulk_group [%0, {%2, %3, %4}], [%1];"
                 ::"l"(reinterpret_cast<uint64_t>(map)), "r"(src), "r"(x), "r"(y), "r"(z)
                 : "memory");
}

// ---------------------------------------------------------------- the kernel

// Launched in clusters of `copies` CTAs (1-D). Cluster q = blockIdx.x /
// copies handles boxes q, q + clusters, ... (row-major over tiles_x boxes
// across); CTA `rank` of it stores copy `rank` of each. MC: the box's rows
// are loaded in `copies` slices, slice r by CTA r, multicast to all; without
// MC every CTA loads the whole box itself (src_map's box is 128 rows then,
// 128 / copies with MC). 32 threads a CTA: thread 0 works, all 32 meet at
// the cluster barriers.
template <bool MC>
__global__ void __launch_bounds__(32) tma_multicast_kernel(const __grid_constant__ CUtensorMap src_map,
                                                           const __grid_constant__ CUtensorMap dst_map, long long tiles_x,
                                                           long long tiles, int copies)
{
#if !defined(__CUDA_ARCH_FEAT_SM90_ALL)
    // Any pass that is not sm_90a (ARCH=sm_80, or the Makefile's plain sm_90
    // pass, where ptxas warns that multicast is meant for sm_90a) has a trap
    // here; the tests skip before any launch off compute capability 9.0.
    __trap();
#else
    // Static shared memory: the same offsets in every CTA of the cluster,
    // which is what multicast and mapa rely on.
    __shared__ __align__(8) uint64_t full[STAGES];   // "box k's bytes are all here", one arrival (own expect_tx)
    __shared__ __align__(8) uint64_t empty[STAGES];  // "every CTA of the cluster has stored its copy", `copies` arrivals
    extern __shared__ unsigned char dyn[];
    //@solution
    cg::cluster_group cluster = cg::this_cluster();
    const uint32_t rank = cluster.block_rank();
    const long long q = blockIdx.x / copies, nq = gridDim.x / copies;
    const long long count = q < tiles ? (tiles - q + nq - 1) / nq : 0;  // the same in every CTA of a cluster
    const uint32_t base = (smem_u32(dyn) + SMEM_ALIGN - 1) & ~(SMEM_ALIGN - 1);
    if (threadIdx.x == 0) {
        prefetch_map(&src_map);
        prefetch_map(&dst_map);
        for (int s = 0; s < STAGES; s++) mbar_init(smem_u32(&full[s]), 1), mbar_init(smem_u32(&empty[s]), copies);
        fence_mbar_init();
        fence_proxy_async_smem();
    }
    // No CTA multicasts into another, or arrives on its barriers, before
    // that CTA has initialised them.
    cluster.sync();
    if (threadIdx.x == 0 && count > 0) {
        const int slice_rows = BOX_ROWS / copies;
        const uint32_t slice_bytes = (uint32_t)slice_rows * BOX_COLS * 4;
        const uint16_t all = (uint16_t)((1u << copies) - 1);
        auto load = [&](long long k) {  // box k of this cluster into stage k % STAGES
            const long long t = q + k * nq;
            const int s = (int)(k % STAGES), x = (int)(t % tiles_x) * BOX_COLS, y = (int)(t / tiles_x) * BOX_ROWS;
            const uint32_t bar = smem_u32(&full[s]);
            // The whole box, whoever loads it: with MC the other CTAs' slices
            // count on this barrier too (and may land before this expect_tx:
            // the count goes below zero and the phase still waits for the arrival).
            mbar_arrive_expect_tx(bar, BOX_BYTES);
            if (MC)
                tma_load_2d_multicast(base + s * BOX_BYTES + rank * slice_bytes, &src_map, bar, x,
                                      y + (int)rank * slice_rows, all);
            else
                tma_load_2d(base + s * BOX_BYTES, &src_map, bar, x, y);
        };
        for (long long k = 0; k < count && k < STAGES; k++) load(k);
        for (long long k = 0; k < count; k++) {
            const int s = (int)(k % STAGES);
            const long long t = q + k * nq;
            mbar_wait(smem_u32(&full[s]), (uint32_t)((k / STAGES) & 1));
            fence_proxy_async_smem();
            tma_store_3d(&dst_map, base + s * BOX_BYTES, (int)(t % tiles_x) * BOX_COLS, (int)(t / tiles_x) * BOX_ROWS,
                         (int)rank);
            bulk_commit();
            // Box k - 1's store has read its stage: with MC, tell every CTA
            // (their slices refill it in all of us), wait until all have
            // said the same to us, and load our slice of box k - 1 + STAGES.
            const long long j = k - 1;
            if (j >= 0 && j + STAGES < count) {
                bulk_wait_read<1>();
                if (MC) {
                    const int sj = (int)(j % STAGES);
                    for (int c = 0; c < copies; c++) mbar_arrive_cluster(smem_u32(&empty[sj]), (uint32_t)c);
                    mbar_wait(smem_u32(&empty[sj]), (uint32_t)((j / STAGES) & 1));
                }
                load(j + STAGES);
            }
        }
        bulk_wait<0>();
    }
    __syncwarp();
    // Nothing still on its way into a CTA that has left: every CTA waits for
    // the whole cluster before its shared memory goes.
    cluster.sync();
    //@starter
    //| /* TODO (README, task 3): rank = cluster.block_rank(); cluster q =
    //|  * blockIdx.x / copies takes boxes q, q + gridDim.x / copies, ...; thread 0
    //|  * inits full[s] (1 arrival) and empty[s] (`copies` arrivals), fences;
    //|  * cluster.sync() (all 32 threads) before any CTA touches another's
    //|  * barriers. Thread 0: load(k) = arrive.expect_tx(full[s], BOX_BYTES) and,
    //|  * with MC, a multicast load of slice `rank` (rows 128 / copies, at
    //|  * base + s * BOX_BYTES + rank * slice bytes, mask all CTAs), else the whole box.
    //|  * Fill STAGES; per box k: wait full[s] (parity (k / STAGES) & 1), fence,
    //|  * tma_store_3d(x, y, rank), commit; if box k - 1 + STAGES exists:
    //|  * bulk_wait_read<1>(), with MC arrive on empty[(k-1) % STAGES] of every
    //|  * CTA and wait on your own (parity ((k-1) / STAGES) & 1), then load it.
    //|  * bulk_wait<0>(); __syncwarp(); cluster.sync() before leaving. */
    //| (void)src_map, (void)dst_map, (void)tiles_x, (void)tiles, (void)copies, (void)full, (void)empty, (void)dyn;
    //@end
#endif
}

// The last cols % 4 columns of every row of every copy, by plain loads and
// stores of bits (TMA does not clip a store below 16 bytes: week 53).
__global__ void tail_copies_kernel(const uint32_t *__restrict__ src, size_t ld_src, uint32_t *__restrict__ dst,
                                   size_t ld_dst, size_t rows, size_t c0, size_t nt, int copies)
{
    const size_t per = rows * nt, n = per * (size_t)copies;
    for (size_t i = (size_t)blockIdx.x * blockDim.x + threadIdx.x; i < n; i += (size_t)gridDim.x * blockDim.x) {
        const size_t k = i / per, r = i % per / nt, c = c0 + i % nt;
        dst[(k * rows + r) * ld_dst + c] = src[r * ld_src + c];
    }
}

// ---------------------------------------------------------------- the host (given)

// Both kernels may have SMEM_BYTES of dynamic shared memory, once per device.
cudaError_t raise_smem_limits()
{
    static int dev = -1;
    int d;
    cudaError_t e = cudaGetDevice(&d);
    if (e != cudaSuccess || d == dev) return e;
    if ((e = cudaFuncSetAttribute(tma_multicast_kernel<true>, cudaFuncAttributeMaxDynamicSharedMemorySize,
                                  (int)SMEM_BYTES)) != cudaSuccess ||
        (e = cudaFuncSetAttribute(tma_multicast_kernel<false>, cudaFuncAttributeMaxDynamicSharedMemorySize,
                                  (int)SMEM_BYTES)) != cudaSuccess)
        return e;
    dev = d;
    return cudaSuccess;
}

}  // namespace

extern "C" cudaError_t tma_multicast_f32(const float *src, size_t ld_src, float *dst, size_t ld_dst, size_t rows,
                                         size_t cols, int copies, int multicast)
{
    if (copies != 2 && copies != 4) return cudaErrorInvalidValue;
    if (rows == 0 || cols == 0) return cudaSuccess;
    if (rows > INT_MAX || cols > INT_MAX) return cudaErrorInvalidValue;  // TMA's coordinates are 32-bit signed
    const unsigned src_rows = multicast ? BOX_ROWS / (unsigned)copies : BOX_ROWS;
    tma_plan ps, pd;
    if (tma_box_plan(src, rows, cols, ld_src, 4, src_rows, BOX_COLS, SWIZZLE, &ps) != TMA_OK ||
        tma_box_plan(dst, rows, cols, ld_dst, 4, BOX_ROWS, BOX_COLS, SWIZZLE, &pd) != TMA_OK)
        return cudaErrorInvalidValue;
    // The third dimension of dst (the copy) strides rows * ld_dst floats:
    // below 2^40 bytes, as every TMA stride (ld_dst < 2^38 here already).
    if ((unsigned __int128)rows * ld_dst * 4 >= ((unsigned __int128)1 << 40)) return cudaErrorInvalidValue;

    const size_t cols4 = cols & ~(size_t)3, nt = cols - cols4;
    cudaError_t e = cudaSuccess;
    CUtensorMap smap, dmap;
    long long tiles_x = 0, tiles = 0;
    cudaLaunchConfig_t cfg = {};
    cudaLaunchAttribute attr[1];
    if (cols4) {
        tma_box_plan(src, rows, cols4, ld_src, 4, src_rows, BOX_COLS, SWIZZLE, &ps); /* valid: cols4 <= cols */
        PFN_cuTensorMapEncodeTiled_v12000 encode = encode_tiled_fn(&e);
        if (!encode) return e;
        if (encode(&smap, CU_TENSOR_MAP_DATA_TYPE_FLOAT32, 2, const_cast<float *>(src), ps.global_dim, ps.global_stride,
                   ps.box_dim, ps.element_stride, CU_TENSOR_MAP_INTERLEAVE_NONE, CU_TENSOR_MAP_SWIZZLE_128B,
                   CU_TENSOR_MAP_L2_PROMOTION_L2_256B, CU_TENSOR_MAP_FLOAT_OOB_FILL_NONE) != CUDA_SUCCESS)
            return cudaErrorInvalidValue;
        // dst as a 3-D tensor { cols4, rows, copies }: a box stored at row y
        // of copy k is clipped at that copy's last row, not the next copy's.
        const cuuint64_t ddim[3] = { cols4, rows, (cuuint64_t)copies };
        const cuuint64_t dstride[2] = { ld_dst * 4, rows * ld_dst * 4 };
        const cuuint32_t dbox[3] = { BOX_COLS, BOX_ROWS, 1 }, destride[3] = { 1, 1, 1 };
        if (encode(&dmap, CU_TENSOR_MAP_DATA_TYPE_FLOAT32, 3, dst, ddim, dstride, dbox, destride,
                   CU_TENSOR_MAP_INTERLEAVE_NONE, CU_TENSOR_MAP_SWIZZLE_128B, CU_TENSOR_MAP_L2_PROMOTION_L2_256B,
                   CU_TENSOR_MAP_FLOAT_OOB_FILL_NONE) != CUDA_SUCCESS)
            return cudaErrorInvalidValue;
        tiles_x = (long long)ps.boxes[0], tiles = tiles_x * (long long)((rows + BOX_ROWS - 1) / BOX_ROWS);
        if ((e = raise_smem_limits()) != cudaSuccess) return e;
        // One cluster of `copies` CTAs per box in flight: as many clusters as
        // can be resident (cudaOccupancyMaxActiveClusters), no more than boxes.
        attr[0].id = cudaLaunchAttributeClusterDimension;
        attr[0].val.clusterDim.x = (unsigned)copies, attr[0].val.clusterDim.y = 1, attr[0].val.clusterDim.z = 1;
        cfg.blockDim = dim3(32);
        cfg.dynamicSmemBytes = SMEM_BYTES;
        cfg.stream = 0;
        cfg.attrs = attr, cfg.numAttrs = 1;
        cfg.gridDim = dim3((unsigned)copies);
        int active = 0;
        e = multicast ? cudaOccupancyMaxActiveClusters(&active, tma_multicast_kernel<true>, &cfg)
                      : cudaOccupancyMaxActiveClusters(&active, tma_multicast_kernel<false>, &cfg);
        if (e != cudaSuccess) return e;
        if (active < 1) return cudaErrorInvalidClusterSize;
        const long long clusters = tiles < active ? tiles : active;
        cfg.gridDim = dim3((unsigned)(clusters * copies));
    }
    if (nt) {
        const size_t n = rows * nt * (size_t)copies;
        const unsigned blocks = (unsigned)(n / 256 + 1 < 4096 ? n / 256 + 1 : 4096);
        tail_copies_kernel<<<blocks, 256>>>(reinterpret_cast<const uint32_t *>(src), ld_src,
                                            reinterpret_cast<uint32_t *>(dst), ld_dst, rows, cols4, nt, copies);
        if ((e = cudaGetLastError()) != cudaSuccess) return e;
    }
    if (!cols4) return cudaSuccess;
    return multicast ? cudaLaunchKernelEx(&cfg, tma_multicast_kernel<true>, smap, dmap, tiles_x, tiles, copies)
                     : cudaLaunchKernelEx(&cfg, tma_multicast_kernel<false>, smap, dmap, tiles_x, tiles, copies);
}
