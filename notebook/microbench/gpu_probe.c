/* gpu_probe.c — exit 0 when an NVIDIA GPU can be used, 1 (and say why) when not.
 *
 *   build/notebook/gpu_probe && echo "there is a GPU"
 *
 * Prints "N GPU(s): NAME" or "no NVIDIA GPU or driver found (...)" on
 * stdout. `make microbench` and `make sanitize` run it first, so that with no
 * GPU they stop with that sentence instead of a CUDA error, an empty CSV, or
 * a sanitizer report of 0 errors on tests that all skipped. */
#include <stdio.h>
#include "gpu_probe.h"

int main(void)
{
    char why[256];
    if (!gpu_present(why, sizeof why)) {
        printf("%s\n", why);
        return 1;
    }
    int count = 0;
    struct cudaDeviceProp p;
    cudaGetDeviceCount(&count);
    if (cudaGetDeviceProperties(&p, 0) != cudaSuccess) snprintf(p.name, sizeof p.name, "(name unknown)");
    printf("%d GPU%s: %s\n", count, count == 1 ? "" : "s", p.name);
    return 0;
}
