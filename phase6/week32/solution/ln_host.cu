/* ln_host.cu — week 32, exercise 1: LayerNorm backward on the CPU, in double.
 *
 * Derive it once by hand, row by row (N = cols, g_j = dy_j gamma_j):
 *   y_j = xhat_j gamma_j + beta_j, so dL/dxhat_j = g_j, dL/dgamma_j = dy_j xhat_j
 *   and dL/dbeta_j = dy_j (the last two summed over the rows: every row
 *   uses the same gamma and beta).
 *   xhat_j = (x_j - mean) rstd depends on every x_k through mean and rstd:
 *     d mean / d x_k = 1/N
 *     d rstd / d x_k = -rstd^3 (x_k - mean) / N    (the eps only sits in rstd)
 *   Collecting the terms:
 *     dx_k = rstd (g_k - (1/N) sum_j g_j - xhat_k (1/N) sum_j g_j xhat_j)
 * Two sums over the row, then one pass: the shape every kernel of this week
 * has. This file is plain host code (nvcc compiles it as C++). */
#include <stddef.h>
#include "ln_host.h"

void ln_host_backward(const double *x, const double *gamma, const double *mean, const double *rstd,
                      const double *dy, double *dx, double *dgamma, double *dbeta, int rows, int cols)
{
    //@solution
    if (cols <= 0) return;
    for (int j = 0; j < cols; j++) dgamma[j] = 0, dbeta[j] = 0;
    /* row by row, the three row pointers stepping one row each time */
    for (int i = 0; i < rows; i++, x += cols, dy += cols, dx += cols) {
        double s1 = 0, s2 = 0;
        for (int j = 0; j < cols; j++) {
            const double xhat = (x[j] - mean[i]) * rstd[i], gj = dy[j] * gamma[j];
            s1 += gj;
            s2 += gj * xhat;
            dgamma[j] += dy[j] * xhat;
            dbeta[j] += dy[j];
        }
        s1 /= cols, s2 /= cols; /* now the two means */
        for (int j = 0; j < cols; j++) {
            const double xhat = (x[j] - mean[i]) * rstd[i], gj = dy[j] * gamma[j];
            dx[j] = rstd[i] * (gj - s1 - xhat * s2);
        }
    }
    //@starter
    //| /* TODO: derive dL/dx, dL/dgamma and dL/dbeta of the forward in ln_host.h
    //|  * (the README's Background walks through it), then write them:
    //|  * dgamma and dbeta are sums over the rows (start them at 0); dx needs two
    //|  * sums over its row first, then one pass. Index row i, column j as
    //|  * i * cols + j in size_t. */
    //| (void)x, (void)gamma, (void)mean, (void)rstd, (void)dy;
    //| (void)dx, (void)dgamma, (void)dbeta, (void)rows, (void)cols;
    //@end
}
