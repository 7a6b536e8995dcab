/* IMB-RMA: MPI-3 passive-target one-sided communication. The plain
 * transfers, their completions and -check functions are the shared ones of
 * onesided.h; here are the passive-target setup, Exchange, Compare_and_swap
 * and Truly_passive_put. */
#ifndef MPIMARK_RMA_KERNELS_H
#define MPIMARK_RMA_KERNELS_H

#include "suites/ext/onesided.h"

/* Window over the row's buffer, the origins' epochs (untimed, held for the
 * whole size), and the passive targets' times left out of the statistics. */
void su_rma(bench_ctx *c);

/* Exchange_put/_get: one transfer to each neighbour, halves of a 2X buffer. */
void k_exch_put(bench_ctx *c, long iter);
void k_exch_get(bench_ctx *c, long iter);
void p_exch(bench_ctx *c, long iter);
long v_exch(bench_ctx *c, long iter);

/* Compare_and_swap on MPI_INT operands of its own. */
void su_cas(bench_ctx *c);
void k_cas(bench_ctx *c, long iter);
void p_cas(bench_ctx *c, long iter);
long v_cas(bench_ctx *c, long iter);

/* Truly_passive_put: its own loop, t_pure with the target in MPI_Barrier,
 * t_ovrl with the target computing first. */
void su_truly_passive(bench_ctx *c);
int64_t lp_truly_passive(bench_ctx *c, long n, double *samples);

#endif
