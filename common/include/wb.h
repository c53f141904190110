/* wb.h — the workbook's common library, one include for everything.
 *
 * Headers declare, sources in common/src define. Pure-C parts (statistics,
 * random inputs, comparison, week metadata) need no GPU and are tested by
 * common/tests; the CUDA parts (error checks, device facts, timing,
 * yardsticks, poisoning) need the CUDA runtime and a device at run time.
 */
#ifndef WB_H
#define WB_H

#include "wb_stats.h"
#include "wb_rand.h"
#include "wb_compare.h"
#include "wb_cuda.h"
#include "wb_bench.h"
#include "wb_meta.h"
#include "wb_results.h"
#include "wb_file.h"

#endif
