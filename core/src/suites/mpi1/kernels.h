/* The MPI-1 kernels: one iteration of each pattern, and what -check expects. */
#ifndef MPIMARK_MPI1_KERNELS_H
#define MPIMARK_MPI1_KERNELS_H

#include "engine/registry.h"

/* Set in a descriptor's flags: receive with MPI_ANY_SOURCE (the *AnySource
 * flavours). A suite's own bit, above the engine's (registry.h). */
#define BF_ANY_SOURCE (1u << 16)

void k_pingpong(bench_ctx *c, long iter);
void k_pingping(bench_ctx *c, long iter);
void k_sendrecv(bench_ctx *c, long iter);
void k_exchange(bench_ctx *c, long iter);
void k_uniband(bench_ctx *c, long iter);
void k_biband(bench_ctx *c, long iter);
long v_from_partner(bench_ctx *c, long iter);
long v_sendrecv(bench_ctx *c, long iter);
long v_exchange(bench_ctx *c, long iter);
long v_window(bench_ctx *c, long iter);
void p_window(bench_ctx *c, long iter);

void k_allreduce(bench_ctx *c, long iter);
void k_reduce(bench_ctx *c, long iter);
void k_reduce_local(bench_ctx *c, long iter);
void k_reduce_scatter(bench_ctx *c, long iter);
void s_reduce_scatter(bench_ctx *c);
void k_reduce_scatter_block(bench_ctx *c, long iter);
void k_allgather(bench_ctx *c, long iter);
void k_allgatherv(bench_ctx *c, long iter);
void k_gather(bench_ctx *c, long iter);
void k_gatherv(bench_ctx *c, long iter);
void k_scatter(bench_ctx *c, long iter);
void k_scatterv(bench_ctx *c, long iter);
void k_alltoall(bench_ctx *c, long iter);
void k_alltoallv(bench_ctx *c, long iter);
void k_bcast(bench_ctx *c, long iter);
void k_barrier(bench_ctx *c, long iter);
long v_allreduce(bench_ctx *c, long iter);
long v_reduce(bench_ctx *c, long iter);
long v_reduce_local(bench_ctx *c, long iter);
void p_reduce_local(bench_ctx *c, long iter);
long v_reduce_scatter(bench_ctx *c, long iter);
long v_reduce_scatter_block(bench_ctx *c, long iter);
long v_allgather(bench_ctx *c, long iter);
long v_gather(bench_ctx *c, long iter);
long v_scatter(bench_ctx *c, long iter);
long v_alltoall(bench_ctx *c, long iter);
long v_bcast(bench_ctx *c, long iter);

#endif
