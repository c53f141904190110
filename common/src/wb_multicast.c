/* wb_multicast.c — see wb_multicast.h. */
#include "wb_multicast.h"

#include <stdlib.h>
#include <string.h>

const char *const wb_multicast_off_env[] = {
    "NCCL_NVLS_ENABLE=0",
    "TORCH_SYMM_MEM_DISABLE_MULTICAST=1",
    "NVSHMEM_DISABLE_NVLS=1",
    NULL,
};

void wb_multicast_off(void)
{
    for (int i = 0; wb_multicast_off_env[i]; i++) {
        char name[64];
        const char *eq = strchr(wb_multicast_off_env[i], '=');
        size_t n = (size_t)(eq - wb_multicast_off_env[i]);
        memcpy(name, wb_multicast_off_env[i], n);
        name[n] = 0;
        setenv(name, eq + 1, 1);
    }
}
