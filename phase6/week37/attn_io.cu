/* attn_io.cu — week 37, exercise 1: count the bytes before you tile.
 *
 * The naive version writes an S x S matrix and reads it back twice; the
 * tiled one never stores it, but loads K and V once per query tile. Count
 * both, per the model in attn_io.h, 4 bytes a float. The test prints your
 * counts for S = 1k .. 16k beside the floor every version must pay: Q, K, V
 * read once and O written once, 16 S D bytes a head. */
#include "attn_io.h"

double attn_io_naive_bytes(int64_t bh, int64_t S, int64_t D)
{
    /* TODO: list the three kernels of support/yard_naive_attn.cu and what each
     * reads and writes (attn_io.h says it). Every array is 4 bytes an element;
     * the scores are S x S a head, Q, K, V and O are S x D. -1 for bad
     * arguments. */
    (void)bh, (void)S, (void)D;
    return 0;
}

double attn_io_flash_bytes(int64_t bh, int64_t S, int64_t D, int64_t Br, int64_t Bc, int causal)
{
    /* TODO: walk the query tiles of one head (the last may be partial).
     * Each loads its Q rows, the K and V rows of every key tile it visits
     * (all S rows, or causal: up to the end of the last tile that starts at
     * or before its last query row, never past S), and stores its O rows.
     * Rows times D times 4 bytes, times bh. -1 for bad arguments. */
    (void)bh, (void)S, (void)D, (void)Br, (void)Bc, (void)causal;
    return 0;
}
