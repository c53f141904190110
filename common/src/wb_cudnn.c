/* wb_cudnn.c — find and load libcudnn.so.9 at run time (see wb_cudnn.h). */
#include "wb_cudnn.h"

#include <dlfcn.h>
#include <glob.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static void *lib;
static char lib_path[1024];

/* cuDNN 9's sub-libraries, in an order where each one's dependencies come
 * before it (a missing one is not an error: not every package ships all). */
static const char *const parts[] = {
    "libcudnn_graph.so.9", "libcudnn_engines_runtime_compiled.so.9",
    "libcudnn_engines_precompiled.so.9", "libcudnn_heuristic.so.9",
    "libcudnn_ops.so.9", "libcudnn_cnn.so.9", "libcudnn_adv.so.9",
};

static int try_dir(const char *dir, char *err, size_t n)
{
    char p[1024];
    if (snprintf(p, sizeof p, "%s/libcudnn.so.9", dir) >= (int)sizeof p) return 0;
    FILE *f = fopen(p, "rb");
    if (!f) return 0;
    fclose(f);
    for (size_t i = 0; i < sizeof parts / sizeof parts[0]; i++) {
        char q[1024];
        snprintf(q, sizeof q, "%s/%s", dir, parts[i]);
        if ((f = fopen(q, "rb"))) { fclose(f); (void)dlopen(q, RTLD_NOW | RTLD_GLOBAL); }
    }
    lib = dlopen(p, RTLD_NOW | RTLD_GLOBAL);
    if (!lib) { snprintf(err, n, "%s: %s", p, dlerror()); return 0; }
    snprintf(lib_path, sizeof lib_path, "%s", p);
    return 1;
}

int wb_cudnn_sandboxed(void)
{
    const char *s = getenv("WB_SANDBOXED");
    return s && *s && strcmp(s, "0") != 0;
}

int wb_cudnn_walk(int sandboxed, int (*visit)(const char *dir, void *ctx), void *ctx)
{
    static const char *const pats[] = {
        "/usr/local/lib/python3*/dist-packages/nvidia/cudnn/lib",
        "/usr/local/lib/python3*/site-packages/nvidia/cudnn/lib",
        "/usr/lib/python3*/dist-packages/nvidia/cudnn/lib",
        "/usr/lib/python3*/site-packages/nvidia/cudnn/lib",
        "/opt/conda/lib/python3*/site-packages/nvidia/cudnn/lib",
        "~/.local/lib/python3*/site-packages/nvidia/cudnn/lib",
    };
    for (size_t i = 0; i < sizeof pats / sizeof pats[0]; i++) {
        glob_t g;
        if (sandboxed && pats[i][0] == '~') continue;
        if (glob(pats[i], GLOB_TILDE, NULL, &g) == 0) {
            for (size_t k = 0; k < g.gl_pathc; k++)
                if (visit(g.gl_pathv[k], ctx)) { globfree(&g); return 1; }
            globfree(&g);
        }
    }
    /* last, ask the Python on PATH where its cuDNN package is (a virtual
     * environment, a conda or user install the patterns above miss);
     * sandboxed, isolated (-I): no user site folder, no current folder */
#define PY_CUDNN "-c 'import nvidia.cudnn, os; print(os.path.join(list(nvidia.cudnn.__path__)[0], \"lib\"))' 2>/dev/null"
    FILE *py = popen(sandboxed ? "python3 -I " PY_CUDNN : "python3 " PY_CUDNN, "r");
#undef PY_CUDNN
    if (py) {
        char d[900] = "";
        int got = fgets(d, sizeof d, py) != NULL;
        pclose(py);
        d[strcspn(d, "\n")] = 0;
        if (got && *d && visit(d, ctx)) return 1;
    }
    return 0;
}

struct try_ctx { char *err; size_t n; };
static int try_visit(const char *dir, void *ctx)
{
    struct try_ctx *c = ctx;
    return try_dir(dir, c->err, c->n);
}

int wb_cudnn_open(char *why, size_t n)
{
    char err[512] = "";
    if (lib) return 1;
    const char *env = getenv("WB_CUDNN_LIB");
    if (env && *env) {
        lib = dlopen(env, RTLD_NOW | RTLD_GLOBAL);
        if (lib) { snprintf(lib_path, sizeof lib_path, "%s", env); return 1; }
        snprintf(why, n, "WB_CUDNN_LIB=%s cannot be loaded: %s", env, dlerror());
        return 0;
    }
    lib = dlopen("libcudnn.so.9", RTLD_NOW | RTLD_GLOBAL);
    if (lib) {
        Dl_info info;
        void *s = dlsym(lib, "cudnnGetVersion");
        snprintf(lib_path, sizeof lib_path, "%s",
                 s && dladdr(s, &info) && info.dli_fname ? info.dli_fname : "libcudnn.so.9");
        return 1;
    }
    snprintf(err, sizeof err, "libcudnn.so.9: %s", dlerror());
    const char *dir = getenv("WB_CUDNN_DIR");
    if (dir && *dir && try_dir(dir, err, sizeof err)) return 1;
    struct try_ctx c = { err, sizeof err };
    if (wb_cudnn_walk(wb_cudnn_sandboxed(), try_visit, &c)) return 1;
    snprintf(why, n, "no loadable cuDNN 9 (set WB_CUDNN_LIB=/path/to/libcudnn.so.9); last error: %s", err);
    return 0;
}

void *wb_cudnn_sym(const char *name) { return lib ? dlsym(lib, name) : NULL; }

const char *wb_cudnn_path(void) { return lib ? lib_path : NULL; }
