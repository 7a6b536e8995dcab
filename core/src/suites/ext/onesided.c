#include "suites/ext/onesided.h"
#include "engine/check.h"
#include "engine/datatypes.h"

#include <stdlib.h>
#include <string.h>

void os_open(bench_ctx *c, int passive, void *base, size_t bytes, size_t disp_unit) {
  os_state *st = calloc(1, sizeof(*st));
  size_t np = (size_t)(c->np > 0 ? c->np : 1);
  st->targets = malloc(sizeof(int) * np);
  st->senders = malloc(sizeof(int) * np);
  st->locks = malloc(sizeof(int) * np);
  if (!st->targets || !st->senders || !st->locks) MPI_Abort(MPI_COMM_WORLD, 1);
  rma_pattern_t p = RF_PATTERN_OF(c->desc->flags);
  st->n_targets = rp_targets(p, c->rank, c->np, st->targets);
  st->n_senders = rp_senders(p, c->rank, c->np, st->senders);
  st->passive = passive;
  st->disp_unit = disp_unit;
  c->user = st;
  MPI_Win_create(base, (MPI_Aint)bytes, (int)disp_unit, MPI_INFO_NULL, c->comm, &c->win);
}

void os_open_default(bench_ctx *c, int passive) {
  int get = (c->desc->flags & RF_GET) != 0;
  size_t unit = (c->desc->flags & BF_REDUCTION) ? dtype_size(c->dt) : 1;
  if (get) os_open(c, passive, c->sbuf, rp_window_bytes(c->s_slots, c->s_stride, c->s_len), unit);
  else os_open(c, passive, c->rbuf, rp_window_bytes(c->r_slots, c->r_stride, c->r_len), unit);
}

void os_lock(bench_ctx *c) {
  os_state *st = os_of(c);
  /* The lock is held across the engine's loops, so a target must be in a
   * call that progresses RMA whenever an origin works: MPI_Barrier, as in IMB. */
  c->end_barrier = 1;
  rma_pattern_t p = RF_PATTERN_OF(c->desc->flags);
  if (p == RP_ALL_ALL || (p == RP_ONE_ALL && c->rank == 0)) {
    MPI_Win_lock_all(0, c->win);
    st->lock_all = st->covers_self = 1;
    return;
  }
  for (int k = 0; k < st->n_targets; k++) {
    MPI_Win_lock(MPI_LOCK_SHARED, st->targets[k], 0, c->win);
    st->locks[st->n_locks++] = st->targets[k];
    if (st->targets[k] == c->rank) st->covers_self = 1;
  }
}

void os_close(bench_ctx *c) {
  os_state *st = os_of(c);
  if (!st) return;
  if (st->lock_all) MPI_Win_unlock_all(c->win);
  for (int k = 0; k < st->n_locks; k++) MPI_Win_unlock(st->locks[k], c->win);
  if (c->win != MPI_WIN_NULL) MPI_Win_free(&c->win);
  free(st->targets);
  free(st->senders);
  free(st->locks);
  free(st->own);
  free(st);
  c->user = NULL;
}

MPI_Aint os_put_disp(const bench_ctx *c, long i) {
  return (MPI_Aint)rp_disp(i, c->r_slots, c->r_stride, os_of(c)->disp_unit);
}

MPI_Aint os_get_disp(const bench_ctx *c, long i) {
  return (MPI_Aint)rp_disp(i, c->s_slots, c->s_stride, os_of(c)->disp_unit);
}

void c_flush(bench_ctx *c) {
  os_state *st = os_of(c);
  for (int k = 0; k < st->n_locks; k++) MPI_Win_flush(st->locks[k], c->win);
}

void c_flush_local(bench_ctx *c) {
  os_state *st = os_of(c);
  for (int k = 0; k < st->n_locks; k++) MPI_Win_flush_local(st->locks[k], c->win);
}

/* Targets of a lock_all pattern hold no epoch and have nothing to complete. */
void c_flush_all(bench_ctx *c) {
  if (os_of(c)->lock_all) MPI_Win_flush_all(c->win);
}

void c_flush_local_all(bench_ctx *c) {
  if (os_of(c)->lock_all) MPI_Win_flush_local_all(c->win);
}

void k_os_put(bench_ctx *c, long i) {
  os_state *st = os_of(c);
  MPI_Aint d = os_put_disp(c, i);
  for (int k = 0; k < st->n_targets; k++)
    MPI_Put(sbuf_at(c, i), c->n, c->type, st->targets[k], d, c->n, c->type, c->win);
}

void k_os_get(bench_ctx *c, long i) {
  os_state *st = os_of(c);
  MPI_Aint d = os_get_disp(c, i);
  for (int k = 0; k < st->n_targets; k++)
    MPI_Get(rbuf_at(c, i), c->n, c->type, st->targets[k], d, c->n, c->type, c->win);
}

void k_os_acc(bench_ctx *c, long i) {
  os_state *st = os_of(c);
  MPI_Aint d = os_put_disp(c, i);
  for (int k = 0; k < st->n_targets; k++)
    MPI_Accumulate(sbuf_at(c, i), c->n, c->elem, st->targets[k], d, c->n, c->elem, c->op, c->win);
}

void k_os_get_acc(bench_ctx *c, long i) {
  os_state *st = os_of(c);
  MPI_Aint d = os_put_disp(c, i);
  for (int k = 0; k < st->n_targets; k++)
    MPI_Get_accumulate(sbuf_at(c, i), c->n, c->elem, rbuf_at(c, i), c->n, c->elem, st->targets[k], d, c->n,
                       c->elem, c->op, c->win);
}

