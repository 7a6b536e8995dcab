#include "suites/rma/kernels_rma.h"
#include "engine/check.h"
#include "engine/datatypes.h"
#include "util/cpu_exploit.h"
#include "util/timer.h"

#include <stdlib.h>

#define TAG 1

void su_rma(bench_ctx *c) {
  os_open_default(c, 1);
  os_lock(c);
  /* IMB reports -1 for ranks that only expose memory: they wait while the
   * origins work, and their time says nothing. */
  c->untimed = os_of(c)->n_targets == 0;
  /* The *_all patterns complete once after all iterations (IMB's loop)
   * although they have no modes: the engine's aggregate completion. */
  if (c->desc->flags & RF_ONE_FLUSH) c->aggregate = 1;
}

void k_exch_put(bench_ctx *c, long i) {
  int left = rp_left(c->rank, c->np), right = rp_right(c->rank, c->np);
  MPI_Aint d = os_put_disp(c, i), half = (MPI_Aint)(c->bytes / os_of(c)->disp_unit);
  char *s = sbuf_at(c, i);
  MPI_Put(s, c->n, c->type, left, d, c->n, c->type, c->win);
  MPI_Put(s + c->bytes, c->n, c->type, right, d + half, c->n, c->type, c->win);
}

void k_exch_get(bench_ctx *c, long i) {
  int left = rp_left(c->rank, c->np), right = rp_right(c->rank, c->np);
  MPI_Aint d = os_get_disp(c, i), half = (MPI_Aint)(c->bytes / os_of(c)->disp_unit);
  char *r = rbuf_at(c, i);
  MPI_Get(r, c->n, c->type, right, d, c->n, c->type, c->win);
  MPI_Get(r + c->bytes, c->n, c->type, left, d + half, c->n, c->type, c->win);
}

void p_exch(bench_ctx *c, long i) {
  os_local_begin(c);
  poison(rbuf_at(c, i), c->r_len);
  os_local_end(c);
  os_settle_before(c);
}

/* Either way the first half comes from the right neighbour's first half and
 * the second from the left neighbour's second half. */
long v_exch(bench_ctx *c, long i) {
  int left = rp_left(c->rank, c->np), right = rp_right(c->rank, c->np);
  os_settle_after(c);
  os_local_begin(c);
  char *r = rbuf_at(c, i);
  long bad = check_block(c, r, right, 0, c->count) + check_block(c, r + c->bytes, left, c->count, c->count);
  os_local_end(c);
  return bad;
}

/* Compare_and_swap uses MPI_INT whatever -red_data_type is (IMB, the user
 * guide), so it keeps int operands of its own, four regions of one slot per
 * -off_cache slot: the window's int, the origin value, the compare value and
 * the result. The compare value is the target's int and the origin value the
 * same, so every timed swap succeeds and leaves the target as it was (IMB
 * swaps 0 for 0); -check gives the origin its own value so the swap shows. */
enum { CAS_WIN, CAS_ORIGIN, CAS_COMPARE, CAS_RESULT, CAS_REGIONS };

static size_t cas_stride(const bench_ctx *c) {
  size_t s = c->r_slots > 1 ? c->r_stride : sizeof(int);
  return (s + 7) / 8 * 8;  /* ints stay aligned whatever -off_cache's line is */
}

static int *cas_at(const bench_ctx *c, int region, long i) {
  size_t stride = cas_stride(c);
  char *own = os_of(c)->own;
  return (int *)(own + (size_t)region * stride * (size_t)c->r_slots + (size_t)(i % c->r_slots) * stride);
}

static int value_of_rank(int r) {
  int v;
  fill_values(&v, DT_INT, 1, r, 0);
  return v;
}

void su_cas(bench_ctx *c) {
  c->dt = DT_INT;
  c->elem = c->type = MPI_INT;
  c->count = 1;
  c->n = 1;
  size_t region = cas_stride(c) * (size_t)c->r_slots;
  char *own = calloc(CAS_REGIONS, region);
  if (!own) MPI_Abort(MPI_COMM_WORLD, 1);
  os_open(c, 1, own, region, 1);
  os_of(c)->own = own;
  os_lock(c);
  c->untimed = os_of(c)->n_targets == 0;
  int t = value_of_rank(c->np - 1);
  for (long s = 0; s < c->r_slots; s++) {
    *cas_at(c, CAS_WIN, s) = value_of_rank(c->rank);
    *cas_at(c, CAS_ORIGIN, s) = *cas_at(c, CAS_COMPARE, s) = t;
  }
}

