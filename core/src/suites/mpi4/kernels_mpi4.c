/* MPI-4 persistent collectives: the setup function creates one persistent
 * request per message size (MPI_Xxx_init), every iteration starts it, and
 * the teardown frees it. A persistent request is bound to its buffers and
 * root, so these benchmarks use root 0 and slot 0 only: -root_shift and
 * -off_cache do not apply (docs/imb-compatibility.md). */
#include "suites/mpi4/kernels_mpi4.h"
#include "suites/mpi1/kernels.h"

#if MPI_VERSION >= 4

/* Pins the context to what one persistent request can serve. */
static void pin(bench_ctx *c) {
  c->root_shift = 0;
  c->s_slots = c->r_slots = 1;
}

void st_persistent(bench_ctx *c, long iter, MPI_Request *r) {
  MPI_Start(&c->preq);
  *r = c->preq;
}

void td_persistent(bench_ctx *c) {
  if (c->preq != MPI_REQUEST_NULL) MPI_Request_free(&c->preq);
}

void su_bcast(bench_ctx *c) {
  pin(c);
  MPI_Bcast_init(c->rank == 0 ? c->sbuf : c->rbuf, c->n, c->type, 0, c->comm, MPI_INFO_NULL, &c->preq);
}

void su_allgather(bench_ctx *c) {
  pin(c);
  MPI_Allgather_init(c->sbuf, c->n, c->type, c->rbuf, c->n, c->type, c->comm, MPI_INFO_NULL, &c->preq);
}

void su_allgatherv(bench_ctx *c) {
  pin(c);
  MPI_Allgatherv_init(c->sbuf, c->n, c->type, c->rbuf, c->counts, c->displs, c->type, c->comm, MPI_INFO_NULL,
                      &c->preq);
}

void su_gather(bench_ctx *c) {
  pin(c);
  MPI_Gather_init(c->sbuf, c->n, c->type, c->rbuf, c->n, c->type, 0, c->comm, MPI_INFO_NULL, &c->preq);
}

void su_gatherv(bench_ctx *c) {
  pin(c);
  MPI_Gatherv_init(c->sbuf, c->n, c->type, c->rbuf, c->counts, c->displs, c->type, 0, c->comm, MPI_INFO_NULL,
                   &c->preq);
}

void su_scatter(bench_ctx *c) {
  pin(c);
  MPI_Scatter_init(c->sbuf, c->n, c->type, c->rbuf, c->n, c->type, 0, c->comm, MPI_INFO_NULL, &c->preq);
}

void su_scatterv(bench_ctx *c) {
  pin(c);
  MPI_Scatterv_init(c->sbuf, c->counts, c->displs, c->type, c->rbuf, c->n, c->type, 0, c->comm, MPI_INFO_NULL,
                    &c->preq);
}

void su_alltoall(bench_ctx *c) {
  pin(c);
  MPI_Alltoall_init(c->sbuf, c->n, c->type, c->rbuf, c->n, c->type, c->comm, MPI_INFO_NULL, &c->preq);
}

void su_alltoallv(bench_ctx *c) {
  pin(c);
  MPI_Alltoallv_init(c->sbuf, c->counts, c->displs, c->type, c->rbuf, c->counts, c->displs, c->type, c->comm,
                     MPI_INFO_NULL, &c->preq);
}

void su_reduce(bench_ctx *c) {
  pin(c);
  MPI_Reduce_init(c->sbuf, c->rbuf, c->n, c->type, c->op, 0, c->comm, MPI_INFO_NULL, &c->preq);
}

void su_reduce_scatter(bench_ctx *c) {
  pin(c);
  s_reduce_scatter(c);
  MPI_Reduce_scatter_init(c->sbuf, c->rbuf, c->counts, c->elem, c->op, c->comm, MPI_INFO_NULL, &c->preq);
}

void su_allreduce(bench_ctx *c) {
  pin(c);
  MPI_Allreduce_init(c->sbuf, c->rbuf, c->n, c->type, c->op, c->comm, MPI_INFO_NULL, &c->preq);
}

void su_barrier(bench_ctx *c) {
  pin(c);
  MPI_Barrier_init(c->comm, MPI_INFO_NULL, &c->preq);
}

#endif
