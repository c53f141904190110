/* sp24_probe.cu — week 61's given probes (sp24_probe.h): one mma.sp with
 * every register given, and the dense and sparse mma rates of a warp tile. */
#include "sp24_probe.h"

#if !defined(__CUDA_ARCH__) || __CUDA_ARCH__ >= 800
#define PROBE_SM80 1
#else
#define PROBE_SM80 0
#endif

/* d = A B (+0) with sparsity selector SEL. */
template <int SEL>
static __device__ __forceinline__ void probe_sp(float *d, const uint32_t *a, const uint32_t *b, uint32_t e)
{
#if PROBE_SM80
    asm volatile("mma.sp::ordered_metadata.sync.aligned.m16n8k32.row.col.f32.f16.f16.f32\n\t"
                 "{%0, %1, %2, %3},\n\t{%4, %5, %6, %7},\n\t{%8, %9, %10, %11},\n\t{%0, %1, %2, %3}, %12, %13;"
                 : "+f"(d[0]), "+f"(d[1]), "+f"(d[2]), "+f"(d[3])
                 : "r"(a[0]), "r"(a[1]), "r"(a[2]), "r"(a[3]),
                   "r"(b[0]), "r"(b[1]), "r"(b[2]), "r"(b[3]),
                   "r"(e), "n"(SEL));
#endif
}

static __device__ __forceinline__ void probe_dense(float *d, const uint32_t *a, const uint32_t *b)
{
#if PROBE_SM80
    asm volatile("mma.sync.aligned.m16n8k16.row.col.f32.f16.f16.f32\n\t"
                 "{%0, %1, %2, %3},\n\t{%4, %5, %6, %7},\n\t{%8, %9},\n\t{%0, %1, %2, %3};"
                 : "+f"(d[0]), "+f"(d[1]), "+f"(d[2]), "+f"(d[3])
                 : "r"(a[0]), "r"(a[1]), "r"(a[2]), "r"(a[3]), "r"(b[0]), "r"(b[1]));
#endif
}

static __device__ __forceinline__ void probe_ldsm4(uint32_t *r, uint32_t addr)
{
#if PROBE_SM80
    asm volatile("ldmatrix.sync.aligned.m8n8.x4.shared.b16\n\t{%0, %1, %2, %3}, [%4];"
                 : "=r"(r[0]), "=r"(r[1]), "=r"(r[2]), "=r"(r[3])
                 : "r"(addr));
#endif
}

static __global__ void probe_one_kernel(const uint32_t *a, const uint32_t *b, const uint32_t *e, int sel, float *d)
{
    const int l = threadIdx.x;
    uint32_t ra[4], rb[4];
    float rd[4] = { 0.f, 0.f, 0.f, 0.f };
    for (int i = 0; i < 4; i++) ra[i] = a[4 * l + i], rb[i] = b[4 * l + i];
    if (sel) probe_sp<1>(rd, ra, rb, e[l]);
    else probe_sp<0>(rd, ra, rb, e[l]);
    for (int i = 0; i < 4; i++) d[4 * l + i] = rd[i];
}

cudaError_t sp24_probe_one(const uint32_t *a, const uint32_t *b, const uint32_t *e, int sel, float *d)
{
    if (sel != 0 && sel != 1) return cudaErrorInvalidValue;
    probe_one_kernel<<<1, 32>>>(a, b, e, sel, d);
    return cudaGetLastError();
}

/* The shared tile the ldmatrix-fed loops read: 16 KB of 2^-4 and a
 * metadata word per lane and m16 tile. Lane l's ldmatrix row address is
 * l * 16 bytes into a 512-byte slab (8 consecutive 16-byte rows a phase:
 * no bank conflict), one slab per fragment. */
#define PROBE_TILE 16384
#define PROBE_HALF_2M4 0x2c002c00u /* two halves of 2^-4 */
#define PROBE_META 0x44444444u     /* every group keeps positions 0 and 1 */

template <int SPARSE, int SMEM>
static __global__ void __launch_bounds__(256, 1) probe_rate_kernel(int iters, float *out)
{
    __shared__ __align__(128) uint32_t tile[PROBE_TILE / 4 + 128];
    for (int i = threadIdx.x; i < PROBE_TILE / 4; i += blockDim.x) tile[i] = PROBE_HALF_2M4;
    for (int i = threadIdx.x; i < 128; i += blockDim.x) tile[PROBE_TILE / 4 + i] = PROBE_META;
    __syncthreads();
    const int lane = (int)(threadIdx.x & 31u);
    const uint32_t base = (uint32_t)__cvta_generic_to_shared(tile) + lane * 16;
    const uint32_t *meta_s = tile + PROBE_TILE / 4;

    float acc[4][8][4];
    for (int i = 0; i < 4; i++)
        for (int j = 0; j < 8; j++) acc[i][j][0] = acc[i][j][1] = acc[i][j][2] = acc[i][j][3] = 0.f;
    uint32_t fa[4][4], fb[8][4], em[4];
    for (int i = 0; i < 4; i++) {
        em[i] = PROBE_META;
        for (int q = 0; q < 4; q++) fa[i][q] = PROBE_HALF_2M4;
    }
    for (int j = 0; j < 8; j++)
        for (int q = 0; q < 4; q++) fb[j][q] = PROBE_HALF_2M4;

#pragma unroll 1
    for (int step = 0; step < iters; ++step) {
        if (SMEM) {
#pragma unroll
            for (int i = 0; i < 4; i++) probe_ldsm4(fa[i], base + i * 512);
            if (SPARSE) {
#pragma unroll
                for (int j = 0; j < 8; j++) probe_ldsm4(fb[j], base + 2048 + j * 512);
                if ((step & 1) == 0) {
#pragma unroll
                    for (int i = 0; i < 4; i++) em[i] = meta_s[i * 32 + lane];
                }
            } else {
#pragma unroll
                for (int j = 0; j < 4; j++) probe_ldsm4(fb[2 * j], base + 2048 + j * 512);
            }
        }
#pragma unroll
        for (int i = 0; i < 4; i++)
#pragma unroll
            for (int j = 0; j < 8; j++) {
                if (SPARSE) {
                    if (step & 1) probe_sp<1>(acc[i][j], fa[i], fb[j], em[i]);
                    else probe_sp<0>(acc[i][j], fa[i], fb[j], em[i]);
                } else {
                    /* two n8 tiles a dense ldmatrix.x4 of B: registers 0-1 and 2-3 */
                    probe_dense(acc[i][j], fa[i], SMEM ? &fb[j & ~1][(j & 1) * 2] : fb[j]);
                }
            }
    }
    float sum = 0.f;
    for (int i = 0; i < 4; i++)
        for (int j = 0; j < 8; j++)
            for (int q = 0; q < 4; q++) sum += acc[i][j][q];
    out[blockIdx.x * blockDim.x + threadIdx.x] = sum;
}

cudaError_t sp24_probe_mma(int sparse, int from_smem, int blocks, int iters, float *out)
{
    if (blocks <= 0 || iters <= 0 || iters > 1 << 16) return cudaErrorInvalidValue;
    if (sparse) {
        if (from_smem) probe_rate_kernel<1, 1><<<blocks, 256>>>(iters, out);
        else probe_rate_kernel<1, 0><<<blocks, 256>>>(iters, out);
    } else {
        if (from_smem) probe_rate_kernel<0, 1><<<blocks, 256>>>(iters, out);
        else probe_rate_kernel<0, 0><<<blocks, 256>>>(iters, out);
    }
    return cudaGetLastError();
}