void k_cas(bench_ctx *c, long i) {
  os_state *st = os_of(c);
  MPI_Aint d = (MPI_Aint)rp_disp(i, c->r_slots, cas_stride(c), 1);
  for (int k = 0; k < st->n_targets; k++)
    MPI_Compare_and_swap(cas_at(c, CAS_ORIGIN, i), cas_at(c, CAS_COMPARE, i), cas_at(c, CAS_RESULT, i), MPI_INT,
                         st->targets[k], d, c->win);
}

void p_cas(bench_ctx *c, long i) {
  os_state *st = os_of(c);
  os_local_begin(c);
  if (st->n_senders) *cas_at(c, CAS_WIN, i) = value_of_rank(c->rank);
  if (st->n_targets) {
    *cas_at(c, CAS_ORIGIN, i) = value_of_rank(c->rank);
    poison(cas_at(c, CAS_RESULT, i), sizeof(int));
  }
  os_local_end(c);
  os_settle_before(c);
}

/* The target must now hold the origin's value, the origin the target's old one. */
long v_cas(bench_ctx *c, long i) {
  os_state *st = os_of(c);
  os_settle_after(c);
  os_local_begin(c);
  long bad = 0;
  if (st->n_senders) bad += check_block(c, cas_at(c, CAS_WIN, i), st->senders[0], 0, 1);
  if (st->n_targets) bad += check_block(c, cas_at(c, CAS_RESULT, i), st->targets[0], 0, 1);
  os_local_end(c);
  return bad;
}

/* Repetitions per second of the CPU kernel, measured once per process by
 * the first target that needs it (untimed, in setup). */
static double cpu_rate;

void su_truly_passive(bench_ctx *c) {
  su_rma(c);
  if (os_of(c)->n_senders && cpu_rate <= 0) cpu_rate = cpu_calibrate(NULL);
}

/* n x (MPI_Put, MPI_Win_flush, MPI_Barrier) on the origin. The barrier is
 * part of the timed pattern: it is where the target shows up, so a library
 * that needs the target inside MPI to complete the put waits for it there or
 * in the flush. */
static int64_t origin_phase(bench_ctx *c, long n, double *samples) {
  int64_t total = 0;
  for (long i = 0; i < n; i++) {
    int64_t t0 = now_ns();
    k_os_put(c, i);
    c_flush(c);
    MPI_Barrier(c->comm);
    int64_t dt = now_ns() - t0;
    if (samples) samples[i] = (double)dt;
    total += dt;
  }
  return total;
}

/* t_pure: the target waits in MPI_Barrier. t_ovrl: before each barrier the
 * target computes for t_pure (the CPU kernel calibrated to the origin's
 * t_pure per iteration), outside MPI. A truly passive library gives
 * t_ovrl ~ t_pure; one that needs the target's help, about twice that. The
 * origin reports both (t_pure through c->t_pure_us); the target's time is
 * not counted (su_rma marked it untimed). */
int64_t lp_truly_passive(bench_ctx *c, long n, double *samples) {
  os_state *st = os_of(c);
  MPI_Barrier(c->comm);
  if (st->n_targets) {
    int64_t pure = origin_phase(c, n, NULL);
    double pure_s = (double)pure * 1e-9 / (double)n;
    MPI_Send(&pure_s, 1, MPI_DOUBLE, st->targets[0], TAG, c->comm);
    MPI_Barrier(c->comm);
    int64_t ovrl = origin_phase(c, n, samples);
    c->t_pure_us = (double)pure * 1e-3 / (double)n;
    return ovrl;
  }
  if (samples)
    for (long i = 0; i < n; i++) samples[i] = 0;
  if (!st->n_senders) return 0;
  for (long i = 0; i < n; i++) MPI_Barrier(c->comm);
  double pure_s;
  MPI_Recv(&pure_s, 1, MPI_DOUBLE, st->senders[0], TAG, c->comm, MPI_STATUS_IGNORE);
  long reps = cpu_reps_for(pure_s, cpu_rate);
  MPI_Barrier(c->comm);
  for (long i = 0; i < n; i++) {
    cpu_run(reps);
    MPI_Barrier(c->comm);
  }
  return 0;
}
