/* traffic.h — week 36: the bytes each way of running the softmax moves.
 *
 * A memory-bound kernel's time is close to the DRAM bytes it must move over
 * the bandwidth a device-to-device copy reaches. Before fusing, count them.
 * The model (README, "The traffic model"):
 *   - every array a kernel reads or writes is 4 bytes an element and crosses
 *     DRAM once per kernel that touches it (the arrays are far larger than
 *     the 50 MB L2: nothing survives from one kernel to the next);
 *   - inside one kernel, a row read again costs nothing while it fits on
 *     chip (SMX_ONCHIP_COLS keys, smx.h), and a second full read beyond;
 *   - per-row and per-chunk scratch (a max and a sum) is negligible;
 *   - a kernel that runs reads and writes its whole arrays, masked scores
 *     included (a masked score is a few per cent of the benchmarks' scores:
 *     a kernel that skips reading them changes the count by about that);
 *   - a kernel that has nothing to do is not launched (no mask kernel
 *     without a mask).
 * A CPU function. */
#ifndef TRAFFIC_H
#define TRAFFIC_H

#ifdef __cplusplus
extern "C" {
#endif

enum {
    FUS_UNFUSED = 0, /* the given yard_smx_unfused: scale, mask, softmax, kernels through T */
    FUS_FUSED,       /* your smx_fused: one kernel */
    FUS_SPLIT,       /* your split_smx: stats, then normalise */
    FUS_VARIANTS
};

/* DRAM bytes variant `variant` moves on a batch x rows x cols score matrix,
 * with (causal != 0) or without the causal mask, under the model above: 0
 * when batch, rows or cols is 0 or less (nothing to do), -1 for a variant
 * that does not exist. */
double traffic_variant_bytes(int variant, int batch, int rows, int cols, int causal);

#ifdef __cplusplus
}
#endif
#endif
