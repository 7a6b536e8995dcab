#ifndef MPIMARK_NBC_KERNELS_H
#define MPIMARK_NBC_KERNELS_H

#include "engine/registry.h"

/* Start + wait: the pure flavour, and the t_pure half of the overlap flavour. */
void k_nbc_wait(bench_ctx *c, long iter);

void st_ibcast(bench_ctx *c, long iter, MPI_Request *r);
void st_iallgather(bench_ctx *c, long iter, MPI_Request *r);
void st_iallgatherv(bench_ctx *c, long iter, MPI_Request *r);
void st_igather(bench_ctx *c, long iter, MPI_Request *r);
void st_igatherv(bench_ctx *c, long iter, MPI_Request *r);
void st_iscatter(bench_ctx *c, long iter, MPI_Request *r);
void st_iscatterv(bench_ctx *c, long iter, MPI_Request *r);
void st_ialltoall(bench_ctx *c, long iter, MPI_Request *r);
void st_ialltoallv(bench_ctx *c, long iter, MPI_Request *r);
void st_ireduce(bench_ctx *c, long iter, MPI_Request *r);
void st_ireduce_scatter(bench_ctx *c, long iter, MPI_Request *r);
void st_iallreduce(bench_ctx *c, long iter, MPI_Request *r);
void st_ibarrier(bench_ctx *c, long iter, MPI_Request *r);

#endif
