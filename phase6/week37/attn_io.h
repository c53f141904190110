/* attn_io.h — week 37: the global-memory bytes of attention, counted on paper.
 *
 * One attention forward pass over `bh` heads (batch x heads) of S rows of
 * head dimension D, FP32 (4 bytes an element): Q, K, V and O are bh x S x D.
 * Count what each kernel loads from and stores to global memory under this
 * week's model (README, "The IO model"):
 *
 *   naive (support/yard_naive_attn.cu, three kernels a head):
 *     scores = scale * Q K^T, masked   reads Q and K once, writes S x S scores
 *     softmax, row by row, in place    reads the S x S scores, writes S x S P
 *     O = P V                          reads P (S x S) and V once, writes O
 *   The naive version computes every score, causal or not (the mask is
 *   applied to the scores it wrote), so its count does not depend on `causal`.
 *   A GEMM operand counts once: its tiles re-read through L1/L2 are free.
 *
 *   tiled (your flash_attn, query tiles of Br rows, key/value tiles of Bc):
 *     query tile i (rows i*Br .. min((i+1)*Br, S) - 1) loads its own rows of
 *     Q once, then every key/value tile it visits, K and V rows both, then
 *     stores its rows of O once. Non-causal: every tile of K and V. Causal:
 *     the tiles j whose first key j*Bc is at most the tile's last query row.
 *     Rows past S (the last, partial tile) are not loaded and cost nothing.
 *   Nothing is assumed to survive in a cache from one tile's load to the
 *   next: these are the bytes the SMs ask for, an upper bound on DRAM bytes.
 *
 * CPU functions. Both return bytes as a double (exact below 2^53), 0 for
 * S == 0 or bh == 0, and -1 for a negative bh or S, or D, Br, Bc <= 0. */
#ifndef ATTN_IO_H
#define ATTN_IO_H

#include <stdint.h>

#ifdef __cplusplus
extern "C" {
#endif

double attn_io_naive_bytes(int64_t bh, int64_t S, int64_t D);
double attn_io_flash_bytes(int64_t bh, int64_t S, int64_t D, int64_t Br, int64_t Bc, int causal);

#ifdef __cplusplus
}
#endif
#endif
