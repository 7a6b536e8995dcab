/* bw, bibw (OSU 7.4's osu_bw.c, osu_bibw.c) and mbw_mr (osu_mbw_mr.c):
 * windows of back-to-back nonblocking messages. bw and mbw_mr close each
 * window with a one-byte acknowledgement from the receiver, which the time
 * includes; bibw's two ranks send a window to each other at once. Every
 * iteration is timed on its own, as OSU 7.x does, and the figure is the bytes
 * of all timed windows (x2 for bibw, x pairs for mbw_mr) over their summed
 * times, in MB/s of 10^6 bytes. */
#include "suites/osu/osu_families.h"
#include "suites/osu/osu_buffers.h"
#include "suites/osu/osu_figures.h"
#include "suites/common/own_suite.h"
#include "util/timer.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

enum { TAG_DATA = 100, TAG_REVERSE = 10, TAG_ACK = 101 };  /* OSU's tags */

/* One window's buffers. With -b single (OSU's default) every slot is the
 * same pair, OSU's s_buf[0] and r_buf[0], of the largest size, made once by
 * setup and kept in c->user for every size, as OSU allocates them; with -b
 * multiple each message has its own buffers of this size. */
typedef struct {
  int window, capacity, slots;
  int kept;          /* setup's single pair: not freed after the size */
  char **send, **recv;
  MPI_Request *req;  /* the sends, then the receives */
} windows_t;

static void windows_free(windows_t *w) {
  for (int j = 0; j < w->slots; j++) {
    osu_free(w->send[j]);
    osu_free(w->recv[j]);
  }
  free(w->send);
  free(w->recv);
  free(w->req);
  memset(w, 0, sizeof(*w));
}

/* This rank's slots buffers of bytes each (written), room for windows of up
 * to capacity messages. -1 when memory ran out (what was had is freed). */
static int windows_make(windows_t *w, int capacity, int slots, size_t bytes) {
  memset(w, 0, sizeof(*w));
  w->capacity = w->window = capacity;
  w->send = calloc((size_t)capacity, sizeof(*w->send));
  w->recv = calloc((size_t)capacity, sizeof(*w->recv));
  w->req = malloc(2 * (size_t)capacity * sizeof(*w->req));
  int failed = !w->send || !w->recv || !w->req;
  for (; !failed && w->slots < slots; w->slots++) {
    w->send[w->slots] = osu_alloc(bytes, 'a');
    w->recv[w->slots] = osu_alloc(bytes, 'b');
    if (!w->send[w->slots] || !w->recv[w->slots]) failed = 1;
  }
  if (failed) {
    windows_free(w);
    return -1;
  }
  for (int j = slots; slots > 0 && j < capacity; j++) {
    w->send[j] = w->send[0];
    w->recv[j] = w->recv[0];
  }
  return 0;
}

/* After a size: its own buffers go, setup's kept pair stays. */
static void windows_done(windows_t *w) {
  if (!w->kept) windows_free(w);
}

/* Whether this rank sends or receives at all (mbw_mr's ranks beyond the pairs do not). */
static int pairs_of(const osu_ctx_t *c) { return c->o->pairs > 0 ? c->o->pairs : c->np / 2; }
static int uses_buffers(const osu_ctx_t *c) {
  return c->test->family != OSU_FAM_MBW_MR || c->rank < 2 * pairs_of(c);
}

/* The row's window: -W's, or the one mbw_mr -V measures now. */
static int window_of(const osu_ctx_t *c) { return c->window > 0 ? c->window : c->o->window; }

int osu_setup_bw(osu_ctx_t *c) {
  const osu_options_t *o = c->o;
  windows_t *w = calloc(1, sizeof(*w));
  int capacity = o->vary_window && o->window < 128 ? 128 : o->window;  /* -V: OSU's windows go to 128 */
  int slots = !o->buffer_multiple && uses_buffers(c) ? 1 : 0;
  if (!w || windows_make(w, capacity, slots, o->max_size) != 0) {
    free(w);
    snprintf(c->err, sizeof(c->err), "no memory for two %zu-byte buffers", o->max_size);
    return -1;
  }
  w->kept = 1;
  c->user = w;
  return 0;
}

int osu_teardown_bw(osu_ctx_t *c) {
  windows_t *w = c->user;
  if (w) windows_free(w);
  free(w);
  c->user = NULL;
  return 0;
}

/* Collective: this size's window buffers, written before any timing (OSU
 * writes its kept pair at every size too). -1 on every rank, and
 * row->status, when one rank lacks its buffers. */
