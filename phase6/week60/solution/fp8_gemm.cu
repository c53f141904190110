// fp8_gemm.cu — week 60, task 2: week 55's persistent, warp-specialised TMA
// + wgmma GEMM with E4M3 operands, per-tensor scales and a BF16 output.
//
// D (M x N, BF16) = bf16(scale_a * scale_b * A B^T), A (M x K) and B (N x K)
// E4M3, both K-major (fp8_gemm.h). What changes from week 55, and nothing else:
//   - an element is one byte: the 128B swizzle's 128-byte row is 128 E4M3
//     values, so the k-tile is BK = 128 (week 55: 64 BF16). A stage is still
//     A 128 x 128 + B 256 x 128 = 48 KiB, four of them, and the tensor maps
//     are CU_TENSOR_MAP_DATA_TYPE_UINT8 (TMA only moves bytes);
//   - the wgmma is m64n256k32 .e4m3.e4m3 (k32 a instruction, four a stage:
//     the same 32 bytes of a row as BF16's k16, so the descriptors and their
//     +2 a slice are week 54's, bit for bit);
//   - the epilogue multiplies by s = scale_a * scale_b (read once, by each
//     consumer thread) and rounds to BF16 pairs (cvt.rn.bf16x2.f32): the TMA
//     path stages 64 x 64 BF16 chunks (128-byte rows, four chunks a 256-wide
//     tile) in two 8 KiB buffers a consumer; the register path stores a pair
//     as one 4-byte word where D allows it.
// The roles, the ring and its parity running on across tiles, the release
// of each stage exactly once, the grouped tile order: week 55's.
//
// sm_90a code (week.txt: nvflags -gencode=arch=compute_90a,code=sm_90a).
#include <cuda.h>  // CUtensorMap: the type only
#include <cuda_bf16.h>
#include <cuda_runtime.h>
#include <limits.h>
#include <stdint.h>
#include <string.h>

#include "support/hopper_fp8.cuh"  // given: the PTX wrappers and the FP8 wgmma
#include "fp8_gemm.h"

