/* ln_host.h — week 32: LayerNorm backward on the CPU, in double.
 *
 * The forward pass, over each row i of an rows x cols matrix x (N = cols):
 *     mean[i] = (1/N) sum_j x[i][j]
 *     var[i]  = (1/N) sum_j (x[i][j] - mean[i])^2          (biased, as torch)
 *     rstd[i] = 1 / sqrt(var[i] + LN_EPS)
 *     xhat    = (x[i][j] - mean[i]) * rstd[i]
 *     y[i][j] = xhat * gamma[j] + beta[j]
 * The forward saves mean and rstd (one value a row); the backward gets them,
 * with x, gamma and dy = dL/dy, and gives dx = dL/dx, dgamma = dL/dgamma and
 * dbeta = dL/dbeta. The test checks your formulas against finite
 * differences of the forward, in double. */
#ifndef LN_HOST_H
#define LN_HOST_H

#ifdef __cplusplus
extern "C" {
#endif

#define LN_EPS 1e-5

/* Row-major, contiguous host arrays: x, dy, dx are rows x cols; gamma,
 * dgamma, dbeta are cols; mean, rstd are rows. Writes every element of dx,
 * dgamma and dbeta (rows == 0 gives dgamma = dbeta = 0: a sum over no rows).
 * cols <= 0 writes nothing. */
void ln_host_backward(const double *x, const double *gamma, const double *mean, const double *rstd,
                      const double *dy, double *dx, double *dgamma, double *dbeta, int rows, int cols);

#ifdef __cplusplus
}
#endif
#endif
