/* stencil.cu — week 19, exercise 4: a 3-D 7-point Jacobi stencil, three ways.
 *
 * One interior cell: 6 additions and 2 multiplies (8 flops) for 4 bytes read
 * and 4 written, if every input is read from DRAM once: 1 flop a byte, far
 * below any GPU's ridge point. All three versions are memory-bound, and the
 * question is how close each comes to moving the grid once each way.
 *
 * naive:  one thread a cell, seven loads from global memory. The six
 *    neighbours mostly hit in L1 or L2 (other threads' loads brought them
 *    in), but every one is an instruction and a trip through the caches.
 * tiled:  a block of ST_BX x ST_BY threads stages its x-y tile of plane z in
 *    shared memory, plus a one-cell halo that the tile's edge threads load;
 *    the four x-y neighbours then come from shared memory, z - 1 and z + 1
 *    still from global memory (they are other blocks' tiles).
 * stream: a block owns an x-y tile and a run of up to ST_ZRUN planes; each
 *    thread walks z with in[z-1], in[z], in[z+1] of its own column in
 *    registers, and the block shares plane z (tile and halo) through shared
 *    memory. Each input value is loaded once by its own thread, the halo
 *    once a plane; the loads are asynchronous copies into a ring of shared
 *    planes, issued ST_DEPTH planes ahead, so each thread keeps several in
 *    flight while it computes. */
#include <stddef.h>

#include <cuda_pipeline.h>

#include "stencil.h"

#define ST_BX 32    /* tile width: one warp, one 128-byte row segment */
#define ST_BY 8     /* tile height: 256 threads a block */
#define ST_ZRUN 64  /* at most this many planes a streaming block walks */
#define ST_DEPTH 4  /* planes in flight ahead of the streaming kernel */
#define ST_STAGES (ST_DEPTH + 2)

//@solution
/* The one update, shared by the three kernels so that they agree bit for bit. */
static __device__ __forceinline__ float st_point(float c0, float c1, float c, float xm, float xp, float ym, float yp,
                                                 float zm, float zp)
{
    return fmaf(c1, ((xm + xp) + (ym + yp)) + (zm + zp), c0 * c);
}

static __global__ void __launch_bounds__(ST_BX *ST_BY)
stencil_naive_kernel(const float *__restrict__ in, float *__restrict__ out, int nx, int ny, int nz, float c0, float c1)
{
    const int x = blockIdx.x * ST_BX + threadIdx.x, y = blockIdx.y * ST_BY + threadIdx.y;
    if (x >= nx || y >= ny) return;
    const ptrdiff_t sy = nx, sz = (ptrdiff_t)nx * ny;
    const bool inner_xy = x > 0 && x < nx - 1 && y > 0 && y < ny - 1;
    for (int z = blockIdx.z; z < nz; z += gridDim.z) {
        const ptrdiff_t c = z * sz + y * sy + x;
        float v = in[c];
        if (inner_xy && z > 0 && z < nz - 1)
            v = st_point(c0, c1, v, in[c - 1], in[c + 1], in[c - sy], in[c + sy], in[c - sz], in[c + sz]);
        out[c] = v;
    }
}

