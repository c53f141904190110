/* cluster_hist.h — week 56: a histogram whose bins live in a thread-block
 * cluster's distributed shared memory.
 *
 * One CTA's shared memory holds at most 227 KiB on an H100: 58112 32-bit
 * bins. A cluster of C CTAs (C = 2, 4, 8) holds C times as many, and every
 * thread of the cluster can add into any CTA's shared memory (distributed
 * shared memory, DSMEM). So a histogram of up to 8 x 58112 bins can still be
 * counted in shared memory: CTA r of each cluster owns bins
 * [r * bins_per_cta, (r + 1) * bins_per_cta), every key is added into its
 * owner's shared memory, and each CTA adds its finished bins to the global
 * histogram at the end. */
#ifndef CLUSTER_HIST_H
#define CLUSTER_HIST_H

#include <stddef.h>
#include <stdint.h>
#include <cuda_runtime_api.h>

#ifdef __cplusplus
extern "C" {
#endif

/* The largest cluster this week launches (8: the portable limit; 16 needs
 * cudaFuncAttributeNonPortableClusterSizeAllowed and is not used here). */
enum { CHIST_MAX_CLUSTER = 8 };

/* What cluster_hist_plan found. CHIST_OK: *p is filled; anything else: *p
 * is left exactly as it was. Checked in this order. */
typedef enum {
    CHIST_OK = 0,
    CHIST_ERR_ARG,     /* p is NULL, nbins is 0, or cluster is not 0, 1, 2, 4 or 8 */
    CHIST_ERR_TOO_BIG, /* the bins do not fit: ceil(nbins / C) * 4 bytes is more than smem_limit for
                          the cluster asked for, or (cluster 0) for a cluster of CHIST_MAX_CLUSTER */
} chist_status;

/* How one launch of the histogram is laid out. */
typedef struct {
    int      cluster;      /* CTAs per cluster: 1, 2, 4 or 8 */
    uint32_t bins_per_cta; /* ceil(nbins / cluster): CTA r owns bins r * bins_per_cta .. (r + 1) * bins_per_cta - 1
                              (the last CTAs may own fewer, or none, when nbins is not a multiple) */
    size_t   smem_bytes;   /* dynamic shared memory of one CTA: bins_per_cta 32-bit counters */
} chist_plan;

/* Plan a histogram of nbins bins for a device whose CTAs may have up to
 * smem_limit bytes of dynamic shared memory (cudaDevAttrMaxSharedMemoryPerBlockOptin:
 * 232448 on an H100). cluster 0: the smallest of 1, 2, 4, 8 whose CTAs hold
 * their share of the bins; 1, 2, 4 or 8: that cluster size. No CUDA call. */
chist_status cluster_hist_plan(uint32_t nbins, int cluster, size_t smem_limit, chist_plan *p);

/* bins[b] = the number of i < n with keys[i] == b, for every b < nbins
 * (keys of nbins or more are counted nowhere). bins is overwritten, not
 * added to; nothing past bins[nbins - 1] is written. keys may have any
 * 4-byte alignment. cluster as in cluster_hist_plan (0: chosen from nbins).
 * n == 0: bins are zeroed (keys is not looked at). nbins == 0: cudaSuccess,
 * nothing done, no CUDA call. A plan that is not CHIST_OK (on this device's
 * limit) is refused with cudaErrorInvalidValue before anything is written.
 *
 * sm_90a code (clusters need compute capability 9.0): H100 and H200 only.
 * Default stream; returns the first error. */
cudaError_t cluster_hist(const uint32_t *keys, size_t n, uint32_t *bins, uint32_t nbins, int cluster);

#ifdef __cplusplus
}
#endif
#endif
