/* traffic.cu — week 36, exercise 1: the bytes before the kernels.
 *
 * List each version's kernels and, for each, the arrays it reads and
 * writes; under the model of traffic.h every array of n = batch * rows * cols
 * floats costs 4n bytes each time a kernel touches it. The benchmarks divide
 * what this function says by the times they measure and set the result
 * beside a device-to-device copy: a right count of a bandwidth-bound kernel
 * lands close to the copy. */
#include "smx.h"
#include "traffic.h"

double traffic_variant_bytes(int variant, int batch, int rows, int cols, int causal)
{
    //@solution
    if (variant < 0 || variant >= FUS_VARIANTS) return -1;
    if (batch <= 0 || rows <= 0 || cols <= 0) return 0;
    const double n = (double)batch * rows * cols;
    switch (variant) {
    case FUS_UNFUSED: /* scale: S -> T (8); mask: T -> T (8), only with a mask; softmax: T -> P (8), rows re-read on chip */
        return (causal ? 24 : 16) * n;
    case FUS_FUSED:   /* S -> P once (8); a row too long for the chip is read twice (12) */
        return (cols <= SMX_ONCHIP_COLS ? 8 : 12) * n;
    default:          /* FUS_SPLIT: stats reads S (4); normalise reads S again and writes P (8) */
        return 12 * n;
    }
    //@starter
    //| /* TODO: for each variant (the enum in traffic.h), list its kernels and
    //|  * what each reads and writes: yard_smx_unfused in support/yard_unfused.cu (which
    //|  * kernels run without a mask?), your smx_fused (smx.h: when is a row
    //|  * read twice?) and split_smx (split.h). n = batch * rows * cols scores,
    //|  * 4 bytes each. 0 for an empty shape, -1 for a variant that does not
    //|  * exist. */
    //| (void)variant, (void)batch, (void)rows, (void)cols, (void)causal;
    //| return 0;
    //@end
}