void k_os_fop(bench_ctx *c, long i) {
  os_state *st = os_of(c);
  MPI_Aint d = os_put_disp(c, i);
  for (int k = 0; k < st->n_targets; k++)
    MPI_Fetch_and_op(sbuf_at(c, i), rbuf_at(c, i), c->elem, st->targets[k], d, c->op, c->win);
}

/* Passive target: local loads and stores of window memory happen inside an
 * epoch on the own window, with MPI_Win_sync between the private and the
 * public copy. A shared lock on itself never waits for the origins' shared
 * locks; the barriers of os_settle_* keep the accesses apart in time. Fence
 * epochs need nothing: the fences themselves synchronise. */
void os_local_begin(bench_ctx *c) {
  os_state *st = os_of(c);
  if (!st->passive) return;
  if (!st->covers_self) MPI_Win_lock(MPI_LOCK_SHARED, c->rank, 0, c->win);
  MPI_Win_sync(c->win);
}

void os_local_end(bench_ctx *c) {
  os_state *st = os_of(c);
  if (!st->passive) return;
  MPI_Win_sync(c->win);
  if (!st->covers_self) MPI_Win_unlock(c->rank, c->win);
}

void os_settle_before(bench_ctx *c) {
  if (os_of(c)->passive) MPI_Barrier(c->comm);
  else MPI_Win_fence(0, c->win);
}

/* The *_local completions only free the origin buffer; the target may see
 * the data later, so -check completes remotely (untimed) before it looks. */
void os_settle_after(bench_ctx *c) {
  os_state *st = os_of(c);
  if (!st->passive) return;
  if (st->lock_all) MPI_Win_flush_all(c->win);
  else c_flush(c);
  MPI_Barrier(c->comm);
}

long os_check_from(const bench_ctx *c, const void *buf, const int *ranks, int n, size_t first, size_t count) {
  if (n == 0 || count == 0) return 0;
  if (n == 1) return check_block(c, buf, ranks[0], first, count);
  size_t w = dtype_size(c->dt);
  char *want = malloc(w * count * (size_t)n);
  if (!want) MPI_Abort(MPI_COMM_WORLD, 1);
  for (int k = 0; k < n; k++) fill_values(want + w * count * (size_t)k, c->dt, count, ranks[k], first);
  long bad = 0;
  const char *got = buf;
  for (size_t e = 0; e < count; e++) {
    int ok = 0;
    for (int k = 0; k < n && !ok; k++) ok = memcmp(got + e * w, want + w * (count * (size_t)k + e), w) == 0;
    bad += !ok;
  }
  free(want);
  return bad;
}

void p_os_put(bench_ctx *c, long i) {
  os_state *st = os_of(c);
  os_local_begin(c);
  if (st->n_senders) poison(rbuf_at(c, i), c->r_len);
  os_local_end(c);
  os_settle_before(c);
}

long v_os_put(bench_ctx *c, long i) {
  os_state *st = os_of(c);
  os_settle_after(c);
  os_local_begin(c);
  long bad = os_check_from(c, rbuf_at(c, i), st->senders, st->n_senders, 0, c->count);
  os_local_end(c);
  return bad;
}

/* The origin's receive buffer is not what the window covers: no epoch needed. */
void p_os_get(bench_ctx *c, long i) {
  if (os_of(c)->n_targets) poison(rbuf_at(c, i), c->r_len);
  os_settle_before(c);
}

long v_os_get(bench_ctx *c, long i) {
  os_state *st = os_of(c);
  os_settle_after(c);
  return os_check_from(c, rbuf_at(c, i), st->targets, st->n_targets, 0, c->count);
}

/* An accumulation adds to what is there, so the target starts from its own
 * values and must end with them plus every sender's contribution. */
void p_os_acc(bench_ctx *c, long i) {
  os_state *st = os_of(c);
  os_local_begin(c);
  if (st->n_senders) fill_values(rbuf_at(c, i), c->dt, c->count, c->rank, 0);
  os_local_end(c);
  os_settle_before(c);
}

static long check_accumulated(bench_ctx *c, long i) {
  os_state *st = os_of(c);
  if (!st->n_senders) return 0;
  int *ranks = malloc(sizeof(int) * (size_t)(st->n_senders + 1));
  ranks[0] = c->rank;
  memcpy(ranks + 1, st->senders, sizeof(int) * (size_t)st->n_senders);
  long bad = check_sum(c, rbuf_at(c, i), ranks, st->n_senders + 1, 0, c->count);
  free(ranks);
  return bad;
}

long v_os_acc(bench_ctx *c, long i) {
  os_settle_after(c);
  os_local_begin(c);
  long bad = check_accumulated(c, i);
  os_local_end(c);
  return bad;
}

/* Fetching accumulations (one target): the origin's result slot must hold
 * the target's values from before the operation, the target the sum. */
void p_os_fetch(bench_ctx *c, long i) {
  os_state *st = os_of(c);
  os_local_begin(c);
  if (st->n_senders) fill_values(rbuf_at(c, i), c->dt, c->count, c->rank, 0);
  if (st->n_targets) poison(rbuf_at(c, i), c->r_len);
  os_local_end(c);
  os_settle_before(c);
}

long v_os_fetch(bench_ctx *c, long i) {
  os_state *st = os_of(c);
  os_settle_after(c);
  os_local_begin(c);
  long bad = check_accumulated(c, i);
  if (st->n_targets) bad += check_block(c, rbuf_at(c, i), st->targets[0], 0, c->count);
  os_local_end(c);
  return bad;
}
