/* IMB-EXT: MPI-2 one-sided communication with fence epochs. The transfer
 * kernels and -check functions are the shared ones of onesided.h. */
#ifndef MPIMARK_EXT_KERNELS_H
#define MPIMARK_EXT_KERNELS_H

#include "suites/ext/onesided.h"

/* Window over the row's buffer, then the fence that opens the first epoch. */
void su_ext(bench_ctx *c);
/* The assured completion of IMB-EXT: MPI_Win_fence. */
void c_fence(bench_ctx *c);
/* Window: create, fence, put one byte to itself, fence, free. */
void k_win_create(bench_ctx *c, long iter);
void p_win_create(bench_ctx *c, long iter);
long v_win_create(bench_ctx *c, long iter);

#endif
