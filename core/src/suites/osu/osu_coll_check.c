/* -c for OSU's collectives: before an iteration its inputs are written with
 * values that depend on who sends, to whom, the root and the iteration (as
 * OSU's set_buffer_validation does), the results are cleared; after the call
 * each rank that receives counts the elements that differ from what the
 * collective must deliver. Blocks of data carry the suite's pattern
 * (osu_buffers.h); reductions small integers, exact in MPI_CHAR, MPI_INT and
 * MPI_FLOAT, whose MPI_SUM of MPI_CHAR wraps as the C conversion does. */
#include "suites/osu/osu_coll_calls.h"

#include <string.h>
#include "suites/osu/osu_buffers.h"

/* A block's pattern: key names the sending rank (and the receiver where each
 * pair has its own block), so a block delivered to the wrong place differs. */
static long block_seed(long key, long i) { return key * 13 + i * 3; }

static void put_block(const osu_coll_t *k, const osu_ctx_t *c, char *at, long key, long i) {
  osu_pattern_fill(at, k->n, c->type, block_seed(key, i));
}

/* Every rank's contribution to a reduction; the result is np times it. */
static long reduce_value(size_t e, long i) { return 1 + ((long)(e % 100) + i) % 19; }

static void put(const osu_ctx_t *c, char *buf, size_t at, long v) {
  if (c->type == MPI_INT)
    ((int *)buf)[at] = (int)v;
  else if (c->type == MPI_FLOAT)
    ((float *)buf)[at] = (float)v;
  else
    buf[at] = (char)v;
}

static int differs(const osu_ctx_t *c, const char *buf, size_t at, long v) {
  if (c->type == MPI_INT) return ((const int *)buf)[at] != (int)v;
  if (c->type == MPI_FLOAT) return ((const float *)buf)[at] != (float)v;
  return buf[at] != (char)v;
}

static char *block(char *buf, const osu_coll_t *k, const osu_ctx_t *c, int b) {
  return buf + (size_t)b * k->n * (size_t)c->type_size;
}

static void clear(char *buf, size_t elements, const osu_ctx_t *c) {
  if (buf) memset(buf, 0, elements * (size_t)c->type_size);
}

/* Elements of each reduction: reduce_scatter_block reduces part per process. */
static size_t reduced_elements(const osu_coll_t *k, const osu_ctx_t *c) {
  return k->kind == OSU_REDUCE_SCATTER_BLOCK ? k->part * (size_t)c->np : k->n;
}

void osu_coll_fill(osu_coll_t *k, const osu_ctx_t *c, int root, long i) {
  size_t n = k->n, np = (size_t)c->np;
  int in_place = c->o->in_place, me = c->rank, at_root = me == root;
  switch (k->kind) {
    case OSU_ALLGATHER: case OSU_ALLGATHERV: case OSU_GATHER: case OSU_GATHERV: {
      int own_in_recv = in_place && (k->kind == OSU_ALLGATHER || k->kind == OSU_ALLGATHERV || at_root);
      clear(k->recv, n * np, c);
      char *own = own_in_recv ? block(k->recv, k, c, me) : k->send;
      put_block(k, c, own, me, i);
      break;
    }
    case OSU_ALLTOALL: case OSU_ALLTOALLV: case OSU_ALLTOALLW: {
      char *in = in_place ? k->recv : k->send;
      if (!in_place) clear(k->recv, n * np, c);
      for (int d = 0; d < c->np; d++)
        put_block(k, c, block(in, k, c, d), (long)me * c->np + d, i);
      break;
    }
    case OSU_SCATTER: case OSU_SCATTERV:
      if (at_root) {
        char *in = in_place ? k->recv : k->send;
        if (!in_place) clear(k->recv, n, c);
        for (int d = 0; d < c->np; d++)
          put_block(k, c, block(in, k, c, d), (long)root * c->np + d, i);
      } else {
        clear(k->recv, n, c);
      }
      break;
    case OSU_BCAST:
      if (at_root)
        put_block(k, c, k->recv, root, i);
      else
        clear(k->recv, n, c);
      break;
    case OSU_ALLREDUCE: case OSU_REDUCE: case OSU_REDUCE_SCATTER: case OSU_REDUCE_SCATTER_BLOCK: {
      int input_in_recv = in_place && (k->kind != OSU_REDUCE || at_root);
      size_t all = reduced_elements(k, c);
      if (!input_in_recv) clear(k->recv, n, c);
      char *in = input_in_recv ? k->recv : k->send;
      for (size_t e = 0; e < all; e++) put(c, in, e, reduce_value(e, i));
      break;
    }
    case OSU_BARRIER:
      break;
  }
}

static long count_block(const osu_coll_t *k, const osu_ctx_t *c, const char *buf, long key, long i) {
  return osu_pattern_defects(buf, k->n, c->type, block_seed(key, i));
}

/* Every rank's block in rank order, as allgather delivers them. */
static long count_gathered(const osu_coll_t *k, const osu_ctx_t *c, long i) {
  long bad = 0;
  for (int s = 0; s < c->np; s++) bad += count_block(k, c, block(k->recv, k, c, s), s, i);
  return bad;
}

/* Elements [from, from+count) of a reduction, landed at buf[0..count). */
static long count_reduced(const osu_ctx_t *c, const char *buf, size_t from, size_t count, long i) {
  long bad = 0;
  for (size_t l = 0; l < count; l++) bad += differs(c, buf, l, (long)c->np * reduce_value(from + l, i));
  return bad;
}

long osu_coll_defects(const osu_coll_t *k, const osu_ctx_t *c, int root, long i) {
  int me = c->rank, at_root = me == root;
  long bad = 0;
  switch (k->kind) {
    case OSU_GATHER: case OSU_GATHERV:
      /* the root holds what allgather gives everyone */
      return at_root ? count_gathered(k, c, i) : 0;
    case OSU_ALLGATHER: case OSU_ALLGATHERV:
      return count_gathered(k, c, i);
    case OSU_ALLTOALL: case OSU_ALLTOALLV: case OSU_ALLTOALLW:
      for (int s = 0; s < c->np; s++) bad += count_block(k, c, block(k->recv, k, c, s), (long)s * c->np + me, i);
      return bad;
    case OSU_SCATTER: case OSU_SCATTERV: {
      const char *mine = at_root && c->o->in_place ? block(k->recv, k, c, me) : k->recv;
      return count_block(k, c, mine, (long)root * c->np + me, i);
    }
    case OSU_BCAST:
      return count_block(k, c, k->recv, root, i);
    case OSU_REDUCE:
      if (!at_root) return 0;
      return count_reduced(c, k->recv, 0, k->n, i);
    case OSU_ALLREDUCE:
      return count_reduced(c, k->recv, 0, k->n, i);
    case OSU_REDUCE_SCATTER:
      return count_reduced(c, k->recv, (size_t)k->displs[me], (size_t)k->counts[me], i);
    case OSU_REDUCE_SCATTER_BLOCK:
      return count_reduced(c, k->recv, (size_t)me * k->part, k->part, i);
    case OSU_BARRIER:
      return 0;
  }
  return 0;
}