static int windows_for_size(osu_ctx_t *c, windows_t *w, osu_row_t *row) {
  const windows_t *kept = c->user;
  int window = window_of(c), failed = 0, slots = 0;
  if (kept && kept->kept && !c->o->buffer_multiple && window <= kept->capacity) {
    *w = *kept;
    w->window = window;
    for (int j = 0; j < w->slots; j++) {
      memset(w->send[j], 'a', c->bytes);
      memset(w->recv[j], 'b', c->bytes);
    }
  } else {
    slots = uses_buffers(c) ? (c->o->buffer_multiple ? window : 1) : 0;
    failed = windows_make(w, window, slots, c->bytes) != 0;
  }
  char name[64];
  snprintf(name, sizeof(name), "osu_%s", c->test->name);
  if (own_buffers_ok(failed, name, (double)c->bytes * 2 * (slots > 0 ? slots : 1))) return 0;
  if (!failed) windows_done(w);
  row->status = OSU_ROW_OUT_OF_MEMORY;
  return -1;
}

/* OSU's -c before iteration iter: the pattern in what is sent (message j of
 * a -b multiple window has seed +j, as OSU's), zeros where it is received. */
static long seed_of(const osu_ctx_t *c, const windows_t *w, long iter, int j) {
  return (long)c->bytes + iter + (w->slots > 1 ? j : 0);
}

static void windows_pattern(const osu_ctx_t *c, windows_t *w, long iter) {
  for (int j = 0; j < w->slots; j++) {
    osu_pattern_fill(w->send[j], c->count, c->type, seed_of(c, w, iter, j));
    memset(w->recv[j], 0, c->bytes);
  }
}

static long windows_defects(const osu_ctx_t *c, const windows_t *w, long iter) {
  long defects = 0;
  for (int j = 0; j < w->slots; j++) defects += osu_pattern_defects(w->recv[j], c->count, c->type, seed_of(c, w, iter, j));
  return defects;
}

static void post(const osu_ctx_t *c, windows_t *w, int sending, int peer, int tag, MPI_Request *req) {
  for (int j = 0; j < w->window; j++) {
    if (sending) MPI_Isend(w->send[j], (int)c->count, c->type, peer, tag, c->comm, &req[j]);
    else MPI_Irecv(w->recv[j], (int)c->count, c->type, peer, tag, c->comm, &req[j]);
  }
}

/* bw's and mbw_mr's sender: a window out, then the receiver's acknowledgement. */
static void send_window(const osu_ctx_t *c, windows_t *w, int peer) {
  char ack;
  post(c, w, 1, peer, TAG_DATA, w->req);
  MPI_Waitall(w->window, w->req, MPI_STATUSES_IGNORE);
  MPI_Recv(&ack, 1, MPI_CHAR, peer, TAG_ACK, c->comm, MPI_STATUS_IGNORE);
}

static void receive_window(const osu_ctx_t *c, windows_t *w, int peer) {
  char ack = 0;
  post(c, w, 0, peer, TAG_DATA, w->req);
  MPI_Waitall(w->window, w->req, MPI_STATUSES_IGNORE);
  MPI_Send(&ack, 1, MPI_CHAR, peer, TAG_ACK, c->comm);
}

/* bibw: both ranks receive a window and send one at once (rank 0 on TAG_DATA
 * to rank 1, rank 1 back on TAG_REVERSE), done when all of it is. */
static void exchange_window(const osu_ctx_t *c, windows_t *w, int peer) {
  int out = c->rank == 0 ? TAG_DATA : TAG_REVERSE, in = c->rank == 0 ? TAG_REVERSE : TAG_DATA;
  post(c, w, 0, peer, in, w->req + w->window);
  post(c, w, 1, peer, out, w->req);
  MPI_Waitall(2 * w->window, w->req, MPI_STATUSES_IGNORE);
}

/* Rank 0: -z's figures, the percentiles of each timed iteration's own MB/s
 * (bytes_per_iteration over that iteration's time in c->times_ns). */
static void bandwidth_tail(const osu_ctx_t *c, double bytes_per_iteration, osu_row_t *row) {
  long n = c->iterations;
  if (c->o->n_tail <= 0 || n <= 0) return;
  double *mbps = malloc(sizeof(double) * (size_t)n);
  if (!mbps) return;
  for (long i = 0; i < n; i++) mbps[i] = bytes_per_iteration / 1e6 / (c->times_ns[i] * 1e-9);
  osu_tail_pick(c->o, mbps, n, row->tail);
  free(mbps);
}

