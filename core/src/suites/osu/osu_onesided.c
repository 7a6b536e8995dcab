/* OSU 7.4's one-sided programs (c/mpi/one-sided/osu_*.c): put, get,
 * accumulate, get_accumulate, fetch_and_op and compare_and_swap latency,
 * put and get bandwidth, put bi-directional bandwidth, with OSU's window
 * creation (-w) and synchronisation (-s) choices.
 *
 * What OSU times, per size: rank 0 starts its clock at the first timed
 * iteration and stops it after the last, and the figure is that interval
 * over the iterations (halved for fence and pscw latency, whose iteration
 * holds rank 1's operation too; bandwidth is size x window x iterations over
 * it). mpimark's samples cut that same interval at each iteration's end, so
 * they add up to OSU's interval exactly and their mean is OSU's figure. */
#include "suites/osu/osu_buffers.h"
#include "suites/osu/osu_families.h"
#include "suites/osu/osu_figures.h"
#include "suites/osu/osu_onesided_win.h"
#include "suites/osu/osu_options.h"
#include "suites/osu/osu_tail.h"
#include "util/timer.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

typedef enum { OS_PUT, OS_GET, OS_ACC, OS_GET_ACC, OS_FOP, OS_CAS } os_op_t;

/* latency: one operation per iteration; bw: a window (-W) of them one way;
 * bibw: a window each way at once. */
typedef enum { OS_LAT, OS_BW, OS_BIBW } os_shape_t;

typedef struct {
  const char *name;
  os_op_t op;
  os_shape_t shape;
  int lock_each;    /* -s lock: the lock taken per iteration (fop and cas: exclusive) */
  int lock_around;  /* -s flush, flush_local: the lock held over the loop (get_acc: exclusive) */
} os_prog_t;

#define SH MPI_LOCK_SHARED
#define EX MPI_LOCK_EXCLUSIVE
static const os_prog_t programs[] = {
    {"put_latency", OS_PUT, OS_LAT, SH, SH},
    {"get_latency", OS_GET, OS_LAT, SH, SH},
    {"acc_latency", OS_ACC, OS_LAT, SH, SH},
    {"get_acc_latency", OS_GET_ACC, OS_LAT, EX, EX},
    {"fop_latency", OS_FOP, OS_LAT, EX, SH},
    {"cas_latency", OS_CAS, OS_LAT, EX, SH},
    {"put_bw", OS_PUT, OS_BW, SH, SH},
    {"get_bw", OS_GET, OS_BW, SH, SH},
    {"put_bibw", OS_PUT, OS_BIBW, SH, SH},
};
#undef SH
#undef EX

/* Between setup and teardown (c->user). */
typedef struct {
  const os_prog_t *prog;
  MPI_Group peer_group;  /* pscw: the one other rank */
} os_state_t;

/* One size of one program on this rank. */
typedef struct {
  const os_prog_t *prog;
  osu_sync_t sync;
  os_window_t w;
  char *org;             /* origin: what is put or accumulated, where a get lands */
  char *res;             /* get_acc, fop, cas: where the target's old value lands */
  char *cmp;             /* cas: the compare value */
  size_t size;           /* bytes of one operation */
  int count;             /* elements of one operation */
  int ops;               /* operations per iteration: -W for the bandwidths, else 1 */
  MPI_Datatype type;
  int rank, peer;
  MPI_Group peer_group;
  const char *failed;    /* the MPI call that failed, if one did */
} os_run_t;

static const os_prog_t *find_program(const char *name) {
  for (size_t i = 0; i < sizeof(programs) / sizeof(programs[0]); i++)
    if (strcmp(programs[i].name, name) == 0) return &programs[i];
  return NULL;
}

/* fop and cas move one element: OSU's row is the datatype's size, whatever -m says. */
static int one_element(const os_prog_t *p) { return p->op == OS_FOP || p->op == OS_CAS; }

/* Operation j of an iteration, at the j-th slot of the origin and the target
 * (OSU: sbuf + j*size to disp + j*size). The peer is the target. */
