/* Collective patterns. Data movement uses -data_type (MPI_BYTE by default),
 * reductions -red_data_type (MPI_FLOAT) with MPI_SUM. Rooted collectives take
 * root 0, or iter mod np with -root_shift on. Messages whose element count
 * exceeds INT_MAX travel as one block datatype (c->type, c->n == 1); reductions
 * need the MPI-4 large-count calls for that (the engine reports int-overflow
 * where the library lacks them). */
#include "suites/mpi1/kernels.h"
#include "engine/check.h"
#include "util/patterns.h"

#include <string.h>

static int root_of(const bench_ctx *c, long iter) {
  return root_of_iteration(iter, c->root_shift, c->np);
}

void k_allreduce(bench_ctx *c, long iter) {
#if MPI_VERSION >= 4
  if (c->large_count) {
    MPI_Allreduce_c(sbuf_at(c, iter), rbuf_at(c, iter), (MPI_Count)c->count, c->elem, c->op, c->comm);
    return;
  }
#endif
  MPI_Allreduce(sbuf_at(c, iter), rbuf_at(c, iter), c->n, c->type, c->op, c->comm);
}

long v_allreduce(bench_ctx *c, long iter) { return check_sum_all(c, rbuf_at(c, iter), 0, c->count); }

void k_reduce(bench_ctx *c, long iter) {
#if MPI_VERSION >= 4
  if (c->large_count) {
    MPI_Reduce_c(sbuf_at(c, iter), rbuf_at(c, iter), (MPI_Count)c->count, c->elem, c->op, root_of(c, iter), c->comm);
    return;
  }
#endif
  MPI_Reduce(sbuf_at(c, iter), rbuf_at(c, iter), c->n, c->type, c->op, root_of(c, iter), c->comm);
}

long v_reduce(bench_ctx *c, long iter) {
  return c->rank == root_of(c, iter) ? check_sum_all(c, rbuf_at(c, iter), 0, c->count) : 0;
}

/* Every process reduces its own send buffer into its receive buffer. */
void k_reduce_local(bench_ctx *c, long iter) {
#if MPI_VERSION >= 4
  if (c->large_count) {
    MPI_Reduce_local_c(sbuf_at(c, iter), rbuf_at(c, iter), (MPI_Count)c->count, c->elem, c->op);
    return;
  }
#endif
  MPI_Reduce_local(sbuf_at(c, iter), rbuf_at(c, iter), c->n, c->type, c->op);
}

/* The in-out operand starts as this rank's own values, so afterwards it must
 * hold twice them. */
void p_reduce_local(bench_ctx *c, long iter) {
  memcpy(rbuf_at(c, iter), sbuf_at(c, iter), c->bytes);
}

long v_reduce_local(bench_ctx *c, long iter) {
  int twice[2] = {c->rank, c->rank};
  return check_sum(c, rbuf_at(c, iter), twice, 2, 0, c->count);
}

/* IMB 2019+ (the default): every rank receives the L elements of X bytes
 * (its block of an np·L vector). -imb_compat guide: the user guide's X-byte
 * vector whose L elements are scattered as evenly as possible (split_count).
 * c->counts comes from s_reduce_scatter. */
void k_reduce_scatter(bench_ctx *c, long iter) {
  MPI_Reduce_scatter(sbuf_at(c, iter), rbuf_at(c, iter), c->counts, c->elem, c->op, c->comm);
}

long v_reduce_scatter(bench_ctx *c, long iter) {
  if (c->opt->imb_compat != COMPAT_GUIDE) return check_sum_all(c, rbuf_at(c, iter), (size_t)c->rank * c->count, c->count);
  return check_sum_all(c, rbuf_at(c, iter), split_offset(c->count, c->np, c->rank),
                       split_count(c->count, c->np, c->rank));
}

void k_reduce_scatter_block(bench_ctx *c, long iter) {
#if MPI_VERSION >= 4
  if (c->large_count) {
    MPI_Reduce_scatter_block_c(sbuf_at(c, iter), rbuf_at(c, iter), (MPI_Count)c->count, c->elem, c->op, c->comm);
    return;
  }
#endif
  MPI_Reduce_scatter_block(sbuf_at(c, iter), rbuf_at(c, iter), c->n, c->type, c->op, c->comm);
}

