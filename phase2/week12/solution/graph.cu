/* graph.cu — week 12, exercise 2: many tiny kernels, launched once.
 *
 * An eager launch costs microseconds of CPU work in the driver, and the GPU
 * waits for each launch to arrive; a kernel of a few hundred threads runs
 * for less than that. A CUDA graph records the k launches once (stream
 * capture), is instantiated once, and is then submitted with one call: the
 * per-kernel cost drops to the GPU's own dispatch time. */
#include "graph.h"

cudaError_t graph_create(float *d, int n, int k, cudaGraphExec_t *exec)
{
    //@solution
    *exec = NULL;
    cudaStream_t s;
    cudaGraph_t g = NULL;
    cudaError_t e = cudaStreamCreateWithFlags(&s, cudaStreamNonBlocking);
    if (e != cudaSuccess) return e;
    e = cudaStreamBeginCapture(s, cudaStreamCaptureModeThreadLocal);
    for (int j = 0; e == cudaSuccess && j < k; j++) e = tiny_add(d, n, s);
    cudaError_t e2 = cudaStreamEndCapture(s, &g);
    if (e == cudaSuccess) e = e2;
    if (e == cudaSuccess) e = cudaGraphInstantiate(exec, g, 0);
    if (g) cudaGraphDestroy(g);
    cudaStreamDestroy(s);
    return e;
    //@starter
    //| /* TODO: create a stream, begin capture, call tiny_add(d, n, stream) k
    //|  * times, end capture, instantiate into *exec, clean up. */
    //| (void)d, (void)n, (void)k;
    //| *exec = NULL;
    //| return cudaSuccess;
    //@end
}

cudaError_t graph_launch(cudaGraphExec_t exec)
{
    //@solution
    return cudaGraphLaunch(exec, 0);
    //@starter
    //| /* TODO: replay exec on the default stream. */
    //| (void)exec;
    //| return cudaSuccess;
    //@end
}

cudaError_t graph_destroy(cudaGraphExec_t exec) { return exec ? cudaGraphExecDestroy(exec) : cudaSuccess; }
