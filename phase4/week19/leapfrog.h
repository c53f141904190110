/* leapfrog.h — week 19: one step of the N-body system in time.
 *
 * Kick-drift-kick leapfrog (velocity Verlet), with a_i = nbody_accel_tiled's
 * acceleration (G = 1, softening eps2):
 *
 *     v += a * dt/2        kick:  a is the acceleration at the current positions
 *     x += v * dt          drift: positions move with the half-stepped velocity
 *     a  = accel(x)        the new accelerations (nbody_accel_tiled)
 *     v += a * dt/2        kick:  with the new accelerations
 *
 * Layouts as in nbody.h: pos has 4 floats per body (x, y, z, m; the mass
 * never changes), vel and acc 3 floats per body. On entry acc must hold the
 * accelerations at pos (call nbody_accel_tiled once before the first step);
 * on return pos, vel and acc are all one step later, so steps chain. The
 * scheme is time-reversible and symplectic: the energy it conserves wobbles
 * by O(dt^2) but does not drift. One force evaluation per step.
 * n >= 0 (0: nothing to do); device pointers; launches on the default
 * stream without waiting; returns the first error. */
#ifndef LEAPFROG_H
#define LEAPFROG_H

#include <cuda_runtime_api.h>

#ifdef __cplusplus
extern "C" {
#endif

cudaError_t leapfrog_step(float *pos, float *vel, float *acc, int n, float dt, float eps2);

#ifdef __cplusplus
}
#endif
#endif
