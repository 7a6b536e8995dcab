/* IMB-NBC: each nonblocking collective is a start function; the pure
 * flavour is start + MPI_Wait (k_nbc_wait), the overlap flavour lets the
 * engine put calibrated CPU work between start and wait. Buffers, counts,
 * roots and what -check expects are those of the blocking MPI-1 collective,
 * so the MPI-1 verify functions serve here too. */
#include "suites/nbc/kernels_nbc.h"
#include "util/patterns.h"

static int root_of(const bench_ctx *c, long iter) { return root_of_iteration(iter, c->root_shift, c->np); }

void k_nbc_wait(bench_ctx *c, long iter) {
  MPI_Request req;
  c->desc->start(c, iter, &req);
  MPI_Wait(&req, MPI_STATUS_IGNORE);
}

void st_ibcast(bench_ctx *c, long iter, MPI_Request *r) {
  int root = root_of(c, iter);
  MPI_Ibcast(c->rank == root ? sbuf_at(c, iter) : rbuf_at(c, iter), c->n, c->type, root, c->comm, r);
}

void st_iallgather(bench_ctx *c, long iter, MPI_Request *r) {
  MPI_Iallgather(sbuf_at(c, iter), c->n, c->type, rbuf_at(c, iter), c->n, c->type, c->comm, r);
}

void st_iallgatherv(bench_ctx *c, long iter, MPI_Request *r) {
  MPI_Iallgatherv(sbuf_at(c, iter), c->n, c->type, rbuf_at(c, iter), c->counts, c->displs, c->type, c->comm, r);
}

void st_igather(bench_ctx *c, long iter, MPI_Request *r) {
  MPI_Igather(sbuf_at(c, iter), c->n, c->type, rbuf_at(c, iter), c->n, c->type, root_of(c, iter), c->comm, r);
}

void st_igatherv(bench_ctx *c, long iter, MPI_Request *r) {
  MPI_Igatherv(sbuf_at(c, iter), c->n, c->type, rbuf_at(c, iter), c->counts, c->displs, c->type,
               root_of(c, iter), c->comm, r);
}

void st_iscatter(bench_ctx *c, long iter, MPI_Request *r) {
  MPI_Iscatter(sbuf_at(c, iter), c->n, c->type, rbuf_at(c, iter), c->n, c->type, root_of(c, iter), c->comm, r);
}

void st_iscatterv(bench_ctx *c, long iter, MPI_Request *r) {
  MPI_Iscatterv(sbuf_at(c, iter), c->counts, c->displs, c->type, rbuf_at(c, iter), c->n, c->type,
                root_of(c, iter), c->comm, r);
}

void st_ialltoall(bench_ctx *c, long iter, MPI_Request *r) {
  MPI_Ialltoall(sbuf_at(c, iter), c->n, c->type, rbuf_at(c, iter), c->n, c->type, c->comm, r);
}

void st_ialltoallv(bench_ctx *c, long iter, MPI_Request *r) {
  MPI_Ialltoallv(sbuf_at(c, iter), c->counts, c->displs, c->type, rbuf_at(c, iter), c->counts, c->displs,
                 c->type, c->comm, r);
}

void st_ireduce(bench_ctx *c, long iter, MPI_Request *r) {
  MPI_Ireduce(sbuf_at(c, iter), rbuf_at(c, iter), c->n, c->type, c->op, root_of(c, iter), c->comm, r);
}

void st_ireduce_scatter(bench_ctx *c, long iter, MPI_Request *r) {
  MPI_Ireduce_scatter(sbuf_at(c, iter), rbuf_at(c, iter), c->counts, c->elem, c->op, c->comm, r);
}

void st_iallreduce(bench_ctx *c, long iter, MPI_Request *r) {
  MPI_Iallreduce(sbuf_at(c, iter), rbuf_at(c, iter), c->n, c->type, c->op, c->comm, r);
}

void st_ibarrier(bench_ctx *c, long iter, MPI_Request *r) { MPI_Ibarrier(c->comm, r); }
