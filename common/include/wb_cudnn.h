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
 * Under the grader's sandbox (WB_SANDBOXED=1, set by instructor/sandbox.c
 * for everything it runs) HOME is the submission's scratch tree, which an
 * earlier run could have written: nothing under HOME is searched, and the
 * python3 asked runs isolated (-I: no user site folder, no current folder).
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

/* 1 when this process runs under the grader's sandbox (WB_SANDBOXED set,
 * not "0"): the search then skips every folder under HOME. */
int wb_cudnn_sandboxed(void);

/* Step 3's folders after $WB_CUDNN_DIR, in order, each passed to visit
 * (which returns 1 to stop there); returns 1 when visit stopped it. None
 * under HOME when sandboxed, and python3 then runs isolated (-I). */
int wb_cudnn_walk(int sandboxed, int (*visit)(const char *dir, void *ctx), void *ctx);

/* A symbol of the loaded cuDNN, or NULL (also before a successful open). */
void *wb_cudnn_sym(const char *name);

/* The file that was loaded, or NULL. */
const char *wb_cudnn_path(void);

#ifdef __cplusplus
}
#endif
#endif