namespace {

constexpr int BM = FP8_BM, BN = FP8_BN, BK = FP8_BK;  // BK = 128 E4M3 = 128 bytes: the swizzle's span
constexpr int STAGES = FP8_STAGES;
constexpr int CONSUMERS = 2;  // warpgroups issuing wgmma, 64 rows of the tile each
constexpr int THREADS = 128 * (1 + CONSUMERS);
constexpr unsigned A_BYTES = BM * BK, B_BYTES = BN * BK, STAGE_BYTES = A_BYTES + B_BYTES;  // 16 + 32 KiB
constexpr unsigned SMEM_ALIGN = 1024;  // the 128B swizzle's pattern repeats every 1024 bytes
// The TMA-store epilogue: a chunk is one store box, a consumer's 64 rows x
// 64 BF16 columns (128-byte rows), 8 KiB; two buffers a consumer.
constexpr int CHUNK_COLS = 64;
[[maybe_unused]] constexpr int CHUNKS = BN / CHUNK_COLS;
constexpr unsigned CHUNK_BYTES = 64 * CHUNK_COLS * 2, STAGING_BYTES = CONSUMERS * 2 * CHUNK_BYTES;
template <bool TSTORE> constexpr size_t smem_bytes()
{
    return STAGES * STAGE_BYTES + (TSTORE ? STAGING_BYTES : 0) + SMEM_ALIGN;
}
static_assert(smem_bytes<true>() + 64 <= 227 * 1024, "ring + staging + the 8 mbarriers: 227 KiB a CTA at most");
static_assert(BK == 128 && CHUNK_COLS * 2 == 128 && CHUNK_BYTES % 1024 == 0,
              "k-tile rows and staging rows are the 128B swizzle's span; buffers 1024-byte aligned");
[[maybe_unused]] constexpr int PRODUCER_REGS = 40, CONSUMER_REGS = 232;  // 128 x 40 + 256 x 232 <= 65536

// The descriptor of a K-major tile with 128-byte rows, 128B-swizzled, at
// shared address 0 (PTX ISA, "Matrix Descriptor Format"): leading byte
// offset 16 (1 in the field; unused for this layout), stride byte offset
// 1024 (8 rows of 128 bytes), swizzle code 1 (128B) in bits 62-63. Adding
// (address >> 4) moves it to a tile; + 2 is the next 32 bytes of K.
[[maybe_unused]] constexpr uint64_t DESC0 = (uint64_t)(16 >> 4) << 16 | (uint64_t)(1024 >> 4) << 32 | (uint64_t)1 << 62;

// Tile t of the grouped order: down group_m row-tiles, then across (week 54).
[[maybe_unused]] __device__ __forceinline__ void tile_of(int t, int tiles_m, int tiles_n, int *tm, int *tn)
{
    const int per_group = FP8_GROUP_M * tiles_n, first = t / per_group * FP8_GROUP_M;
    const int rows = tiles_m - first < FP8_GROUP_M ? tiles_m - first : FP8_GROUP_M;
    *tm = first + t % per_group % rows;
    *tn = t % per_group / rows;
}

// Two floats times s, rounded to BF16 (nearest even), as one 32-bit word:
// lo in the low half (the lower address, column c), hi in the high half.
[[maybe_unused]] __device__ __forceinline__ uint32_t bf16_pair(float lo, float hi, float s)
{
    const __nv_bfloat162 p = __floats2bfloat162_rn(lo * s, hi * s);
    uint32_t w;
    memcpy(&w, &p, 4);
    return w;
}

// ---------------------------------------------------------------- the kernel

// The grid is persistent: CTA b computes tiles b, b + gridDim.x, ... TSTORE:
// the epilogue stages chunks in shared memory and stores them with TMA
// through d_map (boxes of 64 x 64 BF16, 128B swizzle); otherwise it stores
// from registers (d_map unused; pairs: 4-byte stores of two BF16 allowed).
template <bool TSTORE>
__global__ void __launch_bounds__(THREADS, 1)
    fp8_gemm_kernel(const __grid_constant__ CUtensorMap a_map, const __grid_constant__ CUtensorMap b_map,
                    const __grid_constant__ CUtensorMap d_map, uint16_t *D, size_t ldd, int M, int N, int K,
                    const float *scale_a, const float *scale_b, int tiles_m, int tiles_n, int pairs)
{
#if !defined(__CUDA_ARCH_FEAT_SM90_ALL)
    __trap();  // no wgmma outside sm_90a; the tests skip before any launch
#else
    //@solution
    __shared__ __align__(8) uint64_t full[STAGES], empty[STAGES];
    extern __shared__ unsigned char dyn[];
    // Stage s: A at ring + s * STAGE_BYTES, B A_BYTES after it; the staging
    // (TSTORE) after the ring, consumer c's buffers at staging + (2c + b) * CHUNK_BYTES.
    const uint32_t ring = (smem_u32(dyn) + SMEM_ALIGN - 1) & ~(SMEM_ALIGN - 1);
    const uint32_t staging = ring + STAGES * STAGE_BYTES;
    const int wg = threadIdx.x / 128, t = threadIdx.x % 128;
    const int ktiles = (K + BK - 1) / BK, tiles = tiles_m * tiles_n;

    if (threadIdx.x == 0) {
        prefetch_map(&a_map);
        prefetch_map(&b_map);
        if (TSTORE) prefetch_map(&d_map);
        for (int s = 0; s < STAGES; s++) {
            mbar_init(smem_u32(&full[s]), 1);                 // the producer's arrive_expect_tx
            mbar_init(smem_u32(&empty[s]), CONSUMERS * 128);  // every consumer thread hands it back
        }
        fence_mbar_init();
    }
    __syncthreads();  // the last CTA-wide barrier: from here the roles meet only at mbarriers

    if (wg == 0) {  // ---------------- producer: one thread, tile after tile
        regs_dealloc<PRODUCER_REGS>();
        if (t == 0) {
            uint32_t it = 0;  // k-iterations issued, across all of this CTA's tiles
            for (int tile = blockIdx.x; tile < tiles; tile += gridDim.x) {
                int tm, tn;
                tile_of(tile, tiles_m, tiles_n, &tm, &tn);
                for (int k = 0; k < ktiles; k++, it++) {
                    const uint32_t s = it % STAGES;
                    // this use of stage s waits for the release of its previous
                    // use, k-iteration it - STAGES (maybe of an earlier tile)
                    if (it >= STAGES) mbar_wait_loop(smem_u32(&empty[s]), (it / STAGES - 1) & 1);
                    const uint32_t bar = smem_u32(&full[s]), a = ring + s * STAGE_BYTES;
                    mbar_arrive_expect_tx(bar, STAGE_BYTES);
                    tma_load_2d(a, &a_map, bar, k * BK, tm * BM);
                    tma_load_2d(a + A_BYTES, &b_map, bar, k * BK, tn * BN);
                }
            }
        }
        return;
    }

    // ---------------- consumers: warpgroup c = wg - 1 owns rows 64c .. 64c + 63 of every tile
    regs_alloc<CONSUMER_REGS>();
    const int c = wg - 1, w = t / 32, l = t % 32;
    const float scale = scale_a[0] * scale_b[0];  // rounded to FP32 once, as fp8_gemm.h says
    uint32_t it = 0;                              // the producer's count, kept independently
    for (int tile = blockIdx.x; tile < tiles; tile += gridDim.x) {
        int tm, tn;
        tile_of(tile, tiles_m, tiles_n, &tm, &tn);
        float d[128];
#pragma unroll
        for (int i = 0; i < 128; i++) d[i] = 0.f;
        pin_accumulators(d);
        for (int k = 0; k < ktiles; k++, it++) {
            const uint32_t s = it % STAGES;
            mbar_wait_loop(smem_u32(&full[s]), (it / STAGES) & 1);
            const uint32_t a = ring + s * STAGE_BYTES + c * 64 * BK, b = ring + s * STAGE_BYTES + A_BYTES;
            const uint64_t da = DESC0 + ((a & 0x3ffff) >> 4), db = DESC0 + ((b & 0x3ffff) >> 4);
            wgmma_fence();  // orders the zeros (and the last epilogue's reads) before the tensor cores write
#pragma unroll
            for (int kk = 0; kk < BK / 32; kk++) wgmma_m64n256k32_e4m3(d, da + 2 * kk, db + 2 * kk, 1);
            wgmma_commit();
            // at most this stage's group still runs: the previous k-iteration's
            // stage is read, and goes back (none at a tile's first k-tile: the
            // tile before handed its last one back before its epilogue)
            wgmma_wait<1>();
            pin_accumulators(d);
            if (k > 0) mbar_arrive(smem_u32(&empty[(it - 1) % STAGES]));
        }
        wgmma_wait<0>();
        pin_accumulators(d);
        if (ktiles > 0) mbar_arrive(smem_u32(&empty[(it - 1) % STAGES]));  // before the epilogue

        if constexpr (TSTORE) {
            // ---------------- through shared memory: chunk j is columns 64j ..
            // 64j + 63 of the tile, this warpgroup's 64 rows, 128 bytes a row.
            // Thread (w, l) holds rows 16w + l/4 and + 8; in 8-column group q of
            // the chunk (accumulators 4(8j + q) ..) the pair at columns
            // 8q + 2(l % 4), + 1: bytes 16q + 4(l % 4) of the row, 16-byte unit
            // q, which the 128B swizzle puts at unit q ^ (row % 8).
            const uint32_t mine = staging + c * 2 * CHUNK_BYTES;
            const int y = tm * BM + c * 64;
#pragma unroll
            for (int j = 0; j < CHUNKS; j++) {
                const uint32_t buf = mine + (j & 1) * CHUNK_BYTES;
#pragma unroll
                for (int h = 0; h < 2; h++) {
                    const int r = w * 16 + l / 4 + 8 * h;
#pragma unroll
                    for (int q = 0; q < 8; q++) {
                        const int acc = 4 * (8 * j + q) + 2 * h;
                        st_shared_b32(buf + r * 128 + ((q ^ (r % 8)) << 4) + 4 * (l % 4),
                                      bf16_pair(d[acc], d[acc + 1], scale));
                    }
                }
                fence_proxy_async_smem();  // our writes before the TMA unit reads them
                // chunk j - 1's store has read its buffer (the one chunk j + 1
                // overwrites) before anyone passes the barrier
                if (t == 0) bulk_wait_read<0>();
                named_bar_sync(1 + c, 128);
                const int x = tn * BN + CHUNK_COLS * j;
                if (t == 0 && x < N && y < M) {  // TMA clips the rest at N and M
                    tma_store_2d(&d_map, buf, x, y);
                    bulk_commit();
                }
            }
        } else {
            // ---------------- from registers, guarded at the edges
            __nv_bfloat16 *Dh = reinterpret_cast<__nv_bfloat16 *>(D);
            const int row0 = tm * BM + c * 64 + w * 16 + l / 4, col0 = tn * BN + 2 * (l % 4);
#pragma unroll
            for (int h = 0; h < 2; h++) {
                const int r = row0 + 8 * h;
                if (r >= M) continue;
                __nv_bfloat16 *drow = Dh + (size_t)r * ldd;
#pragma unroll
                for (int j = 0; j < 32; j++) {
                    const int col = col0 + 8 * j;
                    const float v0 = d[4 * j + 2 * h], v1 = d[4 * j + 2 * h + 1];
                    if (pairs && col + 1 < N) {
                        *reinterpret_cast<uint32_t *>(drow + col) = bf16_pair(v0, v1, scale);
                    } else {
                        if (col < N) drow[col] = __float2bfloat16_rn(v0 * scale);
                        if (col + 1 < N) drow[col + 1] = __float2bfloat16_rn(v1 * scale);
                    }
                }
            }
        }
        __syncwarp();  // the warp together before the next tile's .aligned instructions
    }
    if (TSTORE && t == 0) bulk_wait<0>();  // the staging outlives its last stores' reads
    //@starter
    //| /* TODO (README, task 2): week 55's kernel, with FP8 operands.
    //|  * - Shared memory, barriers, roles as in week 55: the ring 1024-byte
    //|  *   aligned (stage s: A 128 x 128 bytes at ring + s * STAGE_BYTES, B
    //|  *   256 x 128 after it), full[s] (count 1) and empty[s] (count 256);
    //|  *   one __syncthreads() after the init, none after it.
    //|  * - Producer (warpgroup 0, regs_dealloc<PRODUCER_REGS>; thread 0):
    //|  *   tile = blockIdx.x; tile < tiles_m * tiles_n; tile += gridDim.x,
    //|  *   tile_of(...), and a k-iteration counter `it` that runs on across
    //|  *   tiles: stage it % STAGES, wait on empty for it - STAGES's release
    //|  *   (from it >= STAGES), arrive_expect_tx(STAGE_BYTES), two tma_load_2d
    //|  *   at (k * BK, tm * BM) and (k * BK, tn * BN).
    //|  * - Consumers (warpgroups 1, 2, regs_alloc<CONSUMER_REGS>): the same
    //|  *   tiles and count; per tile zero 128 accumulators; per k-tile wait
    //|  *   on full (parity (it / STAGES) & 1), descriptors DESC0 + ((addr &
    //|  *   0x3ffff) >> 4) for A (rows 64c.., 64 * BK bytes on) and B,
    //|  *   wgmma_fence, FOUR wgmma_m64n256k32_e4m3 (the k32 slices, +2 each),
    //|  *   commit, wait<1>, release the previous k-iteration's stage; after
    //|  *   the tile: wait<0>, release the last stage, then the epilogue.
    //|  * - Epilogue: v * s, s = scale_a[0] * scale_b[0] (one FP32 product),
    //|  *   rounded to BF16 (bf16_pair). TSTORE: per chunk j = 0..3 (64 BF16
    //|  *   columns = 128-byte rows), st_shared_b32 each pair at row r, unit
    //|  *   q ^ (r % 8), byte 4 * (l % 4) into buffer j % 2 (2 x CHUNK_BYTES a
    //|  *   consumer after the ring), fence_proxy_async_smem, thread 0
    //|  *   bulk_wait_read<0>, named_bar_sync(1 + c, 128), thread 0
    //|  *   tma_store_2d + bulk_commit (skip boxes wholly past N or M); at the
    //|  *   end thread 0 bulk_wait<0>. Otherwise from registers, guarded,
    //|  *   4-byte pairs where `pairs`. __syncwarp() after each tile. */
    //| (void)a_map, (void)b_map, (void)d_map, (void)D, (void)ldd, (void)M, (void)N, (void)K;
    //| (void)scale_a, (void)scale_b, (void)tiles_m, (void)tiles_n, (void)pairs;
    //@end
#endif
}

// D = 0 where K == 0: rows of N BF16 zeros, ldd apart.
__global__ void zero_d_kernel(uint16_t *D, size_t ldd, int M, int N)
{
    const size_t n = (size_t)M * N;
    for (size_t i = (size_t)blockIdx.x * blockDim.x + threadIdx.x; i < n; i += (size_t)gridDim.x * blockDim.x)
        D[i / N * ldd + i % N] = 0;
}

// ---------------------------------------------------------------- the host (given)

// A tensor map over a row-major matrix of `rows` rows of K bytes (E4M3
// codes: TMA only moves bytes, UINT8), in boxes of BK x box_rows with the
// 128B swizzle, zeros past the edges. TMA's rules: base 16-byte aligned,
// row stride K a multiple of 16 (checked by the caller).
cudaError_t encode_fp8_map(CUtensorMap *map, const uint8_t *base, int rows, int K, int box_rows)
{
    cudaError_t e = cudaSuccess;
    PFN_cuTensorMapEncodeTiled_v12000 encode = encode_tiled_fn(&e);
    if (!encode) return e;
    const cuuint64_t dims[2] = { (cuuint64_t)K, (cuuint64_t)rows }, strides[1] = { (cuuint64_t)K };
    const cuuint32_t box[2] = { (cuuint32_t)BK, (cuuint32_t)box_rows }, unit[2] = { 1, 1 };
    const CUresult r = encode(map, CU_TENSOR_MAP_DATA_TYPE_UINT8, 2, const_cast<uint8_t *>(base), dims, strides, box,
                              unit, CU_TENSOR_MAP_INTERLEAVE_NONE, CU_TENSOR_MAP_SWIZZLE_128B,
                              CU_TENSOR_MAP_L2_PROMOTION_L2_256B, CU_TENSOR_MAP_FLOAT_OOB_FILL_NONE);
    return r == CUDA_SUCCESS ? cudaSuccess : cudaErrorInvalidValue;
}

// A tensor map over D for the TMA-store epilogue: M rows of N BF16, ldd
// apart, boxes of 64 x 64 with the 128B swizzle. false where D breaks TMA's
// rules (base 16-byte aligned, row stride a multiple of 16 bytes) or N is no
// multiple of 8 (a store writes whole 16-byte units: columns past N, the
// row's padding, would be written): the kernel then stores from registers.
bool encode_d_map(CUtensorMap *map, uint16_t *D, int M, int N, size_t ldd)
{
    if ((uintptr_t)D % 16 != 0 || N % 8 != 0 || ldd % 8 != 0 || ldd >= ((size_t)1 << 39)) return false;
    cudaError_t e = cudaSuccess;
    PFN_cuTensorMapEncodeTiled_v12000 encode = encode_tiled_fn(&e);
    if (!encode) return false;
    const cuuint64_t dims[2] = { (cuuint64_t)N, (cuuint64_t)M }, strides[1] = { (cuuint64_t)ldd * 2 };
    const cuuint32_t box[2] = { CHUNK_COLS, 64 }, unit[2] = { 1, 1 };
    return encode(map, CU_TENSOR_MAP_DATA_TYPE_BFLOAT16, 2, D, dims, strides, box, unit,
                  CU_TENSOR_MAP_INTERLEAVE_NONE, CU_TENSOR_MAP_SWIZZLE_128B, CU_TENSOR_MAP_L2_PROMOTION_NONE,
                  CU_TENSOR_MAP_FLOAT_OOB_FILL_NONE) == CUDA_SUCCESS;
}

// Once per device: both kernels' shared-memory limits, and the SM count.
cudaError_t prepare_device(int *sms)
{
    static int done_for = -1, count = 0;
    int dev;
    cudaError_t e = cudaGetDevice(&dev);
    if (e != cudaSuccess) return e;
    if (dev != done_for) {
        if ((e = cudaFuncSetAttribute(fp8_gemm_kernel<true>, cudaFuncAttributeMaxDynamicSharedMemorySize,
                                      (int)smem_bytes<true>())) != cudaSuccess ||
            (e = cudaFuncSetAttribute(fp8_gemm_kernel<false>, cudaFuncAttributeMaxDynamicSharedMemorySize,
                                      (int)smem_bytes<false>())) != cudaSuccess ||
            (e = cudaDeviceGetAttribute(&count, cudaDevAttrMultiProcessorCount, dev)) != cudaSuccess)
            return e;
        done_for = dev;
    }
    *sms = count;
    return cudaSuccess;
}

}  // namespace