static int issue(os_run_t *r, int j) {
  size_t off = (size_t)j * r->size;
  MPI_Aint disp = r->w.peer_disp + (MPI_Aint)off;
  MPI_Win win = r->w.win;
  switch (r->prog->op) {
    case OS_PUT:
      r->failed = "MPI_Put";
      return MPI_Put(r->org + off, r->count, r->type, r->peer, disp, r->count, r->type, win);
    case OS_GET:
      r->failed = "MPI_Get";
      return MPI_Get(r->org + off, r->count, r->type, r->peer, disp, r->count, r->type, win);
    case OS_ACC:
      r->failed = "MPI_Accumulate";
      return MPI_Accumulate(r->org, r->count, r->type, r->peer, disp, r->count, r->type, MPI_SUM, win);
    case OS_GET_ACC:
      r->failed = "MPI_Get_accumulate";
      return MPI_Get_accumulate(r->org, r->count, r->type, r->res, r->count, r->type, r->peer, disp, r->count,
                                r->type, MPI_SUM, win);
    case OS_FOP:
      r->failed = "MPI_Fetch_and_op";
      return MPI_Fetch_and_op(r->org, r->res, r->type, r->peer, disp, MPI_SUM, win);
    case OS_CAS:
      r->failed = "MPI_Compare_and_swap";
      return MPI_Compare_and_swap(r->org, r->cmp, r->res, r->type, r->peer, disp, win);
  }
  return MPI_ERR_OTHER;
}

/* Names the call before making it, so that a failure says which one. */
#define TRY(r, fn, ...)                                  \
  do {                                                   \
    (r)->failed = #fn;                                   \
    int rc_ = fn(__VA_ARGS__);                           \
    if (rc_ != MPI_SUCCESS) return rc_;                  \
  } while (0)
#define TRY_OPS(r)                                       \
  do {                                                   \
    for (int j_ = 0; j_ < (r)->ops; j_++) {              \
      int rc_ = issue((r), j_);                          \
      if (rc_ != MPI_SUCCESS) return rc_;                \
    }                                                    \
  } while (0)

/* The one part of an iteration OSU leaves before its clock starts: pscw's
 * MPI_Win_start on the origin of a latency or one-way bandwidth. */
static int origin_prelude(os_run_t *r) {
  if (r->sync == OSU_SYNC_PSCW && r->prog->shape != OS_BIBW) TRY(r, MPI_Win_start, r->peer_group, 0, r->w.win);
  return MPI_SUCCESS;
}

/* The rest of rank 0's iteration. */
static int origin_step(os_run_t *r) {
  MPI_Win win = r->w.win;
  os_shape_t shape = r->prog->shape;
  switch (r->sync) {
    case OSU_SYNC_LOCK:
      TRY(r, MPI_Win_lock, r->prog->lock_each, r->peer, 0, win);
      TRY_OPS(r);
      TRY(r, MPI_Win_unlock, r->peer, win);
      break;
    case OSU_SYNC_FLUSH:
      TRY_OPS(r);
      TRY(r, MPI_Win_flush, r->peer, win);
      break;
    case OSU_SYNC_FLUSH_LOCAL:
      TRY_OPS(r);
      TRY(r, MPI_Win_flush_local, r->peer, win);
      break;
    case OSU_SYNC_LOCK_ALL:
      TRY(r, MPI_Win_lock_all, 0, win);
      TRY_OPS(r);
      TRY(r, MPI_Win_unlock_all, win);
      break;
    case OSU_SYNC_FENCE:
      TRY(r, MPI_Win_fence, 0, win);
      TRY_OPS(r);
      TRY(r, MPI_Win_fence, 0, win);
      /* latency: a third epoch, in which rank 1 operates on rank 0 */
      if (shape == OS_LAT) TRY(r, MPI_Win_fence, 0, win);
      break;
    case OSU_SYNC_PSCW:
      if (shape == OS_BIBW) {
        TRY(r, MPI_Win_post, r->peer_group, 0, win);
        TRY(r, MPI_Win_start, r->peer_group, 0, win);
      }
      TRY_OPS(r);
      TRY(r, MPI_Win_complete, win);
      if (shape != OS_BW) {
        if (shape == OS_LAT) TRY(r, MPI_Win_post, r->peer_group, 0, win);
        TRY(r, MPI_Win_wait, win);
      }
      break;
  }
  return MPI_SUCCESS;
}

/* Rank 1's iteration under active synchronisation (it does nothing under
 * passive): it exposes its window, and for latency and bibw operates on
 * rank 0 in turn. */
static int target_step(os_run_t *r) {
  MPI_Win win = r->w.win;
  os_shape_t shape = r->prog->shape;
  if (r->sync == OSU_SYNC_FENCE) {
    TRY(r, MPI_Win_fence, 0, win);
    if (shape == OS_BIBW) TRY_OPS(r);
    TRY(r, MPI_Win_fence, 0, win);
    if (shape == OS_LAT) {
      TRY_OPS(r);
      TRY(r, MPI_Win_fence, 0, win);
    }
  } else if (r->sync == OSU_SYNC_PSCW) {
    TRY(r, MPI_Win_post, r->peer_group, 0, win);
    if (shape == OS_BIBW) {
      TRY(r, MPI_Win_start, r->peer_group, 0, win);
      TRY_OPS(r);
      TRY(r, MPI_Win_complete, win);
    }
    TRY(r, MPI_Win_wait, win);
    if (shape == OS_LAT) {
      TRY(r, MPI_Win_start, r->peer_group, 0, win);
      TRY_OPS(r);
      TRY(r, MPI_Win_complete, win);
    }
  }
  return MPI_SUCCESS;
}

