#ifndef MPIMARK_MPI4_KERNELS_H
#define MPIMARK_MPI4_KERNELS_H

#include "engine/registry.h"

#if MPI_VERSION >= 4
/* MPI_Start of the persistent request made by the setup function. */
void st_persistent(bench_ctx *c, long iter, MPI_Request *r);
/* Frees it. */
void td_persistent(bench_ctx *c);

void su_bcast(bench_ctx *c);
void su_allgather(bench_ctx *c);
void su_allgatherv(bench_ctx *c);
void su_gather(bench_ctx *c);
void su_gatherv(bench_ctx *c);
void su_scatter(bench_ctx *c);
void su_scatterv(bench_ctx *c);
void su_alltoall(bench_ctx *c);
void su_alltoallv(bench_ctx *c);
void su_reduce(bench_ctx *c);
void su_reduce_scatter(bench_ctx *c);
void su_allreduce(bench_ctx *c);
void su_barrier(bench_ctx *c);
#endif

#endif
