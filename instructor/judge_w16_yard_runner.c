/* judge_w16_yard_runner.c — week 16's yardstick's runner: judge_runner.c,
 * this main and the week's given support/yard_serial.o and support/work.o,
 * no student object. SERIAL as the week's test defines it (test_week16.c,
 * serial_work: yard_serial, the same chunks on the legacy default stream)
 * between the judge's host buffers, registered here (W16_FN_PIN) as the
 * student's runner registers them, timed by the judge through the same
 * requests as the student's pipeline_run (judge_w16.h). */
#include <string.h>

#include <cuda_runtime_api.h>

#include "judge.h"
#include "judge_w16.h"
#include "pipeline.h"

static int serial(const jr_args *a)
{
    return (int)yard_serial((const float *)a->p[0], (float *)a->p[1], (size_t)a->i64[0], (float *)a->p[2],
                            (float *)a->p[3], (size_t)a->i64[1], (int)a->i64[2]);
}

static int pin(const jr_args *a)
{
    cudaError_t e = a->i64[3] ? cudaHostUnregister(a->p[0])
                              : cudaHostRegister(a->p[0], (size_t)a->i64[1],
                                                 a->i64[2] ? cudaHostRegisterMapped : cudaHostRegisterDefault);
    (void)cudaGetLastError();
    int rc = (int)e;
    memcpy(a->out, &rc, sizeof rc), *a->out_len = sizeof rc;
    return 0;
}

JR_MAIN({ W16_YARD_FN_SERIAL, "yard_serial", serial }, { W16_FN_PIN, "cudaHostRegister", pin })
