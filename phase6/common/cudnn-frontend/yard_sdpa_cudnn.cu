/* yard_sdpa_cudnn.cu — see yard_sdpa_cudnn.h. The yardstick of w38.fwd-speed and w62.fwd-speed.
 *
 * cuDNN's fused attention is a graph (Q, K, V -> SDPA -> O) that only the
 * cuDNN frontend (C++ headers, mk/needs-cudnn-frontend.mk) builds. The test
 * must start on a machine without cuDNN, so no cuDNN library is linked:
 *   - wb_cudnn_open (wb_cudnn.h) finds and loads libcudnn.so.9 (and its
 *     sub-libraries) with RTLD_GLOBAL;
 *   - the frontend, built with NV_CUDNN_FRONTEND_USE_DYNAMIC_LOADING, calls
 *     cuDNN through dlsym(cudnn_frontend::cudnn_dlhandle, name): it opens no
 *     cuDNN itself, the handle is ours to set. We set it to the library
 *     wb_cudnn_open loaded, reopened by its full path with RTLD_NOLOAD (the
 *     same handle, no second copy).
 *   - in that mode the frontend also calls a few CUDA runtime functions
 *     through a libcudart.so it dlopens by name (libcudart.so.12, then .13;
 *     or CUDNN_FRONTEND_CUDART_LIB_NAME). The test links the static runtime,
 *     so unless that variable is set we point it at a libcudart.so.13 we can
 *     open (the loader's search, then $CUDA_HOME/lib64 and /usr/local/cuda),
 *     so the frontend neither fails nor picks a CUDA 12 runtime. Both runtimes
 *     use the device's primary context: the pointers are the same.
 * Every frontend call sits in a try block: an exception becomes a reason. */
/* Host code only: the device pass of nvcc skips the file (the frontend is
 * large and has no device code). */
#if !defined(__CUDA_ARCH__)

#define NV_CUDNN_FRONTEND_USE_DYNAMIC_LOADING
/* the frontend's own warnings are not ours to fix */
#pragma nv_diag_suppress 128
#pragma nv_diag_suppress 2810
#pragma GCC diagnostic push
#pragma GCC diagnostic ignored "-Wunused-function"
#include <cudnn_frontend.h>
#pragma GCC diagnostic pop

#include <dlfcn.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <memory>
#include <string>
#include <vector>

#include <cuda_runtime.h>
#include "wb_cudnn.h"
#include "yard_sdpa_cudnn.h"

/* The frontend's handle on cuDNN (declared extern in cudnn_frontend_shim.h). */
namespace cudnn_frontend {
void *cudnn_dlhandle = nullptr;
}
namespace fe = cudnn_frontend;