long v_reduce_scatter_block(bench_ctx *c, long iter) {
  return check_sum_all(c, rbuf_at(c, iter), (size_t)c->rank * c->count, c->count);
}

void k_allgather(bench_ctx *c, long iter) {
  MPI_Allgather(sbuf_at(c, iter), c->n, c->type, rbuf_at(c, iter), c->n, c->type, c->comm);
}

/* Each rank contributes counts[rank] elements (n in IMB; mpibench's are irregular). */
void k_allgatherv(bench_ctx *c, long iter) {
  MPI_Allgatherv(sbuf_at(c, iter), c->counts[c->rank], c->type, rbuf_at(c, iter), c->counts, c->displs, c->type, c->comm);
}

/* Block j of the gathered buffer holds rank j's first X bytes. */
static long check_gathered(const bench_ctx *c, const char *buf) {
  long bad = 0;
  for (int j = 0; j < c->np; j++) bad += check_block(c, buf + (size_t)j * c->bytes, j, 0, c->count);
  return bad;
}

long v_allgather(bench_ctx *c, long iter) { return check_gathered(c, rbuf_at(c, iter)); }

void k_gather(bench_ctx *c, long iter) {
  MPI_Gather(sbuf_at(c, iter), c->n, c->type, rbuf_at(c, iter), c->n, c->type, root_of(c, iter), c->comm);
}

void k_gatherv(bench_ctx *c, long iter) {
  MPI_Gatherv(sbuf_at(c, iter), c->counts[c->rank], c->type, rbuf_at(c, iter), c->counts, c->displs, c->type,
              root_of(c, iter), c->comm);
}

long v_gather(bench_ctx *c, long iter) {
  return c->rank == root_of(c, iter) ? check_gathered(c, rbuf_at(c, iter)) : 0;
}

void k_scatter(bench_ctx *c, long iter) {
  MPI_Scatter(sbuf_at(c, iter), c->n, c->type, rbuf_at(c, iter), c->n, c->type, root_of(c, iter), c->comm);
}

void k_scatterv(bench_ctx *c, long iter) {
  MPI_Scatterv(sbuf_at(c, iter), c->counts, c->displs, c->type, rbuf_at(c, iter), c->n, c->type,
               root_of(c, iter), c->comm);
}

/* Rank r receives block r of the root's send buffer. */
long v_scatter(bench_ctx *c, long iter) {
  return check_block(c, rbuf_at(c, iter), root_of(c, iter), (size_t)c->rank * c->count, c->count);
}

void k_alltoall(bench_ctx *c, long iter) {
  MPI_Alltoall(sbuf_at(c, iter), c->n, c->type, rbuf_at(c, iter), c->n, c->type, c->comm);
}

void k_alltoallv(bench_ctx *c, long iter) {
  MPI_Alltoallv(sbuf_at(c, iter), c->counts, c->displs, c->type, rbuf_at(c, iter), c->counts, c->displs,
                c->type, c->comm);
}

/* Block j of rank r's receive buffer is block r of rank j's send buffer. */
long v_alltoall(bench_ctx *c, long iter) {
  const char *buf = rbuf_at(c, iter);
  long bad = 0;
  for (int j = 0; j < c->np; j++)
    bad += check_block(c, buf + (size_t)j * c->bytes, j, (size_t)c->rank * c->count, c->count);
  return bad;
}

/* The root sends from its send buffer and the others receive into their
 * receive buffers, so the root's data is never overwritten. */
void k_bcast(bench_ctx *c, long iter) {
  int root = root_of(c, iter);
  char *buf = c->rank == root ? sbuf_at(c, iter) : rbuf_at(c, iter);
  MPI_Bcast(buf, c->n, c->type, root, c->comm);
}

long v_bcast(bench_ctx *c, long iter) {
  int root = root_of(c, iter);
  return c->rank == root ? 0 : check_block(c, rbuf_at(c, iter), root, 0, c->count);
}

void k_barrier(bench_ctx *c, long iter) { MPI_Barrier(c->comm); }

void s_reduce_scatter(bench_ctx *c) {
  int guide = c->opt->imb_compat == COMPAT_GUIDE;
  for (int i = 0; i < c->np; i++) c->counts[i] = guide ? (int)split_count(c->count, c->np, i) : c->n;
}