static int passive(osu_sync_t s) { return s != OSU_SYNC_FENCE && s != OSU_SYNC_PSCW; }
static int lock_held_over_loop(osu_sync_t s) { return s == OSU_SYNC_FLUSH || s == OSU_SYNC_FLUSH_LOCAL; }

/* skip + n iterations; with samples, the n timed ones cut at each
 * iteration's end; with inner, each timed iteration from its own start (after
 * pscw's MPI_Win_start), OSU's per-iteration values for -z. Times scale: 0.5
 * for fence and pscw latency.
 *
 * The clock is read twice per iteration, as OSU does (its per-iteration
 * start and end are read whether or not -z asks for them): OSU's interval
 * holds both reads, and so does ours, so that the figures compare (one read
 * costs ~50 ns on the 2-core VM, a third of a put's latency there). */
static int run_loop(os_run_t *r, long skip, long n, double *samples, double *inner, double scale) {
  if (r->rank != 0) {
    if (passive(r->sync)) return MPI_SUCCESS;
    for (long i = 0; i < skip + n; i++) {
      int rc = target_step(r);
      if (rc != MPI_SUCCESS) return rc;
    }
    return MPI_SUCCESS;
  }
  if (lock_held_over_loop(r->sync)) TRY(r, MPI_Win_lock, r->prog->lock_around, r->peer, 0, r->w.win);
  int64_t prev = 0, begin = 0;
  int rc = MPI_SUCCESS;
  for (long i = 0; i < skip + n && rc == MPI_SUCCESS; i++) {
    if ((rc = origin_prelude(r)) != MPI_SUCCESS) break;
    if (i == skip) prev = now_ns();
    if (i >= skip) begin = now_ns();
    if ((rc = origin_step(r)) != MPI_SUCCESS) break;
    if (i >= skip && samples) {
      int64_t t = now_ns();
      samples[i - skip] = (double)(t - prev) * scale;
      if (inner) inner[i - skip] = (double)(t - begin) * scale;
      prev = t;
    }
  }
  if (lock_held_over_loop(r->sync)) {
    const char *failed = r->failed;
    int unlock_rc = MPI_Win_unlock(r->peer, r->w.win);
    if (rc == MPI_SUCCESS && unlock_rc != MPI_SUCCESS) r->failed = "MPI_Win_unlock", rc = unlock_rc;
    else r->failed = failed;
  }
  return rc;
}

/* --- -c (acc, fop, cas): OSU's values, checked once per size, untimed ---- */

/* OSU's validation values: (1 + rank) * 10 for MPI_CHAR and MPI_INT, (1 + rank) * 1.11 for MPI_FLOAT. */
static void check_value(MPI_Datatype t, int rank, void *out) {
  if (t == MPI_FLOAT) *(float *)out = (float)(1 + rank) * 1.11f;
  else if (t == MPI_INT) *(int *)out = (1 + rank) * 10;
  else *(char *)out = (char)((1 + rank) * 10);
}

/* What rank 1's window element holds after rank 0's one operation: the sum
 * (acc, fop), or rank 0's value swapped in (cas, whose compare value is set
 * to what the target holds, so that a swap that did not happen shows; OSU
 * compares against a value the target does not hold and checks that nothing changed). */
static void expected_target(const os_run_t *r, void *out) {
  char a[16], b[16];
  check_value(r->type, 0, a);
  check_value(r->type, 1, b);
  if (r->prog->op == OS_CAS) memcpy(out, a, 16);
  else if (r->type == MPI_FLOAT) *(float *)out = *(float *)a + *(float *)b;
  else if (r->type == MPI_INT) *(int *)out = *(int *)a + *(int *)b;
  else *(char *)out = (char)(*(char *)a + *(char *)b);
}

static long count_differing(const char *got, const void *want, int n, int type_size) {
  long bad = 0;
  for (int i = 0; i < n; i++) bad += memcmp(got + (size_t)i * (size_t)type_size, want, (size_t)type_size) != 0;
  return bad;
}

