/* judge_w17_yard_runner.c — week 17's yardstick's runner (judge_week.h,
 * jd_yard_bench): judge_runner.c, this main and the week's given
 * support/yard_cudnn_conv.o (cudnnConvolutionForward, N = C = K = 1, FP32
 * arithmetic, cross-correlation, zero padding; cuDNN loaded at run time
 * through wb_cudnn.h as the week's test loads it), instructor code only, no
 * student object: judge-w17-yard-runner, beside the judge. The judge times
 * cuDNN through it with the same protocol as the student's calls, so what
 * the protocol costs is in both figures and not in their ratio. The plan
 * (cuDNN's own algorithm search) and the workspace are made before the
 * warm-up request (jd_bench.prepare), outside any timing, as the test makes
 * them. */
#include <stdio.h>
#include <string.h>
#include <cuda_runtime_api.h>

#include "judge.h"
#include "judge_w17.h"
#include "support/yard_cudnn_conv.h"

static yard_conv_algo g_algo;
static void          *g_ws;
static int            g_ready;

/* p[0] weights (host), i64[1] k, i64[2] width, i64[3] height, i64[4] which usable algorithm */
static int plan(const jr_args *a)
{
    w17_yard_plan p;
    memset(&p, 0, sizeof p);
    yard_conv_algo algos[8];
    int found = 0, rc = -1;
    if (!yard_cudnn_conv_open(p.why, sizeof p.why)) goto out;
    if (yard_cudnn_conv_plan((int)a->i64[2], (int)a->i64[3], (const float *)a->p[0], (int)a->i64[1], algos,
                             (int)(sizeof algos / sizeof *algos), &found, p.why, sizeof p.why) != 0)
        goto out;
    for (int i = 0; i < found; i++) {
        if (algos[i].too_slow) continue;
        if (p.usable++ == a->i64[4]) g_algo = algos[i];
    }
    if (a->i64[4] < 0 || a->i64[4] >= p.usable) {
        snprintf(p.why, sizeof p.why, "no algorithm %lld of the %d cuDNN offers", a->i64[4], p.usable);
        goto out;
    }
    snprintf(p.name, sizeof p.name, "%s", g_algo.name);
    p.find_ms = g_algo.find_ms;
    if (g_ws) cudaFree(g_ws), g_ws = NULL;
    if (g_algo.workspace && cudaMalloc(&g_ws, g_algo.workspace) != cudaSuccess) {
        (void)cudaGetLastError();
        snprintf(p.why, sizeof p.why, "%s: no room for its %.0f MB workspace", g_algo.name, g_algo.workspace / 1e6);
        goto out;
    }
    g_ready = 1, rc = 0;
out:
    memcpy(a->out, &p, sizeof p), *a->out_len = sizeof p;
    if (rc) fprintf(stderr, "judge-w17-yard-runner: %s\n", p.why);
    return rc;
}

/* p[0] in, p[1] out */
static int conv(const jr_args *a)
{
    char why[300];
    if (!g_ready) return fprintf(stderr, "judge-w17-yard-runner: no plan\n"), -1;
    if (yard_cudnn_conv((const float *)a->p[0], (float *)a->p[1], &g_algo, g_ws, why, sizeof why) != 0)
        return fprintf(stderr, "judge-w17-yard-runner: %s\n", why), -1;
    return 0;
}

JR_MAIN({ W17_FN_CONV_SET, "yard_cudnn_conv_plan", plan }, { W17_FN_CONV_RUN, "cudnnConvolutionForward", conv })