static __global__ void __launch_bounds__(ST_BX *ST_BY)
stencil_tiled_kernel(const float *__restrict__ in, float *__restrict__ out, int nx, int ny, int nz, float c0, float c1)
{
    __shared__ float s[ST_BY + 2][ST_BX + 2];
    const int tx = threadIdx.x, ty = threadIdx.y;
    const int x = blockIdx.x * ST_BX + tx, y = blockIdx.y * ST_BY + ty;
    const bool inside = x < nx && y < ny;
    const bool inner_xy = inside && x > 0 && x < nx - 1 && y > 0 && y < ny - 1;
    const ptrdiff_t sz = (ptrdiff_t)nx * ny, col = inside ? (ptrdiff_t)y * nx + x : 0;
    for (int z = blockIdx.z; z < nz; z += gridDim.z) {
        const float *p = in + z * sz + col;
        const bool inner = inner_xy && z > 0 && z < nz - 1;
        /* z - 1 and z + 1 first, so their loads are in flight with the tile's */
        float zm = 0.0f, zp = 0.0f;
        if (inner) zm = p[-sz], zp = p[sz];
        const float v = inside ? p[0] : 0.0f;
        s[ty + 1][tx + 1] = v;
        /* The halo: each edge thread loads the cell beyond it when that cell
         * is in the grid. An interior cell's neighbours always are, and a
         * halo slot left stale is read only for boundary cells, which copy. */
        if (inside) {
            if (tx == 0 && x > 0) s[ty + 1][0] = p[-1];
            if (tx == ST_BX - 1 && x + 1 < nx) s[ty + 1][ST_BX + 1] = p[1];
            if (ty == 0 && y > 0) s[0][tx + 1] = p[-nx];
            if (ty == ST_BY - 1 && y + 1 < ny) s[ST_BY + 1][tx + 1] = p[nx];
        }
        __syncthreads();
        if (inside)
            out[z * sz + col] = inner ? st_point(c0, c1, v, s[ty + 1][tx], s[ty + 1][tx + 2], s[ty][tx + 1],
                                                 s[ty + 2][tx + 1], zm, zp)
                                      : v;
        __syncthreads(); /* everyone has read the tile before the next plane overwrites it */
    }
}

/* Blocks of ST_BX x ST_BY threads; block (bx, by, r) writes the tile
 * (bx, by) of planes [r zrun, min((r + 1) zrun, nz)).
 *
 * The planes come through a ring of ST_STAGES shared-memory slots, each a
 * tile with its halo, filled by asynchronous copies (cp.async, through the
 * pipeline primitives of cuda_pipeline.h) issued ST_DEPTH planes ahead: a
 * thread starts the copy of its own cell (and a halo cell) of plane z +
 * ST_DEPTH + 1, then waits only for plane z + 1. Loading planes ahead into
 * registers instead does not work here: __syncthreads() orders memory like
 * membar.cta (PTX ISA, bar.sync), so every load issued before it must be
 * performed before the thread goes on, and the barrier once a plane would
 * wait for all of them. An asynchronous copy is waited for only by
 * __pipeline_wait_prior (cp.async.wait_group), so it stays in flight.
 * Each thread keeps in[z-1], in[z], in[z+1] of its column in registers
 * (prev, cur, next); the four x-y neighbours come from slot z. */