/* Both ranks: fills with OSU's values, one iteration of the program's
 * synchronisation, then rank 1 reads its window and rank 0 what it fetched.
 * Returns MPI_SUCCESS with this rank's differing elements in *defects, or
 * the failing call's code (r->failed). */
static int check_once(os_run_t *r, MPI_Comm comm, int type_size, long *defects) {
  char mine[16], peers[16], want[16];
  check_value(r->type, r->rank, mine);
  check_value(r->type, r->peer, peers);
  for (int i = 0; i < r->count; i++) memcpy(r->org + (size_t)i * (size_t)type_size, mine, (size_t)type_size);
  if (r->res) memset(r->res, 0, r->size);
  if (r->cmp) memcpy(r->cmp, peers, (size_t)type_size);
  int rc = os_window_write(&r->w, r->rank, mine, (size_t)type_size, (size_t)r->count);
  if (rc != MPI_SUCCESS) r->failed = "MPI_Win_lock (writing the window for -c)";
  MPI_Barrier(comm);
  if (rc == MPI_SUCCESS) rc = run_loop(r, 1, 0, NULL, NULL, 1.0);
  MPI_Barrier(comm);
  *defects = 0;
  if (rc == MPI_SUCCESS && r->rank == 1) {
    char *seen = malloc(r->size);
    if (!seen) rc = MPI_ERR_NO_MEM, r->failed = "malloc";
    else if ((rc = os_window_read(&r->w, r->rank, seen, r->size)) != MPI_SUCCESS)
      r->failed = "MPI_Win_lock (reading the window for -c)";
    else {
      expected_target(r, want);
      *defects += count_differing(seen, want, r->count, type_size);
    }
    free(seen);
  }
  /* fop and cas fetch the target's value before the operation: rank 1's */
  if (rc == MPI_SUCCESS && r->rank == 0 && one_element(r->prog))
    *defects += count_differing(r->res, peers, 1, type_size);
  return rc;
}

/* -z: OSU's per-iteration values (inner: each iteration from its own start)
 * in the row's unit, latency us or the iteration's MB/s, picked by OSU's rule
 * (osu_tail.h). Sorts and overwrites inner. */
static void fill_tail(const os_run_t *r, const osu_options_t *o, double *inner, long n, osu_row_t *row) {
  double factor = r->prog->shape == OS_BIBW ? 2.0 : 1.0;
  for (long i = 0; i < n; i++)
    inner[i] = r->prog->shape == OS_LAT ? inner[i] / 1e3 : (double)r->size / 1e6 * r->ops / (inner[i] * 1e-9) * factor;
  osu_tail_pick(o, inner, n, row->tail);
}

/* --- the family's entry points -------------------------------------------- */

int osu_setup_onesided(osu_ctx_t *c) {
  const os_prog_t *p = find_program(c->test->name);
  if (!p) {
    snprintf(c->err, sizeof(c->err), "osu_%s is not a one-sided program of this core", c->test->name);
    return -1;
  }
  os_state_t *st = calloc(1, sizeof(*st));
  if (!st) {
    snprintf(c->err, sizeof(c->err), "out of memory");
    return -1;
  }
  st->prog = p;
  MPI_Group world;
  int peer = c->rank == 0 ? 1 : 0;
  MPI_Comm_group(c->comm, &world);
  MPI_Group_incl(world, 1, &peer, &st->peer_group);
  MPI_Group_free(&world);
  c->user = st;
  return 0;
}

int osu_teardown_onesided(osu_ctx_t *c) {
  os_state_t *st = c->user;
  if (st) {
    MPI_Group_free(&st->peer_group);
    free(st);
  }
  c->user = NULL;
  return 0;
}

static void free_run(os_run_t *r) {
  osu_free(r->org);
  osu_free(r->res);
  osu_free(r->cmp);
}

/* The ranks agree on whether one failed (rank 0 alone runs the passive
 * loops), and all get the first failing rank's line in c->err. */
static int agree(osu_ctx_t *c, const os_run_t *r, int rc) {
  int mine = rc != MPI_SUCCESS ? c->rank : c->np, first = c->np;
  MPI_Allreduce(&mine, &first, 1, MPI_INT, MPI_MIN, c->comm);
  if (first == c->np) return 0;
  if (first == c->rank && rc == MPI_ERR_NO_MEM) {
    /* "no memory" is the framework's word for a size that did not fit (osu_main.c) */
    snprintf(c->err, sizeof(c->err), "no memory for osu_%s's buffers on rank %d (%s)", r->prog->name, c->rank,
             r->failed ? r->failed : "malloc");
  } else if (first == c->rank) {
    char why[MPI_MAX_ERROR_STRING] = "";
    int len = 0;
    MPI_Error_string(rc, why, &len);
    snprintf(c->err, sizeof(c->err), "osu_%s -w %s -s %s: %s failed on rank %d%s%s", r->prog->name,
             osu_win_word(c->o->win), osu_sync_word(c->o->sync), r->failed ? r->failed : "an MPI call", c->rank,
             len ? ": " : "", why);
  }
  MPI_Bcast(c->err, (int)sizeof(c->err), MPI_CHAR, first, c->comm);
  return -1;
}

