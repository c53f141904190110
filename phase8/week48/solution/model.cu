/* model.cu — week 48, exercise 2: ring and tree all-reduce in the
 * alpha-beta model (model.h has the formulas).
 *
 * The crossover is the S that solves
 *     2 (n - 1) (alpha + S / (n B)) = 2 L (alpha + S / B),
 * L the tree's levels: collect the alpha terms on one side and the S terms
 * on the other. */
#include <math.h>
#include "model.h"

int model_tree_levels(int n)
{
    //@solution
    int l = 0;
    while (l < 31 && (1 << l) < n) l++;
    return l;
    //@starter
    //| /* TODO: the smallest l with 2^l >= n (0 for n <= 1). Count in
    //|  * integers: log2() of a power of two may round the wrong way. */
    //| (void)n;
    //| return 0;
    //@end
}

double model_ring_allreduce_s(int n, double bytes, double alpha_s, double bytes_per_s)
{
    //@solution
    if (n <= 1) return 0;
    return 2.0 * (n - 1) * (alpha_s + bytes / ((double)n * bytes_per_s));
    //@starter
    //| /* TODO: 2 (n - 1) steps, each alpha plus a chunk of S / n bytes at B. */
    //| (void)n, (void)bytes, (void)alpha_s, (void)bytes_per_s;
    //| return 0;
    //@end
}

double model_tree_allreduce_s(int n, double bytes, double alpha_s, double bytes_per_s)
{
    //@solution
    return 2.0 * model_tree_levels(n) * (alpha_s + bytes / bytes_per_s);
    //@starter
    //| /* TODO: up and down a binary tree, model_tree_levels(n) levels each way,
    //|  * each level alpha plus the whole message at B. */
    //| (void)n, (void)bytes, (void)alpha_s, (void)bytes_per_s;
    //| return 0;
    //@end
}

double model_ring_tree_crossover(int n, double alpha_s, double bytes_per_s)
{
    //@solution
    /* S (L - (n-1)/n) / B = (n - 1 - L) alpha. For n = 2 and 3, L = n - 1:
     * the same latency, and the ring moves less, so it is never slower.
     * From n = 4 on, n - 1 > L and L > 1 > (n-1)/n. */
    int l = model_tree_levels(n);
    if (n - 1 <= l) return 0;
    return (double)(n - 1 - l) * alpha_s * bytes_per_s / ((double)l - (double)(n - 1) / (double)n);
    //@starter
    //| /* TODO: set the two times equal and solve for S (the comment at the
    //|  * top of this file sets up the equation); 0 when the ring is never
    //|  * slower (for which n is that? compare n - 1 with model_tree_levels(n)). */
    //| (void)n, (void)alpha_s, (void)bytes_per_s;
    //| return -1;
    //@end
}