static __global__ void __launch_bounds__(ST_BX *ST_BY)
stencil_stream_kernel(const float *__restrict__ in, float *__restrict__ out, int nx, int ny, int nz, int zrun,
                      int nruns, float c0, float c1)
{
    /* Slot of plane j (j = 0 is z0 - 1) is j % ST_STAGES. At step i (output
     * plane z0 + i) the threads read slots i + 1 (the plane) and i + 2 (next)
     * and start filling slot i + ST_DEPTH + 1 = i - 1: the slot read at
     * step i - 2, which every thread has left (it passed step i - 1's
     * barrier). ST_DEPTH + 2 slots are the fewest that keep those apart. */
    __shared__ float s[ST_STAGES][ST_BY + 2][ST_BX + 2];
    const int tx = threadIdx.x, ty = threadIdx.y, t = ty * ST_BX + tx;
    const int x0 = blockIdx.x * ST_BX, y0 = blockIdx.y * ST_BY, x = x0 + tx, y = y0 + ty;
    const bool inside = x < nx && y < ny;
    const bool inner_xy = inside && x > 0 && x < nx - 1 && y > 0 && y < ny - 1;
    const ptrdiff_t sz = (ptrdiff_t)nx * ny;
    const float *col = in + (inside ? (ptrdiff_t)y * nx + x : 0);
    float *ocol = out + (inside ? (ptrdiff_t)y * nx + x : 0);
    /* The halo, 2 ST_BX + 2 ST_BY cells a plane (the corners are not
     * needed): threads 0-31 copy the row above the tile, 32-63 the row below
     * it, 64-71 the column to its left, 72-79 the column to its right, each
     * to s[.][hy][hx]. A halo cell off the grid is not copied: its slot is
     * read only by boundary cells, which copy their own value. */
    int hx = -1, hy = 0;
    if (t < 2 * ST_BX) {
        hx = t % ST_BX + 1, hy = t < ST_BX ? 0 : ST_BY + 1;
    } else if (t < 2 * ST_BX + 2 * ST_BY) {
        const int k = t - 2 * ST_BX;
        hx = k < ST_BY ? 0 : ST_BX + 1, hy = k % ST_BY + 1;
    }
    const int gx = x0 + hx - 1, gy = y0 + hy - 1;
    const bool halo = hx >= 0 && gx >= 0 && gx < nx && gy >= 0 && gy < ny;
    const float *hcol = in + (halo ? (ptrdiff_t)gy * nx + gx : 0);

    for (int r = blockIdx.z; r < nruns; r += gridDim.z) {
        const int z0 = r * zrun, z1 = min(z0 + zrun, nz), steps = z1 - z0;
        /* Start the copy of plane j = z - (z0 - 1) into its slot, and close
         * its group (an empty group past the planes this run reads, so that
         * every step waits for the same count). */
        auto fetch = [&](int j, int slot) {
            const int z = z0 - 1 + j;
            if (j <= steps + 1 && z >= 0 && z < nz) {
                if (inside) __pipeline_memcpy_async(&s[slot][ty + 1][tx + 1], col + z * sz, 4);
                if (halo) __pipeline_memcpy_async(&s[slot][hy][hx], hcol + z * sz, 4);
            }
            __pipeline_commit();
        };
#pragma unroll
        for (int j = 0; j <= ST_DEPTH; j++) fetch(j, j);
        __pipeline_wait_prior(ST_DEPTH - 1); /* planes 0 and 1 have landed */
        /* a thread reads its own cell of plane 0 and 1: its own copies */
        float prev = s[0][ty + 1][tx + 1], cur = s[1][ty + 1][tx + 1];
        int sc = 1, sn = 2, sw = ST_DEPTH + 1; /* slots of plane i + 1, i + 2, i + ST_DEPTH + 1 */
        for (int i = 0; i < steps; i++) {
            fetch(i + ST_DEPTH + 1, sw);
            __pipeline_wait_prior(ST_DEPTH - 1); /* plane i + 2 has landed (this thread's copies) */
            __syncthreads();                     /* ... and everyone's */
            const float next = s[sn][ty + 1][tx + 1];
            const int z = z0 + i;
            if (inside)
                ocol[z * sz] = inner_xy && z > 0 && z < nz - 1
                                   ? st_point(c0, c1, cur, s[sc][ty + 1][tx], s[sc][ty + 1][tx + 2], s[sc][ty][tx + 1],
                                              s[sc][ty + 2][tx + 1], prev, next)
                                   : cur;
            prev = cur, cur = next;
            sc = sn, sn = sn + 1 == ST_STAGES ? 0 : sn + 1, sw = sw + 1 == ST_STAGES ? 0 : sw + 1;
        }
        __pipeline_wait_prior(0);
        __syncthreads(); /* the next run starts again at slot 0 */
    }
}
//@starter
//| /* TODO: three kernels, each computing the header's update (interior
//|  * cells) or copying the cell (boundary cells). Write the update once as a
//|  * __device__ __forceinline__ function and call it from all three.
//|  *  - naive: blocks of ST_BX x ST_BY threads, one thread a cell of plane
//|  *    z = blockIdx.z (loop z += gridDim.z), all seven loads from in[].
//|  *  - tiled: the same blocks; __shared__ float s[ST_BY + 2][ST_BX + 2]:
//|  *    each thread stores its cell at s[ty + 1][tx + 1], the threads on the
//|  *    tile's edges also the cell beyond them (the halo), __syncthreads(),
//|  *    then x and y neighbours from s, z - 1 and z + 1 from in[];
//|  *    __syncthreads() again before the next plane.
//|  *  - stream: a block owns tile (blockIdx.x, blockIdx.y) for a run of
//|  *    planes; each thread keeps prev, cur, next of its column in
//|  *    registers and walks z: store cur (and a halo cell) into the shared
//|  *    plane, __syncthreads(), compute, shift prev <- cur <- next, load the
//|  *    next one. Then, for speed, keep ST_DEPTH planes in flight: copy them
//|  *    into a ring of ST_STAGES shared planes with __pipeline_memcpy_async
//|  *    (cuda_pipeline.h) rather than loading them into registers.
//|  * README.md, "The stencil" and what follows it, walks through each one. */
//@end