extern "C" cudaError_t fp8_gemm_grid(const uint8_t *A, const uint8_t *B, const float *scale_a, const float *scale_b,
                                     uint16_t *D, int M, int N, int K, size_t ldd, int grid)
{
    if (M < 0 || N < 0 || K < 0 || K % 16 != 0 || ldd < (size_t)N || grid < 0) return cudaErrorInvalidValue;
    if (M == 0 || N == 0) return cudaSuccess;
    if (K == 0) {
        const size_t n = (size_t)M * N;
        zero_d_kernel<<<(unsigned)(n / 256 + 1 < 4096 ? n / 256 + 1 : 4096), 256>>>(D, ldd, M, N);
        return cudaGetLastError();
    }
    if ((uintptr_t)A % 16 != 0 || (uintptr_t)B % 16 != 0 || !scale_a || !scale_b) return cudaErrorInvalidValue;
    const int tiles_m = (M + BM - 1) / BM, tiles_n = (N + BN - 1) / BN;
    if ((long long)tiles_m * tiles_n > INT_MAX) return cudaErrorInvalidValue;
    // Everything that can fail comes before the launch: a refused call writes nothing.
    CUtensorMap a_map, b_map;
    cudaError_t e;
    int sms;
    if ((e = encode_fp8_map(&a_map, A, M, K, BM)) != cudaSuccess) return e;
    if ((e = encode_fp8_map(&b_map, B, N, K, BN)) != cudaSuccess) return e;
    if ((e = prepare_device(&sms)) != cudaSuccess) return e;
    const int tiles = tiles_m * tiles_n, want = grid ? grid : sms, blocks = want < tiles ? want : tiles;
    CUtensorMap d_map;
    memset(&d_map, 0, sizeof d_map);
    if (encode_d_map(&d_map, D, M, N, ldd)) {
        fp8_gemm_kernel<true><<<blocks, THREADS, smem_bytes<true>()>>>(a_map, b_map, d_map, D, ldd, M, N, K, scale_a,
                                                                       scale_b, tiles_m, tiles_n, 1);
    } else {
        const int pairs = (uintptr_t)D % 4 == 0 && ldd % 2 == 0;
        fp8_gemm_kernel<false><<<blocks, THREADS, smem_bytes<false>()>>>(a_map, b_map, d_map, D, ldd, M, N, K,
                                                                         scale_a, scale_b, tiles_m, tiles_n, pairs);
    }
    return cudaGetLastError();
}

extern "C" cudaError_t fp8_gemm(const uint8_t *A, const uint8_t *B, const float *scale_a, const float *scale_b,
                                uint16_t *D, int M, int N, int K, size_t ldd)
{
    return fp8_gemm_grid(A, B, scale_a, scale_b, D, M, N, K, ldd, 0);
}
