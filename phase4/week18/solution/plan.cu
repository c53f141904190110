/* plan.cu — week 18, exercise 5: the whole network, through one memory
 * plan (plan.h).
 *
 * An inference engine decides before the first request where every tensor
 * will live. For a chain of layers two buffers are enough: layer l reads
 * what layer l - 1 wrote and writes the other buffer, so at any moment one
 * holds the input of the running layer and the other its output. The
 * workspace is sized once for the largest batch, never allocated in the hot
 * path (cudaMalloc synchronises the device and costs far more than a small
 * layer). */
#include "plan.h"
#include "fp32.h"
#include "fp16.h"
#include "int8.h"

size_t plan_mlp_bytes(const int *dims, int n_layers, int batch)
{
    //@solution
    if (batch <= 0 || n_layers <= 1) return 0;
    size_t widest = 0;
    for (int l = 1; l < n_layers; l++)
        if ((size_t)dims[l] > widest) widest = (size_t)dims[l];
    return 2 * (size_t)batch * widest * sizeof(float);
    //@starter
    //| /* TODO: the peak of the plan (plan.h): two buffers, each batch x the
    //|  * widest hidden layer (dims[1] .. dims[n_layers - 1]) of floats. */
    //| (void)dims, (void)n_layers, (void)batch;
    //| return 0;
    //@end
}

cudaError_t plan_mlp_forward(const mlp_dev *m, int prec, const float *x, int batch, float *logits, int *pred,
                             void *work, size_t work_bytes)
{
    //@solution
    if (!m || m->n_layers < 1 || m->n_layers > MLP_MAX_LAYERS || batch < 0) return cudaErrorInvalidValue;
    if (prec != MLP_FP32 && prec != MLP_FP16 && prec != MLP_INT8) return cudaErrorInvalidValue;
    int L = m->n_layers;
    size_t need = plan_mlp_bytes(m->dims, L, batch);
    if (work_bytes < need) return cudaErrorInvalidValue;
    if (batch == 0) return cudaSuccess;
    float *buf[2] = { (float *)work, (float *)work + need / 2 / sizeof(float) };
    const float *in = x;
    for (int l = 0; l < L; l++) {
        float *out = l == L - 1 ? logits : buf[l & 1];
        int relu = l < L - 1, k = m->dims[l], n = m->dims[l + 1];
        cudaError_t e;
        if (prec == MLP_FP32) e = fp32_linear(in, m->W32[l], m->b[l], out, batch, k, n, relu);
        else if (prec == MLP_FP16) e = fp16_linear(in, m->W16[l], m->b[l], out, batch, k, n, relu);
        else e = int8_linear(in, m->W8[l], m->sw8[l], m->b[l], out, batch, k, n, relu);
        if (e != cudaSuccess) return e;
        in = out;
    }
    return fp32_softmax_argmax(logits, NULL, pred, batch, m->dims[L]);
    //@starter
    //| /* TODO: check the arguments and the workspace (plan.h), then run the
    //|  * layers: layer l reads the previous output (x for layer 0) and writes
    //|  * buffer l % 2 of the workspace, the last one the logits; ReLU on every
    //|  * layer but the last; the linear_* of the precision. Then
    //|  * fp32_softmax_argmax(logits, NULL, pred, ...). No cudaMalloc here. */
    //| (void)m, (void)prec, (void)x, (void)batch, (void)logits, (void)pred, (void)work, (void)work_bytes;
    //| return cudaSuccess;
    //@end
}
