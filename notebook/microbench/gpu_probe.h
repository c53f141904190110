/* gpu_probe.h — is there an NVIDIA GPU this process can use?
 *
 * Asks the CUDA runtime itself (cudaGetDeviceCount), so the answer is the one
 * the programs that follow will get: it fails with cudaErrorNoDevice when
 * there is no GPU, with cudaErrorInsufficientDriver when there is no driver
 * (or one older than the runtime), and it honours CUDA_VISIBLE_DEVICES.
 * nvidia-smi would answer a different question (it can be missing where a
 * GPU works, and list a GPU this runtime cannot use). Used by the
 * microbenchmarks and by gpu_probe.c (`make microbench`, `make sanitize`). */
#ifndef GPU_PROBE_H
#define GPU_PROBE_H

#include <stdio.h>
#include <cuda_runtime_api.h>

/* 1 when a GPU can be used; otherwise 0 and why in `why`. */
static inline int gpu_present(char *why, size_t size)
{
    int count = 0;
    cudaError_t e = cudaGetDeviceCount(&count);
    if (e != cudaSuccess)
        snprintf(why, size, "no NVIDIA GPU or driver found (cudaGetDeviceCount: %s)", cudaGetErrorString(e));
    else if (count == 0)
        snprintf(why, size, "no NVIDIA GPU or driver found (cudaGetDeviceCount: 0 devices)");
    return e == cudaSuccess && count > 0;
}

#endif
