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
    //@solution
    if (bh < 0 || S < 0 || D <= 0) return -1;
    /* scores: Q, K in, S^2 out; softmax: S^2 in, S^2 out; PV: S^2 and V in, O out */
    double per_head = 4.0 * ((double)(2 * S * D + S * S) + (double)(2 * S * S) + (double)(S * S + 2 * S * D));
    return (double)bh * per_head;
    //@starter
    //| /* TODO: list the three kernels of support/yard_naive_attn.cu and what each
    //|  * reads and writes (attn_io.h says it). Every array is 4 bytes an element;
    //|  * the scores are S x S a head, Q, K, V and O are S x D. -1 for bad
    //|  * arguments. */
    //| (void)bh, (void)S, (void)D;
    //| return 0;
    //@end
}

double attn_io_flash_bytes(int64_t bh, int64_t S, int64_t D, int64_t Br, int64_t Bc, int causal)
{
    //@solution
    if (bh < 0 || S < 0 || D <= 0 || Br <= 0 || Bc <= 0) return -1;
    double rows = 0; /* rows of Q, K, V and O one head loads or stores */
    for (int64_t q0 = 0; q0 < S; q0 += Br) {
        int64_t nq = S - q0 < Br ? S - q0 : Br;           /* this tile's query rows */
        int64_t kv = S;                                   /* key rows it loads */
        if (causal) {
            int64_t last = q0 + nq - 1;                   /* its last query row */
            int64_t tiles = last / Bc + 1;                /* tiles j with j * Bc <= last */
            kv = tiles * Bc < S ? tiles * Bc : S;
        }
        rows += (double)nq + 2.0 * (double)kv + (double)nq; /* Q in, K and V in, O out */
    }
    return (double)bh * rows * (double)D * 4.0;
    //@starter
    //| /* TODO: walk the query tiles of one head (the last may be partial).
    //|  * Each loads its Q rows, the K and V rows of every key tile it visits
    //|  * (all S rows, or causal: up to the end of the last tile that starts at
    //|  * or before its last query row, never past S), and stores its O rows.
    //|  * Rows times D times 4 bytes, times bh. -1 for bad arguments. */
    //| (void)bh, (void)S, (void)D, (void)Br, (void)Bc, (void)causal;
    //| return 0;
    //@end
}
