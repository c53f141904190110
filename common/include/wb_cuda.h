/* wb_cuda.h — CUDA runtime helpers: one error check, device facts, poisoned
 * device buffers. Callable from C (tests, tools) and CUDA C (exercises). */
#ifndef WB_CUDA_H
#define WB_CUDA_H

#include <stddef.h>
#include <stdint.h>
#include <cuda_runtime_api.h>

#ifdef __cplusplus
extern "C" {
#endif

/* WB_CUDA(expr): evaluate a CUDA runtime call; on failure report the
 * expression itself, the file, the line and the error, then call the error
 * handler (tests fail the current test; tools exit). Evaluates to the
 * cudaError_t so callers may still branch on it. */
#define WB_CUDA(expr) wb_cuda_check_((expr), #expr, __FILE__, __LINE__)

/* WB_LAUNCH(): check the launch just made (configuration errors) and, with
 * WB_SYNC_LAUNCHES=1 in the environment, wait and check its execution too. */
#define WB_LAUNCH() wb_cuda_check_(wb_launch_status_(), "kernel launch", __FILE__, __LINE__)

cudaError_t wb_cuda_check_(cudaError_t e, const char *expr, const char *file, int line);
cudaError_t wb_launch_status_(void);

/* What happens after WB_CUDA reports an error. The default prints and exits
 * with status 2; the test harness installs one that fails the test. */
typedef void (*wb_error_handler)(const char *message);
void wb_set_error_handler(wb_error_handler h);

/* Facts about a device, read with cudaDeviceGetAttribute, and the
 * theoretical peaks that follow from them. */
typedef struct {
    int    ordinal;
    char   name[256];
    int    cc_major, cc_minor;
    int    sm_count;
    int    l2_bytes;
    int    smem_per_block_optin;  /* bytes a block may opt in to */
    int    sm_clock_khz;          /* peak SM clock */
    int    mem_clock_khz;         /* peak memory clock */
    int    bus_width_bits;
    size_t global_mem_bytes;
    int    fp32_lanes_per_sm;     /* FP32 FMA units per SM (from the compute capability) */
    double peak_gbps;             /* 2 (double data rate) * mem clock * bus width / 8 */
    double peak_fp32_gflops;      /* 2 (FMA) * lanes * SMs * SM clock */
    int    runtime_version, driver_version;
} wb_device;

/* FP32 lanes per SM for a compute capability (0 when unknown). */
int  wb_fp32_lanes_per_sm(int cc_major, int cc_minor);
/* Fills *d for device `ordinal`; returns cudaSuccess or the first error. */
cudaError_t wb_device_query(int ordinal, wb_device *d);
/* The current device's facts, queried once per process. */
const wb_device *wb_this_device(void);
/* How many CUDA devices this process sees (0 when none, or on any error). */
int wb_gpu_count(void);
/* Can this process use a GPU? Asks the CUDA runtime it links
 * (cudaGetDeviceCount), so the answer is the one its CUDA calls will get:
 * it honours CUDA_VISIBLE_DEVICES and fails where the driver is missing or
 * older than the runtime (nvidia-smi answers another question: it can be
 * missing where a GPU works, and list one this runtime cannot use). Returns
 * the number of devices, with device 0's name in `what` ("" if unknown); or
 * 0 with why not in `what`, one of the reasons wb_result_no_gpu knows
 * (wb_results.h: change them together). WB_NO_GPU=1 in the environment
 * means no GPU, and then nothing of CUDA is called. Otherwise CUDA starts in
 * this process: a process that forks afterwards (Check's fork mode, the
 * grader) asks in a child, or runs build/gpu-probe (tools/gpu_probe.c). */
int wb_gpu_probe(char *what, size_t n);

/* Device buffers. wb_dmalloc never returns NULL for bytes > 0 (a failure
 * goes through the error handler). wb_dpoison fills with 0xFF bytes: NaN for
 * float and double, 0xFFFFFFFF for integers, so unwritten outputs show. */
void *wb_dmalloc(size_t bytes);
void  wb_dfree(void *p);
void  wb_dpoison(void *p, size_t bytes);
void  wb_h2d(void *dst, const void *src, size_t bytes);
void  wb_d2h(void *dst, const void *src, size_t bytes);
/* A device copy of host data (wb_dmalloc + wb_h2d); NULL for 0 bytes. */
void *wb_dcopy(const void *host, size_t bytes);

/* A guarded device output: the output array with WB_GUARD_BYTES of guard
 * band on each side (and `lead` bytes before it, for an output that starts
 * at a misaligned offset), all poisoned with 0xFF (NaN for floats) at
 * allocation. After the run, wb_dout_fetch waits for the device, copies the
 * output to the host and counts guard bytes that changed: a write past
 * either end shows. The test-side checks are in wb_harness.h
 * (wb_expect_dout_*), which compare, check the guards and fail the test. */
#define WB_GUARD_BYTES 256
typedef struct {
    const char    *name;  /* "c": names the array in messages */
    unsigned char *base;  /* the allocation: guard | lead | output | guard */
    size_t         lead;
    size_t         bytes;
} wb_dout;

/* Allocate and poison; returns the device pointer of the output (non-NULL
 * even for 0 bytes, so a kernel that writes anyway hits the guard). */
void  *wb_dout_alloc(wb_dout *o, const char *name, size_t bytes, size_t lead);
/* The output's device pointer. */
void  *wb_dout_ptr(const wb_dout *o);
/* Poison the whole allocation again, before another run into it. */
void   wb_dout_poison(const wb_dout *o);
/* Synchronise, copy the output's bytes into host (may be NULL for 0 bytes),
 * and return how many guard or lead bytes are no longer 0xFF. */
size_t wb_dout_fetch(const wb_dout *o, void *host);
void   wb_dout_free(wb_dout *o);

/* Synchronise the device and report any asynchronous error. */
void  wb_sync(void);

/* Random inputs made on the device, reproducible on the host: element i of
 * wb_dfill_uniform_f32(d, n, seed, lo, hi) equals wb_hash_uniform_f32(seed,
 * i, lo, hi) bit for bit, so a benchmark can fill gigabytes at device speed
 * and still check any output element on the CPU. Asynchronous (stream 0). */
void  wb_dfill_uniform_f32(float *d, size_t n, unsigned long long seed, float lo, float hi);
float wb_hash_uniform_f32(unsigned long long seed, size_t i, float lo, float hi);
/* The same draws as bfloat16 bits, rounded to nearest even: element i is
 * wb_f32_to_bf16(wb_hash_uniform_f32(seed, i, lo, hi)) (wb_f16.h). */
void  wb_dfill_uniform_bf16(uint16_t *d, size_t n, unsigned long long seed, float lo, float hi);

/* Host buffers that fail loudly; wb_hpoison fills with 0xFF bytes. */
void *wb_hmalloc(size_t bytes);
void  wb_hpoison(void *p, size_t bytes);

#ifdef __cplusplus
}
#endif
#endif