/* 1 when the sizes are valid and there is work, 0 when there is none; an
 * error in *e when they are invalid. */
static int st_work(int nx, int ny, int nz, cudaError_t *e)
{
    *e = cudaSuccess;
    if (nx < 0 || ny < 0 || nz < 0 || ny > STENCIL_MAX_NY) {
        *e = cudaErrorInvalidValue;
        return 0;
    }
    return nx > 0 && ny > 0 && nz > 0;
}

cudaError_t stencil_naive(const float *in, float *out, int nx, int ny, int nz, float c0, float c1)
{
    //@solution
    cudaError_t e;
    if (!st_work(nx, ny, nz, &e)) return e;
    dim3 grid((nx + ST_BX - 1) / ST_BX, (ny + ST_BY - 1) / ST_BY, nz < 65535 ? nz : 65535);
    stencil_naive_kernel<<<grid, dim3(ST_BX, ST_BY)>>>(in, out, nx, ny, nz, c0, c1);
    return cudaGetLastError();
    //@starter
    //| /* TODO: blocks of (ST_BX, ST_BY), a grid of ceil(nx / ST_BX) x
    //|  * ceil(ny / ST_BY) x min(nz, 65535); return cudaGetLastError(). */
    //| (void)in, (void)out, (void)nx, (void)ny, (void)nz, (void)c0, (void)c1;
    //| (void)st_work;
    //| return cudaSuccess;
    //@end
}

cudaError_t stencil_tiled(const float *in, float *out, int nx, int ny, int nz, float c0, float c1)
{
    //@solution
    cudaError_t e;
    if (!st_work(nx, ny, nz, &e)) return e;
    dim3 grid((nx + ST_BX - 1) / ST_BX, (ny + ST_BY - 1) / ST_BY, nz < 65535 ? nz : 65535);
    stencil_tiled_kernel<<<grid, dim3(ST_BX, ST_BY)>>>(in, out, nx, ny, nz, c0, c1);
    return cudaGetLastError();
    //@starter
    //| /* TODO: the same grid as stencil_naive (the kernel assumes blockDim is
    //|  * exactly (ST_BX, ST_BY)). */
    //| (void)in, (void)out, (void)nx, (void)ny, (void)nz, (void)c0, (void)c1;
    //| return cudaSuccess;
    //@end
}

cudaError_t stencil_stream(const float *in, float *out, int nx, int ny, int nz, float c0, float c1)
{
    //@solution
    cudaError_t e;
    if (!st_work(nx, ny, nz, &e)) return e;
    /* runs of equal length, at most ST_ZRUN planes: nz = 400 is 7 runs of 58
     * (the last 52), not 6 of 64 and one of 16 */
    int nruns = (nz + ST_ZRUN - 1) / ST_ZRUN, zrun = (nz + nruns - 1) / nruns;
    nruns = (nz + zrun - 1) / zrun;
    dim3 grid((nx + ST_BX - 1) / ST_BX, (ny + ST_BY - 1) / ST_BY, nruns < 65535 ? nruns : 65535);
    stencil_stream_kernel<<<grid, dim3(ST_BX, ST_BY)>>>(in, out, nx, ny, nz, zrun, nruns, c0, c1);
    return cudaGetLastError();
    //@starter
    //| /* TODO: split z into runs of at most ST_ZRUN planes, one block per
    //|  * (x tile, y tile, run). */
    //| (void)in, (void)out, (void)nx, (void)ny, (void)nz, (void)c0, (void)c1;
    //| return cudaSuccess;
    //@end
}
