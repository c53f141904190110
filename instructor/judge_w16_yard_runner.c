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
#define W16_PIN_ENTRY /* both runners register the judge's host buffers the same way */
#include "judge_w16.h"
#include "pipeline.h"

static int serial(const jr_args *a)
{
    return (int)yard_serial((const float *)a->p[0], (float *)a->p[1], (size_t)a->i64[0], (float *)a->p[2],
                            (float *)a->p[3], (size_t)a->i64[1], (int)a->i64[2]);
}

JR_MAIN({ W16_YARD_FN_SERIAL, "yard_serial", serial }, { W16_FN_PIN, "cudaHostRegister", w16_pin })