int osu_measure_onesided(osu_ctx_t *c, osu_row_t *row) {
  os_state_t *st = c->user;
  const os_prog_t *p = st->prog;
  const osu_options_t *o = c->o;
  int type_size = c->type_size;
  os_run_t r = {.prog = p, .sync = o->sync, .type = c->type, .rank = c->rank, .peer = c->rank == 0 ? 1 : 0,
                .peer_group = st->peer_group};
  r.ops = p->shape == OS_LAT ? 1 : o->window;
  r.count = one_element(p) ? 1 : (int)c->count;
  r.size = (size_t)r.count * (size_t)type_size;
  /* OSU: the window holds a size per operation of the iteration; fop and cas
   * size theirs by -m's maximum */
  size_t win_bytes = one_element(p) ? (o->max_size > r.size ? o->max_size : r.size) : r.size * (size_t)r.ops;

  r.org = osu_alloc(r.size * (size_t)r.ops, 'a');
  int need_res = p->op == OS_GET_ACC || one_element(p);
  if (need_res) r.res = osu_alloc(r.size, 0);
  if (p->op == OS_CAS) r.cmp = osu_alloc(r.size, 'a');
  int no_mem = !r.org || (need_res && !r.res) || (p->op == OS_CAS && !r.cmp), any_no_mem = 0;
  MPI_Allreduce(&no_mem, &any_no_mem, 1, MPI_INT, MPI_MAX, c->comm);
  if (any_no_mem) {
    free_run(&r);
    row->status = OSU_ROW_OUT_OF_MEMORY;
    return -1;
  }

  int rc = os_window_open(&r.w, o->win, win_bytes, c->comm, r.rank, r.peer, &r.failed);
  if (rc == MPI_ERR_NO_MEM) row->status = OSU_ROW_OUT_OF_MEMORY;
  if (agree(c, &r, rc) != 0) {
    os_window_close(&r.w);
    free_run(&r);
    return -1;
  }

  /* OSU 7.4 validates only the atomics (acc, fop, cas: show_validation); the
   * others do not take -c */
  int validate = o->validate && (p->op == OS_ACC || one_element(p));
  long defects = 0;
  if (validate && agree(c, &r, check_once(&r, c->comm, type_size, &defects)) != 0) {
    os_window_close(&r.w);
    free_run(&r);
    return -1;
  }

  double scale = p->shape == OS_LAT && !passive(r.sync) ? 0.5 : 1.0;
  /* -z's values only on rank 0, the one that times; without memory for them the row has no tail */
  double *inner = NULL;
  if (o->n_tail > 0 && c->rank == 0) inner = malloc(sizeof(double) * (size_t)(c->iterations > 0 ? c->iterations : 1));
  MPI_Barrier(c->comm);
  rc = run_loop(&r, c->skip, c->iterations, c->times_ns, inner, scale);
  MPI_Barrier(c->comm);
  int failed = agree(c, &r, rc);
  os_window_close(&r.w);
  if (failed) {
    free(inner);
    free_run(&r);
    return -1;
  }

  if (validate) osu_check_verdict(c, defects, row);
  if (c->rank == 0) {
    double total_ns = 0;
    for (long i = 0; i < c->iterations; i++) total_ns += c->times_ns[i];
    double per_iter_ns = c->iterations > 0 ? total_ns / (double)c->iterations : NAN;
    row->avg_us = per_iter_ns / 1e3;
    row->min_us = row->max_us = NAN;
    row->iterations = c->iterations;
    row->mbytes_per_sec = row->msgs_per_sec = NAN;
    if (p->shape != OS_LAT)
      row->mbytes_per_sec =
          (double)r.size / 1e6 * (double)r.ops / (per_iter_ns * 1e-9) * (p->shape == OS_BIBW ? 2.0 : 1.0);
    row->samples_ns = c->times_ns;
    row->n_samples = c->iterations;
    if (inner && c->iterations > 0) fill_tail(&r, o, inner, c->iterations, row);
  }
  free(inner);
  free_run(&r);
  return 0;
}
