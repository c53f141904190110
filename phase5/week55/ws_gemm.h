/* ws_gemm.h — week 55: a persistent, warp-specialised TMA + wgmma BF16 GEMM,
 * and the tile schedule it follows, computed on the CPU as well. */
#ifndef WS_GEMM_H
#define WS_GEMM_H

#include <stddef.h>
#include <stdint.h>
#include <cuda_runtime_api.h>

#ifdef __cplusplus
extern "C" {
#endif

/* ---------------------------------------------------------------- the schedule (CPU and GPU)
 *
 * C is cut into tiles_m x tiles_n tiles of bm x bn (tiles_m = ceil(M / bm),
 * tiles_n = ceil(N / bn)), numbered 0 .. tiles - 1 in the grouped order:
 * tile t lies in group g = t / (group_m * tiles_n), which holds the row-tiles
 * g * group_m .. g * group_m + rows - 1 (rows = group_m, or fewer in the
 * last group: the row-tiles that are left); inside its group, t runs down
 * those rows first and then across: with u = t % (group_m * tiles_n),
 * tm = g * group_m + u % rows, tn = u / rows.
 *
 * A persistent grid of `grid` CTAs walks the tiles with a static stride: CTA
 * `cta` computes tiles cta, cta + grid, cta + 2 grid, ... (< tiles), in that
 * order. Each tile is ktiles = ceil(K / bk) k-iterations, and the CTA's
 * k-iteration counter runs on across its tiles, never reset: the i-th tile
 * of a CTA starts at k-iteration it = i * ktiles. k-iteration j uses stage
 * j % stages of the ring, and it is the (j / stages)-th use of that stage:
 * the consumers wait on full[stage] for the phase of parity (j / stages) & 1. */
typedef struct {
    int tile;     /* t, in the grouped order */
    int tm, tn;   /* row-tile and column-tile of C: rows tm * bm .., columns tn * bn .. */
    long long it; /* the CTA's k-iterations before this tile (its first k-iteration's index) */
    int stage;    /* it % stages: the stage the tile's first k-tile lands in */
    int phase;    /* (it / stages) & 1: the parity of full[stage]'s phase that k-tile waits for */
} ws_visit;

/* The visits of CTA `cta` of a grid of `grid` over an M x N x K problem in
 * bm x bn x bk tiles, with a ring of `stages` stages and groups of group_m
 * row-tiles. Returns the number of tiles the CTA visits and fills
 * out[0 .. min(count, cap) - 1] (out may be NULL when cap is 0); -1, with
 * out untouched, when M, N or K < 0, bm, bn, bk, stages, group_m or grid < 1,
 * cta is not in 0 .. grid - 1, cap < 0, or out is NULL with cap > 0.
 * M or N == 0: no tiles (0). K == 0: ktiles is 0 and every `it` 0. Pure
 * arithmetic, no CUDA call: the kernel computes the same thing on the GPU
 * (the same __host__ __device__ functions, in ws_gemm.cu). */
int ws_schedule(int M, int N, int K, int bm, int bn, int bk, int stages, int group_m, int grid, int cta,
                ws_visit *out, int cap);

/* The GEMM's own tile, ring and group (the values ws_gemm_bf16 passes the schedule). */
enum { WS_BM = 128, WS_BN = 256, WS_BK = 64, WS_STAGES = 4, WS_GROUP_M = 16 };

/* ---------------------------------------------------------------- the GEMM (compute capability 9.0)
 *
 * C = A B^T, the contract of week 54's wgmma_gemm_bf16: C is M x N float,
 * row-major with ldc floats a row (ldc >= N; the columns past N are never
 * written); A is M x K and B is N x K, both row-major BF16 bit patterns
 * (K-major). K a multiple of 8, A and B 16-byte aligned (TMA's rules);
 * C may start at any float. M == 0 or N == 0: cudaSuccess and no CUDA call
 * (the pointers are not looked at); K == 0: C = 0. Anything else (a
 * negative size, K % 8 != 0, ldc < N, A or B not 16-byte aligned when
 * K > 0) is refused with cudaErrorInvalidValue before any CUDA call, and
 * nothing is written. Launches on the default stream without waiting.
 *
 * The grid is persistent: min(number of SMs, tiles) CTAs of 384 threads, one
 * per SM, each walking its tiles as ws_schedule says. The epilogue goes
 * through shared memory and TMA stores where C allows a tensor map (C
 * 16-byte aligned, ldc a multiple of 4: TMA's row stride is a multiple
 * of 16 bytes; and N a multiple of 4: a TMA store writes whole 16-byte
 * units, so a row's last partial unit would land in its padding), and from
 * registers straight to C everywhere else; the
 * contract is the same for both. */
cudaError_t ws_gemm_bf16(const uint16_t *A, const uint16_t *B, float *C, int M, int N, int K, size_t ldc);

/* The same with the grid chosen: grid CTAs (capped at the number of tiles),
 * or the number of SMs when grid is 0; grid < 0 is refused like a bad shape.
 * The tests run small grids (1, 3, 7 CTAs) so that every CTA walks many
 * tiles and the ring's parity crosses many tile boundaries. */
cudaError_t ws_gemm_bf16_grid(const uint16_t *A, const uint16_t *B, float *C, int M, int N, int K, size_t ldc,
                              int grid);

#ifdef __cplusplus
}
#endif
#endif