namespace {

struct Plan {
    int B, H, S, D, causal;
    float scale;
    std::shared_ptr<fe::graph::Graph> graph;
    void *ws;
};

cudnnHandle_t g_handle = nullptr;
int g_state = 0; /* 0 not tried, 1 ready, -1 failed (g_why says why) */
std::string g_why;
std::vector<Plan> g_plans;

enum { UID_Q = 1, UID_K = 2, UID_V = 3, UID_O = 4 };

void say(char *why, size_t n, const std::string &s)
{
    if (why && n) snprintf(why, n, "%s", s.c_str());
}

/* A libcudart.so.13 for the frontend's own runtime calls (see above). */
void choose_cudart()
{
    if (getenv("CUDNN_FRONTEND_CUDART_LIB_NAME")) return;
    std::vector<std::string> tries = { "libcudart.so.13" };
    if (const char *home = getenv("CUDA_HOME")) tries.push_back(std::string(home) + "/lib64/libcudart.so.13");
    tries.push_back("/usr/local/cuda/lib64/libcudart.so.13");
    tries.push_back("/usr/local/cuda/targets/x86_64-linux/lib/libcudart.so.13");
    for (const std::string &t : tries) {
        void *h = dlopen(t.c_str(), RTLD_NOW | RTLD_LOCAL);
        if (h) { /* keep it open: the frontend opens the same file again */
            setenv("CUDNN_FRONTEND_CUDART_LIB_NAME", t.c_str(), 0);
            return;
        }
    }
    /* none: the frontend tries its own names and says what failed */
}

bool setup(std::string &why)
{
    if (g_state == 1) return true;
    if (g_state == -1) return why = g_why, false;
    g_state = -1;
    char buf[512] = "";
    if (!wb_cudnn_open(buf, sizeof buf)) {
        g_why = std::string("cuDNN is not loadable: ") + buf;
        return why = g_why, false;
    }
    void *h = dlopen(wb_cudnn_path(), RTLD_NOW | RTLD_NOLOAD);
    if (!h) {
        g_why = std::string("cuDNN was loaded but cannot be reopened for the frontend: ") + dlerror();
        return why = g_why, false;
    }
    fe::cudnn_dlhandle = h;
    choose_cudart();
    try {
        cudnnStatus_t st = fe::detail::create_handle(&g_handle);
        if (st != CUDNN_STATUS_SUCCESS) {
            g_why = "cudnnCreate failed with status " + std::to_string((int)st);
            return why = g_why, false;
        }
        st = fe::detail::set_stream(g_handle, (cudaStream_t)0);
        if (st != CUDNN_STATUS_SUCCESS) {
            g_why = "cudnnSetStream failed with status " + std::to_string((int)st);
            return why = g_why, false;
        }
    } catch (const std::exception &e) {
        g_why = std::string("cuDNN frontend: ") + e.what();
        return why = g_why, false;
    }
    g_state = 1;
    return true;
}

#define FE_TRY(step, call)                                                                        \
    do {                                                                                          \
        auto err_ = (call);                                                                       \
        if (!err_.is_good()) {                                                                    \
            why = std::string("cuDNN SDPA graph, ") + (step) + ": " + err_.get_message();         \
            return nullptr;                                                                       \
        }                                                                                         \
    } while (0)

/* The cached plan for a shape, built on first use; nullptr and why if cuDNN cannot. */
Plan *plan_for(int B, int H, int S, int D, int causal, float scale, std::string &why)
{
    if (!setup(why)) return nullptr;
    for (Plan &p : g_plans)
        if (p.B == B && p.H == H && p.S == S && p.D == D && p.causal == causal && p.scale == scale) return &p;
    try {
        auto g = std::make_shared<fe::graph::Graph>();
        g->set_io_data_type(fe::DataType_t::BFLOAT16)
            .set_intermediate_data_type(fe::DataType_t::FLOAT)
            .set_compute_data_type(fe::DataType_t::FLOAT);
        std::vector<int64_t> dim = { B, H, S, D };
        std::vector<int64_t> str = { (int64_t)H * S * D, (int64_t)S * D, D, 1 };
        auto q = g->tensor(fe::graph::Tensor_attributes().set_name("Q").set_uid(UID_Q).set_dim(dim).set_stride(str));
        auto k = g->tensor(fe::graph::Tensor_attributes().set_name("K").set_uid(UID_K).set_dim(dim).set_stride(str));
        auto v = g->tensor(fe::graph::Tensor_attributes().set_name("V").set_uid(UID_V).set_dim(dim).set_stride(str));
        auto opt = fe::graph::SDPA_attributes().set_name("sdpa").set_generate_stats(false).set_attn_scale(scale);
        if (causal) /* key j masked for query i when j > i: the top-left diagonal, right bound 0 */
            opt.set_diagonal_alignment(fe::DiagonalAlignment_t::TOP_LEFT).set_diagonal_band_right_bound(0);
        auto outs = g->sdpa(q, k, v, opt);
        outs[0]->set_output(true).set_uid(UID_O).set_dim(dim).set_stride(str);
        FE_TRY("validate", g->validate());
        FE_TRY("build_operation_graph", g->build_operation_graph(g_handle));
        FE_TRY("create_execution_plans", g->create_execution_plans({ fe::HeurMode_t::A }));
        FE_TRY("check_support", g->check_support(g_handle));
        FE_TRY("build_plans", g->build_plans(g_handle));
        int64_t ws_bytes = 0;
        FE_TRY("get_workspace_size", g->get_workspace_size(ws_bytes));
        void *ws = nullptr;
        if (ws_bytes > 0 && cudaMalloc(&ws, (size_t)ws_bytes) != cudaSuccess) {
            cudaGetLastError();
            why = "cuDNN SDPA: no device memory for its workspace of " + std::to_string(ws_bytes) + " bytes";
            return nullptr;
        }
        g_plans.push_back(Plan{ B, H, S, D, causal, scale, g, ws });
        return &g_plans.back();
    } catch (const std::exception &e) {
        why = std::string("cuDNN frontend: ") + e.what();
        return nullptr;
    }
}

} // namespace

extern "C" int yard_sdpa_cudnn_prepare(int B, int H, int S, int D, int causal, float scale, char *why, size_t why_size)
{
    std::string w;
    if (plan_for(B, H, S, D, causal, scale, w)) return 1;
    say(why, why_size, w);
    return 0;
}

extern "C" int yard_sdpa_cudnn_fwd(const uint16_t *Q, const uint16_t *K, const uint16_t *V, uint16_t *O, int B, int H,
                                   int S, int D, int causal, float scale, char *why, size_t why_size)
{
    std::string w;
    Plan *p = plan_for(B, H, S, D, causal, scale, w);
    if (!p) return say(why, why_size, w), 0;
    try {
        std::unordered_map<int64_t, void *> pack = {
            { UID_Q, (void *)Q }, { UID_K, (void *)K }, { UID_V, (void *)V }, { UID_O, (void *)O } };
        auto err = p->graph->execute(g_handle, pack, p->ws);
        if (!err.is_good()) return say(why, why_size, "cuDNN SDPA execute: " + err.get_message()), 0;
    } catch (const std::exception &e) {
        return say(why, why_size, std::string("cuDNN frontend: ") + e.what()), 0;
    }
    return 1;
}

extern "C" void yard_sdpa_cudnn_release(void)
{
    for (Plan &p : g_plans)
        if (p.ws) cudaFree(p.ws);
    g_plans.clear();
    if (g_handle) {
        try {
            (void)fe::detail::destroy_handle(g_handle);
        } catch (const std::exception &) {
        }
        g_handle = nullptr;
    }
    if (g_state == 1) g_state = 0;
}

#endif /* !__CUDA_ARCH__ */
