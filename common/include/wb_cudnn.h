/* wb_cudnn.h — cuDNN as a yardstick, loaded at run time.
 *
 * A week that measures against cuDNN (week.txt: `needs: cudnn`) links no
 * cuDNN library: its test would not start on a machine without one, and a
 * test that cannot start says nothing useful. It includes <cudnn.h> for the
 * types only (mk/needs-cudnn.mk puts it on the include path) and calls cuDNN
 * through pointers from wb_cudnn_sym():
 *
 *     typedef cudnnStatus_t (*create_fn)(cudnnHandle_t *);
 *     char why[256];
 *     if (!wb_cudnn_open(why, sizeof why)) wb_skip_test("cuDNN: %s", why);
 *     create_fn create = (create_fn)wb_cudnn_sym("cudnnCreate");
 *
 * Where libcudnn.so.9 is looked for, in order:
 *   1. $WB_CUDNN_LIB, a path to libcudnn.so.9 (nothing else is tried);
 *   2. the loader's own search: LD_LIBRARY_PATH, ldconfig's cache (the CUDA
 *      toolkit's cuDNN, a distribution package);
 *   3. the cuDNN of a Python environment (the PyPI package nvidia-cudnn-cu*,
 *      which torch installs): nvidia/cudnn/lib under the usual site-packages
 *      and dist-packages folders, under $WB_CUDNN_DIR if set, and last where
 *      the python3 on PATH says its nvidia.cudnn package is.
 * cuDNN 9 is a small dispatcher that opens its sub-libraries
 * (libcudnn_graph, libcudnn_ops, ...) by name when first used; in a Python
 * folder those are not on the loader's path, so they are opened first, from
 * the same folder, with RTLD_GLOBAL, and the dispatcher then finds them
 * already loaded. The library stays loaded for the life of the process. */
#ifndef WB_CUDNN_H
#define WB_CUDNN_H

#include <stddef.h>

#ifdef __cplusplus
extern "C" {
#endif

/* 1 when cuDNN is loaded (calling it again is cheap); 0 when it cannot be,
 * with the reason in why (one line: what was tried, what failed). */
int wb_cudnn_open(char *why, size_t n);

/* A symbol of the loaded cuDNN, or NULL (also before a successful open). */
void *wb_cudnn_sym(const char *name);

/* The file that was loaded, or NULL. */
const char *wb_cudnn_path(void);

#ifdef __cplusplus
}
#endif
#endif
