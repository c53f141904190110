// tma_copy.cu — week 53: a matrix copy through shared memory by the Tensor
// Memory Accelerator (TMA). The host describes source and destination with
// two tensor maps and starts one CTA a box: in each, one thread loads its
// 32 x 256 float box (32 KiB, 1 KiB rows, no swizzle) with TMA, waits on an
// mbarrier for the bytes, stores the box back with TMA and waits for the
// store before the CTA leaves. The other 31 threads of the warp have nothing
// to do: TMA moves the bytes, not threads. The latency of each round trip is
// hidden by the CTAs beside it (six fit an SM), not by a ring of stages.
//
// sm_90a code (week.txt: nvflags -gencode=arch=compute_90a,code=sm_90a):
// it loads on a compute capability 9.0 GPU only.
#include <cuda.h>          // CUtensorMap and its enums: types only, nothing links libcuda
#include <cudaTypedefs.h>  // PFN_cuTensorMapEncodeTiled_v12000
#include <cuda_runtime.h>
#include <limits.h>
#include <stdint.h>

#include "tma_box.h"
#include "tma_ptx.h"
#include "tma_copy.h"

namespace {

constexpr int BOX_COLS = 256;  // 256 floats = 1 KiB of a row in one piece: the widest box TMA takes (box dims <= 256)
constexpr int BOX_ROWS = 32;   // 32 KiB a box: six CTAs fit an SM's shared memory
constexpr int SWIZZLE = 0;     // none: a swizzled inner box is at most 128 bytes (tma_box's rule), and a copy reads no column
constexpr unsigned BOX_BYTES = BOX_COLS * BOX_ROWS * 4;
constexpr unsigned SMEM_ALIGN = 128;  // an unswizzled box's buffer (tma_box: smem_align)
[[maybe_unused]] constexpr size_t SMEM_BYTES = BOX_BYTES + SMEM_ALIGN;  // room to round the base up (32 KiB + 128)

// The PTX wrappers (mbarriers, TMA loads and stores, bulk groups) are given
// in common/include/tma_ptx.h: read each one.

// ---------------------------------------------------------------- the kernel

// Boxes are numbered row-major over the grid of tiles_x boxes across; CTA b
// copies box b (a 1-D grid: blockIdx.x reaches 2^31 - 1, gridDim.y only 65535).
// The maps are __grid_constant__ parameters: TMA reads them where they are,
// by address, so they must not be copied to the stack.
[[maybe_unused]] __global__ void __launch_bounds__(32) tma_copy_kernel(const __grid_constant__ CUtensorMap src_map,
                                                                       const __grid_constant__ CUtensorMap dst_map,
                                                                       unsigned tiles_x)
{
#if defined(__CUDA_ARCH__) && __CUDA_ARCH__ < 900
    // This pass builds for a GPU older than Hopper (ARCH=sm_80, say), which
    // has no TMA: the kernel is a trap there, and the tests skip before any launch.
    __trap();
#else
    /* TODO (README, task 2): thread 0 only. This CTA's box is t = blockIdx.x:
     * column (t % tiles_x) * BOX_COLS, row (t / tiles_x) * BOX_ROWS. Round
     * the dynamic shared memory's address up to SMEM_ALIGN, init one
     * mbarrier (count 1), fence_mbar_init(), mbar_arrive_expect_tx(bar,
     * BOX_BYTES) and tma_load_2d, wait on the barrier's first phase
     * (parity 0), fence_proxy_async_smem(), tma_store_2d, bulk_commit, and
     * bulk_wait<0>() before the thread leaves. */
    (void)src_map, (void)dst_map, (void)tiles_x;
#endif
}

// The last cols % 4 columns of every row, by plain loads and stores (bits
// as unsigned words: no float arithmetic touches a NaN payload). A TMA
// store was not clipped below 16 bytes on the H100: a store of a 1 x 1 FP32
// map (row stride 16 bytes) wrote the three floats after the element too
// (README, the story), so the maps cover whole 16-byte units of a row and
// this kernel the rest.
[[maybe_unused]] __global__ void tail_copy_kernel(const uint32_t *__restrict__ src, size_t ld_src, uint32_t *__restrict__ dst,
                                 size_t ld_dst, size_t rows, size_t c0, size_t nt)
{
    /* TODO (README, task 2): dst[r * ld_dst + c] = src[r * ld_src + c] for
     * r < rows, c0 <= c < c0 + nt, a grid-stride loop over rows * nt. */
    (void)src, (void)ld_src, (void)dst, (void)ld_dst, (void)rows, (void)c0, (void)nt;
}

}  // namespace

extern "C" cudaError_t tma_copy_f32(const float *src, size_t ld_src, float *dst, size_t ld_dst, size_t rows, size_t cols)
{
    if (rows == 0 || cols == 0) return cudaSuccess;
    if (rows > INT_MAX || cols > INT_MAX) return cudaErrorInvalidValue;  // TMA's coordinates are 32-bit signed
    tma_plan ps, pd;
    if (tma_box_plan(src, rows, cols, ld_src, 4, BOX_ROWS, BOX_COLS, SWIZZLE, &ps) != TMA_OK ||
        tma_box_plan(dst, rows, cols, ld_dst, 4, BOX_ROWS, BOX_COLS, SWIZZLE, &pd) != TMA_OK)
        return cudaErrorInvalidValue;
    // One CTA a box: more than 2^31 - 1 boxes (64 TiB) cannot be a 1-D grid.
    if (ps.boxes[0] * ps.boxes[1] > INT_MAX) return cudaErrorInvalidValue;
    /* TODO (README, task 2): a TMA store wrote whole 16-byte units on the
     * H100, so the maps cover cols & ~3 columns (plan ps and pd again for that many)
     * and tail_copy_kernel the last cols % 4. Get cuTensorMapEncodeTiled
     * (encode_tiled_fn), encode a map for src and one for dst (FLOAT32, rank 2,
     * CU_TENSOR_MAP_SWIZZLE_NONE, no interleave, zero OOB fill) and launch
     * one CTA a box: tma_copy_kernel<<<boxes across x boxes down, 32, SMEM_BYTES>>>. */
    (void)ps, (void)pd;
    return cudaSuccess;
}
