/* yard_multitensor.h — week 51's yardstick MULTITENSOR (support, not an
 * exercise): the same momentum SGD step as momentum_step, over every tensor
 * of the set in one kernel launch.
 *
 * The host packs a table of the tensors' pointers and sizes into the
 * kernel's arguments; each block finds its tensor in the table and updates
 * one chunk of it (the "multi-tensor apply" of PyTorch's foreach optimizers
 * and apex's multi_tensor_apply). One launch a step whatever the number of
 * tensors, up to 64 a launch: a larger set takes a launch for every 64. */
#ifndef W51_YARD_MULTITENSOR_H
#define W51_YARD_MULTITENSOR_H

#include <cuda_runtime_api.h>
#include "momentum.h"

#ifdef __cplusplus
extern "C" {
#endif

/* v = mu v + g, then p = p - lr v, for every element of every tensor of the
 * set, enqueued on stream s; tensors of 0 floats are skipped. */
cudaError_t yard_multitensor_step(const opt_set *set, float lr, float mu, cudaStream_t s);

#ifdef __cplusplus
}
#endif
#endif
