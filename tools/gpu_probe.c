/* gpu_probe.c — exit 0 when the CUDA runtime sees a GPU this process can
 * use, 1 (and say why not) when not: wb_gpu_probe (wb_cuda.h) as a program.
 *
 *   build/gpu-probe && echo "there is a GPU"
 *
 * Prints "N GPU(s): NAME" or the reason ("no NVIDIA GPU or driver found on
 * this machine (...)", "WB_NO_GPU=1 is set") on stdout. `make sanitize`,
 * `make microbench` and `make regress` run it first, so that with no GPU
 * they stop with that sentence instead of a CUDA error, an empty CSV, or a
 * sanitizer report of 0 errors on tests that all skipped; the grader runs
 * it to know whether the host has a GPU without starting CUDA itself. */
#include <stdio.h>

#include "wb_cuda.h"

int main(void)
{
    char what[256];
    int count = wb_gpu_probe(what, sizeof what);
    if (count == 0) {
        printf("%s\n", what);
        return 1;
    }
    printf("%d GPU%s: %s\n", count, count == 1 ? "" : "s", *what ? what : "(name unknown)");
    return 0;
}