/* Rank 0: OSU's MB/s from the per-iteration times in c->times_ns (which are
 * the samples): all the timed bytes over the summed time. */
static void bandwidth_figures(osu_ctx_t *c, double bytes_per_iteration, osu_row_t *row) {
  double sum_ns = 0;
  for (long i = 0; i < c->iterations; i++) sum_ns += c->times_ns[i];
  row->mbytes_per_sec = bytes_per_iteration / 1e6 * (double)c->iterations / (sum_ns * 1e-9);
  row->iterations = c->iterations;
  row->samples_ns = c->times_ns;
  row->n_samples = c->iterations;
}

int osu_measure_bw(osu_ctx_t *c, osu_row_t *row) {
  const osu_options_t *o = c->o;
  int window = window_of(c);
  windows_t w;
  if (windows_for_size(c, &w, row) != 0) return -1;
  int both_ways = c->test->bandwidth == 2, peer = 1 - c->rank;
  long rounds = o->validate ? o->validation_warmup : 0, defects = 0;
  MPI_Barrier(c->comm);
  for (long i = 0; i < c->skip + c->iterations; i++) {
    if (o->validate) {
      windows_pattern(c, &w, i);
      MPI_Barrier(c->comm);
    }
    /* -c's -u rounds repeat the iteration untimed first; the last is the timed one. */
    for (long k = 0; k <= rounds; k++) {
      int timed = c->rank == 0 && i >= c->skip && k == rounds;
      int64_t t0 = timed ? now_ns() : 0;
      if (both_ways) exchange_window(c, &w, peer);
      else if (c->rank == 0) send_window(c, &w, peer);
      else receive_window(c, &w, peer);
      if (timed) c->times_ns[i - c->skip] = (double)(now_ns() - t0);
    }
    if (o->validate && (both_ways || c->rank == 1)) defects += windows_defects(c, &w, i);
  }
  windows_done(&w);
  osu_check_verdict(c, defects, row);
  if (c->rank == 0) {
    double bytes_per_iteration = (double)c->bytes * window * c->test->bandwidth;
    bandwidth_figures(c, bytes_per_iteration, row);
    bandwidth_tail(c, bytes_per_iteration, row);
  }
  return 0;
}

/* mbw_mr: ranks below `pairs` send to rank + pairs; ranks beyond the pairs
 * only join the barriers. An untimed barrier of every rank opens each
 * iteration and another each of -c's rounds, as OSU's. */
int osu_measure_mbw_mr(osu_ctx_t *c, osu_row_t *row) {
  const osu_options_t *o = c->o;
  int pairs = pairs_of(c);
  int sender = c->rank < pairs, receiver = !sender && c->rank < 2 * pairs;
  int peer = sender ? c->rank + pairs : c->rank - pairs;
  int window = window_of(c);
  windows_t w;
  if (windows_for_size(c, &w, row) != 0) return -1;
  long rounds = o->validate ? o->validation_warmup : 0, defects = 0;
  MPI_Barrier(c->comm);
  for (long i = 0; i < c->skip + c->iterations; i++) {
    if (o->validate) windows_pattern(c, &w, i);
    MPI_Barrier(c->comm);
    for (long k = 0; k <= rounds; k++) {
      MPI_Barrier(c->comm);
      int timed = sender && i >= c->skip && k == rounds;
      int64_t t0 = timed ? now_ns() : 0;
      if (sender) send_window(c, &w, peer);
      else if (receiver) receive_window(c, &w, peer);
      if (timed) c->times_ns[i - c->skip] = (double)(now_ns() - t0);
    }
    if (o->validate && receiver) defects += windows_defects(c, &w, i);
  }
  windows_done(&w);
  osu_check_verdict(c, defects, row);
  double bytes_per_iteration = (double)c->bytes * window * pairs;
  /* OSU's tail figures come from rank 0's own iterations ... */
  if (c->rank == 0) bandwidth_tail(c, bytes_per_iteration, row);
  /* ... its MB/s from the senders' mean time, which per iteration are the samples. */
  osu_mean_over_ranks(c, pairs);
  if (c->rank == 0) {
    bandwidth_figures(c, bytes_per_iteration, row);
    row->msgs_per_sec = 1e6 * row->mbytes_per_sec / (double)c->bytes;  /* OSU's Messages/s */
  }
  return 0;
}
