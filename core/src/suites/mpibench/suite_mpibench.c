/* mpiBench's operations as an engine table (docs/mpibench.md), in
 * mpiBench's order. The kernels and -check verification are IMB-MPI1's
 * (suites/mpi1/kernels_coll.c); only the v-collectives' irregular counts
 * are mpiBench's own, set per size and verified against them. Data movement
 * is MPI_BYTE, reductions MPI_DOUBLE (the caller's options say so), the root
 * is rank 0. Barrier is a collective of no data here, so that its record
 * keeps mpiBench's datatype MPI_BYTE; mpib_main.c gives it size 0 only and
 * no timed barrier. Every row is run by mpib_main.c through
 * engine_run_table, never through the IMB command line. */
#include "engine/check.h"
#include "engine/registry.h"
#include "suites/mpi1/kernels.h"
#include "tools/mpibench/mpib_calc.h"
#include "util/patterns.h"

/* Counts and displacements (prefix sums), in elements, from count(i). */
static void set_counts(bench_ctx *c, int alltoallv) {
  int chunk = mpib_chunk(c->n, c->np), disp = 0;
  for (int i = 0; i < c->np; i++) {
    int k = alltoallv ? mpib_alltoallv_count(i, c->rank, chunk, c->n) : mpib_gatherv_count(i, chunk, c->n);
    c->counts[i] = k;
    c->displs[i] = disp;
    disp += k;
  }
}

static void s_alltoallv(bench_ctx *c) { set_counts(c, 1); }
static void s_gatherv(bench_ctx *c) { set_counts(c, 0); }

/* Rank k sent this rank counts[k] elements from its own displacement for
 * this rank: the sum of what it sends to the ranks before this one. */
static long v_alltoallv(bench_ctx *c, long iter) {
  const char *buf = rbuf_at(c, iter);
  size_t es = (size_t)c->bytes / (c->count ? c->count : 1);
  int chunk = mpib_chunk(c->n, c->np);
  long bad = 0;
  for (int k = 0; k < c->np; k++) {
    size_t src_off = 0;
    for (int j = 0; j < c->rank; j++) src_off += (size_t)mpib_alltoallv_count(j, k, chunk, c->n);
    bad += check_block(c, buf + (size_t)c->displs[k] * es, k, src_off, (size_t)c->counts[k]);
  }
  return bad;
}

/* Block j at displs[j] holds rank j's first counts[j] elements. */
static long v_allgatherv(bench_ctx *c, long iter) {
  const char *buf = rbuf_at(c, iter);
  size_t es = (size_t)c->bytes / (c->count ? c->count : 1);
  long bad = 0;
  for (int j = 0; j < c->np; j++) bad += check_block(c, buf + (size_t)c->displs[j] * es, j, 0, (size_t)c->counts[j]);
  return bad;
}

static long v_gatherv(bench_ctx *c, long iter) {
  return c->rank == root_of_iteration(iter, c->root_shift, c->np) ? v_allgatherv(c, iter) : 0;
}

static const bench_desc mpibench[] = {
  {.name = "Barrier", .cls = CLASS_COLLECTIVE, .time_scale = 1, .sbuf = BUF_NONE, .rbuf = BUF_NONE, .run = k_barrier},
  {.name = "Bcast", .cls = CLASS_COLLECTIVE, .flags = BF_HAS_ROOT, .time_scale = 1, .sbuf = BUF_X, .rbuf = BUF_X,
   .run = k_bcast, .verify = v_bcast},
  {.name = "Alltoall", .cls = CLASS_COLLECTIVE, .time_scale = 1, .sbuf = BUF_NP_X, .rbuf = BUF_NP_X,
   .run = k_alltoall, .verify = v_alltoall},
  {.name = "Alltoallv", .cls = CLASS_COLLECTIVE, .time_scale = 1, .sbuf = BUF_NP_X, .rbuf = BUF_NP_X,
   .run = k_alltoallv, .verify = v_alltoallv, .setup = s_alltoallv},
  {.name = "Allgather", .cls = CLASS_COLLECTIVE, .time_scale = 1, .sbuf = BUF_X, .rbuf = BUF_NP_X,
   .run = k_allgather, .verify = v_allgather},
  {.name = "Allgatherv", .cls = CLASS_COLLECTIVE, .time_scale = 1, .sbuf = BUF_X, .rbuf = BUF_NP_X,
   .run = k_allgatherv, .verify = v_allgatherv, .setup = s_gatherv},
  {.name = "Gather", .cls = CLASS_COLLECTIVE, .flags = BF_HAS_ROOT, .time_scale = 1, .sbuf = BUF_X, .rbuf = BUF_NP_X,
   .run = k_gather, .verify = v_gather},
  {.name = "Gatherv", .cls = CLASS_COLLECTIVE, .flags = BF_HAS_ROOT, .time_scale = 1, .sbuf = BUF_X,
   .rbuf = BUF_NP_X, .run = k_gatherv, .verify = v_gatherv, .setup = s_gatherv},
  {.name = "Scatter", .cls = CLASS_COLLECTIVE, .flags = BF_HAS_ROOT, .time_scale = 1, .sbuf = BUF_NP_X,
   .rbuf = BUF_X, .run = k_scatter, .verify = v_scatter},
  {.name = "Allreduce", .cls = CLASS_COLLECTIVE, .flags = BF_REDUCTION, .time_scale = 1, .sbuf = BUF_X,
   .rbuf = BUF_X, .run = k_allreduce, .verify = v_allreduce},
  {.name = "Reduce", .cls = CLASS_COLLECTIVE, .flags = BF_REDUCTION | BF_HAS_ROOT, .time_scale = 1, .sbuf = BUF_X,
   .rbuf = BUF_X, .run = k_reduce, .verify = v_reduce},
};

const suite_desc suite_mpibench = {.name = "mpibench", .title = "mpiBench", .tool = 1, .benchmarks = mpibench,
                                   .n_benchmarks = (int)(sizeof(mpibench) / sizeof(mpibench[0]))};
