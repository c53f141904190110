/* leapfrog.cu — week 19, exercise 2: kick-drift-kick leapfrog.
 *
 * Two small element-wise kernels around the force evaluation: kick + drift
 * (v += a dt/2, x += v dt) and the closing kick (v += a dt/2). They move
 * 104 bytes per body; the force kernel does n interactions per body, so for
 * any n worth simulating on a GPU the step's time is the force kernel's.
 * (The closing kick of one step and the opening kick of the next could be
 * fused into one v += a dt; kept apart here so every step ends with x, v
 * and a at the same time, which is what the energy check reads.) */
#include "leapfrog.h"
#include "nbody.h"

//@solution
static __global__ void kick_drift_kernel(float4 *__restrict__ pos, float *__restrict__ vel,
                                         const float *__restrict__ acc, int n, float half_dt, float dt)
{
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i >= n) return;
    size_t k = 3 * (size_t)i;
    float vx = fmaf(acc[k + 0], half_dt, vel[k + 0]);
    float vy = fmaf(acc[k + 1], half_dt, vel[k + 1]);
    float vz = fmaf(acc[k + 2], half_dt, vel[k + 2]);
    vel[k + 0] = vx, vel[k + 1] = vy, vel[k + 2] = vz;
    float4 p = pos[i];
    p.x = fmaf(vx, dt, p.x);
    p.y = fmaf(vy, dt, p.y);
    p.z = fmaf(vz, dt, p.z);
    pos[i] = p; /* p.w, the mass, unchanged */
}

static __global__ void kick_kernel(float *__restrict__ vel, const float *__restrict__ acc, int n3, float half_dt)
{
    int k = blockIdx.x * blockDim.x + threadIdx.x;
    if (k < n3) vel[k] = fmaf(acc[k], half_dt, vel[k]);
}
//@starter
//| /* TODO: two kernels, one thread per body (or per float):
//|  *  - kick + drift: v += a * dt/2, then x += v * dt with that new v
//|  *    (pos is float4 (x, y, z, m): leave m alone);
//|  *  - kick: v += a * dt/2 with the accelerations at the new positions. */
//@end

cudaError_t leapfrog_step(float *pos, float *vel, float *acc, int n, float dt, float eps2)
{
    //@solution
    if (n <= 0) return n < 0 ? cudaErrorInvalidValue : cudaSuccess;
    float half = 0.5f * dt;
    kick_drift_kernel<<<(n + 255) / 256, 256>>>((float4 *)pos, vel, acc, n, half, dt);
    cudaError_t e = cudaGetLastError();
    if (e != cudaSuccess) return e;
    if ((e = nbody_accel_tiled(pos, acc, n, eps2)) != cudaSuccess) return e;
    int n3 = 3 * n;
    kick_kernel<<<(n3 + 255) / 256, 256>>>(vel, acc, n3, half);
    return cudaGetLastError();
    //@starter
    //| /* TODO: launch kick + drift, call nbody_accel_tiled(pos, acc, n, eps2)
    //|  * for the new accelerations, launch the closing kick; return the first
    //|  * error (cudaGetLastError() after each launch). Nothing for n == 0. */
    //| (void)pos, (void)vel, (void)acc, (void)n, (void)dt, (void)eps2;
    //| return cudaSuccess;
    //@end
}
