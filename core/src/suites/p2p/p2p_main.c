/* mpimark-core p2p [options] [benchmarks]: IMB-P2P's program (docs/p2p.md).
 * Every benchmark runs once on all processes over the size list; per size
 * a pause, IMB-P2P's dissemination barrier, the warm-up, a barrier (not for
 * SendRecv_Replace), the timed loop, a pause and a barrier. Each rank times
 * its loop as one; rank 0 forms IMB-P2P's figures from every rank's loop
 * time and the messages each sent, and hands the row to the reporters. */
#include "suites/p2p/p2p_main.h"
#include "engine/check.h"
#include "engine/comms.h"
#include "engine/datatypes.h"
#include "engine/finish.h"
#include "engine/sysinfo.h"
#include "suites/common/batched_loop.h"
#include "suites/common/own_suite.h"
#include "suites/p2p/kernels_p2p.h"
#include "suites/p2p/p2p_options.h"
#include "suites/p2p/p2p_plan.h"
#include "util/policy.h"
#include "util/timer.h"

#include <math.h>
#include <mpi.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

static void usage(const char *topic) {
  if (topic[0]) {
    if (!strcmp(topic, "iter"))
      printf("-iter MAX[,MB]: iterations per size = round(MB * 2^20 / size), at most MAX, at least 1;\n"
             "MAX for size 0. Default -iter 100000,800. The warm-up is a tenth of that (at least 1).\n");
    else if (!strcmp(topic, "msglog"))
      printf("-msglog N: sizes 0, 1, 2, 4, ..., 2^N.  -msglog K:N: sizes 2^K, ..., 2^N (N <= %d).\n", P2P_MAX_MSG_LOG);
    else if (!strcmp(topic, "msglen"))
      printf("-msglen FILE: sizes from FILE, one per line, K/M/G suffixes allowed; '#' lines are skipped.\n");
    else if (!strcmp(topic, "msgsz"))
      printf("-msgsz SIZE: one size (K/M/G suffixes allowed); repeat it for more.\n");
    else if (!strcmp(topic, "msgwr") || !strcmp(topic, "msgrd"))
      printf("-msgwr BOOL / -msgrd BOOL: write to every cache line of a message before sending it / read\n"
             "every cache line of what arrived, inside the timing (on).\n");
    else if (!strcmp(topic, "pause"))
      printf("-pause USEC: sleep before and after every size's timed loop (100000; -1: none).\n");
    else
      printf("no help for '%s'; mpimark-core p2p -help lists the options\n", topic);
    return;
  }
  printf("usage: mpimark-core p2p [benchmark[,benchmark...]] [options]   (IMB-P2P)\n\n"
         "IMB-P2P's options:\n"
         "  -iter MAX[,MB]        iterations = MB*2^20/size, at most MAX (100000,800)\n"
         "  -msglog [K:]N         sizes 0,1,2,..,2^N, or 2^K..2^N (0:22 with 0)\n"
         "  -msglen FILE          sizes from a file, one per line\n"
         "  -msgsz SIZE           a size (repeatable)\n"
         "  -msgwr BOOL           touch the send buffer before every send (on)\n"
         "  -msgrd BOOL           touch the receive buffer after every receive (on)\n"
         "  -pause USEC           sleep before and after every size (100000)\n"
         "  -list                 the benchmarks (mpimark-core's list)\n"
         "  -help [OPTION]        this text, or one option's\n\n"
         "mpimark options:\n"
         "  -check [on|off]       after each size, one untimed iteration with patterned data, verified (off)\n"
         "  -json FILE            write the JSON Lines results stream to FILE\n");
}

static void write_options(jw_t *w, const void *ctx) {
  const p2p_options_t *o = ctx;
  jw_obj_begin(w, "options");
  jw_arr_begin(w, "msgsizes");
  for (int i = 0; i < o->n_sizes; i++) jw_int(w, NULL, (int64_t)o->sizes[i]);
  jw_arr_end(w);
  jw_str(w, "msglen", o->msglen_file[0] ? o->msglen_file : NULL);
  jw_int(w, "iter_max", (int64_t)o->iter_max);
  jw_num(w, "iter_numerator_mb", (double)o->numerator / 1048576.0);
  jw_str(w, "msgwr", o->touch_send ? "on" : "off");
  jw_str(w, "msgrd", o->touch_recv ? "on" : "off");
  jw_int(w, "pause_usec", o->pause_usec);
  jw_str(w, "check", o->check ? "on" : "off");
  jw_obj_end(w);
}

static void pause_us(int us) {
  if (us < 0) return;
  struct timespec ts = {us / 1000000, (long)(us % 1000000) * 1000};
  nanosleep(&ts, NULL);
}

static void sync_all(void) { barriers(MPI_COMM_WORLD, 1, 1); }

/* IMB-P2P's buffers come from MPI_Alloc_mem, which a library may place or
 * register for faster transfers; so do ours. NULL on failure. */
static char *alloc_mem(size_t bytes) {
  void *p = NULL;
  MPI_Comm_set_errhandler(MPI_COMM_WORLD, MPI_ERRORS_RETURN);
  int rc = MPI_Alloc_mem((MPI_Aint)bytes, MPI_INFO_NULL, &p);
  MPI_Comm_set_errhandler(MPI_COMM_WORLD, MPI_ERRORS_ARE_FATAL);
  return rc == MPI_SUCCESS ? p : NULL;
}

static void free_mem(char *p) {
  if (p) MPI_Free_mem(p);
}

/* Whether d runs on np processes; sets the stencil's grid and neighbours. */
static int place(const bench_desc *d, p2p_state_t *s, int rank, int np, char *grid, size_t len) {
  s->n_neighbours = 0;
  if (np < 2) return 0;
  if (d->flags & BF_P2P_EVEN) {
    s->partner = p2p_partner(rank, np);
    return np % 2 == 0;
  }
  if (d->flags & BF_P2P_GRID2D) {
    if (p2p_grid2d(np, &s->grid[0], &s->grid[1]) != 0) return 0;
    p2p_neighbours2d(rank, s->grid[0], s->grid[1], s->neighbours);
    s->n_neighbours = 4;
    snprintf(grid, len, "%d x %d", s->grid[1], s->grid[0]);
  }
  if (d->flags & BF_P2P_GRID3D) {
    if (p2p_grid3d(np, &s->grid[0], &s->grid[1], &s->grid[2]) != 0) return 0;
    p2p_neighbours3d(rank, s->grid[0], s->grid[1], s->grid[2], s->neighbours);
    s->n_neighbours = 6;
    snprintf(grid, len, "%d x %d x %d", s->grid[2], s->grid[1], s->grid[0]);
  }
  return 1;
}

typedef struct {
  size_t n;            /* timed iterations */
  long batch, n_batches;
  double *samples;     /* this rank's ns per iteration, per batch */
  double loop_s;       /* this rank's timed loop */
  long defects;
} size_run_t;

/* One size on this rank: warm-up, timed loop, and with -check one
 * verified iteration after it. */
static void run_size(bench_ctx *c, p2p_state_t *s, const p2p_options_t *o, size_t size, size_run_t *m) {
  const bench_desc *d = c->desc;
  size_t warm;
  c->bytes = c->count = size;
  p2p_iterations(size, o->numerator, o->iter_max, &m->n, &warm);
  pause_us(o->pause_usec);
  sync_all();
  p2p_state_restart(s, c->np);
  int64_t t0 = now_ns();
  for (size_t i = 0; i < warm; i++) d->run(c, (long)i);
  double per_iter = warm ? (double)(now_ns() - t0) * 1e-9 / (double)warm : -1;
  MPI_Allreduce(MPI_IN_PLACE, &per_iter, 1, MPI_DOUBLE, MPI_MAX, MPI_COMM_WORLD);
  m->batch = policy_batch((long)m->n, per_iter, 0, 0, 0);
  m->n_batches = batch_count((long)m->n, m->batch);
  m->samples = malloc(sizeof(double) * (size_t)m->n_batches);
  if (!(d->flags & BF_P2P_NO_SYNC)) sync_all();
  p2p_state_restart(s, c->np);
  s->sent = 0;
  m->loop_s = (double)batched_loop(c, (long)m->n, m->batch, m->samples) * 1e-9;
  pause_us(o->pause_usec);
  sync_all();
  m->defects = -1;
  if (o->check) {
    int ts = s->touch_send, tr = s->touch_recv;
    int nbuf = s->n_neighbours ? s->n_neighbours : 1;
    for (int i = 0; i < nbuf; i++) {
      fill_values(c->sbuf + (size_t)i * s->slot, DT_BYTE, size, c->rank, 0);
      poison(c->rbuf + (size_t)i * s->slot, size);
    }
    s->touch_send = s->touch_recv = 0;
    s->last_from = -1;
    double sent = s->sent;
    p2p_state_restart(s, c->np);
    d->run(c, 0);
    s->sent = sent;
    m->defects = d->verify(c, 0);
    s->touch_send = ts;
    s->touch_recv = tr;
    sync_all();
  }
}

/* Rank 0: IMB-P2P's row from every rank's loop time and messages sent. */
static void report_size(const table_info_t *ti, const bench_desc *d, size_t size, size_run_t *m, const double *all,
                        double *samples_max, long defects, int np) {
  double sum = 0, max = 0, sent = 0;
  for (int r = 0; r < np; r++) {
    sum += all[2 * r];
    max = all[2 * r] > max ? all[2 * r] : max;
    sent += all[2 * r + 1];
  }
  result_t res;
  memset(&res, 0, sizeof(res));
  res.table = ti;
  res.group = -1;
  res.bytes = res.count = size;
  res.datatype = "MPI_BYTE";
  res.status = ST_OK;
  res.repetitions = (long)m->n;
  /* Each rank's share of the latency, so that their average is IMB's t. */
  double *rank_us = malloc(sizeof(double) * (size_t)np);
  spread_t sp;
  spread_init(&sp);
  for (int r = 0; r < np; r++) {
    rank_us[r] = sent > 0 ? 1e6 * d->time_scale * all[2 * r] * np / sent : 0;
    spread_add(&sp, rank_us[r], r);
  }
  res.t_min_us = sp.min;
  res.t_max_us = sp.max;
  res.t_avg_us = sent > 0 ? 1e6 * d->time_scale * sum / sent : 0;
  res.mbytes_per_sec = max > 0 ? sent * (double)size / (1e6 * max) : 0;
  res.msgs_per_sec = max > 0 ? sent / max : 0;
  res.t_pure_us = res.t_cpu_us = res.overlap_pct = res.overlap_pct_max = NAN;
  res.ovrl_rank = -1;
  res.checked = defects >= 0;
  res.defects = defects > 0 ? defects : 0;
  res.rank_us = rank_us;
  res.n_rank_us = np;
  res.invalid_samples = -1;
  res.loops = 1;
  res.ci_target = NAN;
  for (long b = 0; b < m->n_batches; b++) samples_max[b] *= d->time_scale;
  own_samples(&res, samples_max, m->n_batches, m->batch);
  report_result(&res);
  free(rank_us);
}

/* One benchmark over every size; returns the defects found (0 without -check), or -1 when the buffers
 * could not be had, and counts its rows in *results. */
/* What every benchmark of the run needs (own_run's context). */
typedef struct {
  const p2p_options_t *o;
  int rank, np;
} p2p_run_t;

static long run_benchmark(void *ctx, const bench_desc *d, const int *ranks, long *results) {
  const p2p_run_t *run = ctx;
  const p2p_options_t *o = run->o;
  int rank = run->rank, np = run->np;
  p2p_state_t s;
  memset(&s, 0, sizeof(s));
  s.touch_send = o->touch_send;
  s.touch_recv = o->touch_recv;
  char grid[48] = "";
  table_info_t ti = {.suite = "p2p", .bench = d, .np = np, .n_groups = 1, .multi = -1, .group_ranks = ranks,
                     .map_p = 1, .map_q = 1, .n_sizes = o->n_sizes, .mode = -1};
  ti.invalid = !place(d, &s, rank, np, grid, sizeof(grid));
  ti.grid = grid[0] ? grid : NULL;
  if (rank == 0) report_table_begin(&ti);
  if (ti.invalid) return 0;
  /* IMB-P2P's buffers: the largest size, one per neighbour, written before any timing. */
  size_t max = p2p_max_size(o);
  int nbuf = s.n_neighbours ? s.n_neighbours : 1;
  s.slot = max;
  bench_ctx c;
  memset(&c, 0, sizeof(c));
  c.desc = d;
  c.comm = MPI_COMM_WORLD;
  c.rank = rank;
  c.np = np;
  c.dt = DT_BYTE;
  c.s_slots = c.r_slots = 1;
  c.user = &s;
  size_t bytes = max * (size_t)nbuf > 0 ? max * (size_t)nbuf : 1;
  c.sbuf = alloc_mem(bytes);
  c.rbuf = alloc_mem(bytes);
  s.ring = malloc(sizeof(int) * (size_t)np);
  if (!own_buffers_ok(!c.sbuf || !c.rbuf || !s.ring, d->name, 2.0 * (double)max * nbuf)) {
    free_mem(c.sbuf);
    free_mem(c.rbuf);
    free(s.ring);
    return -1;
  }
  memset(c.sbuf, rank, max * (size_t)nbuf);
  memset(c.rbuf, rank, max * (size_t)nbuf);
  long defects = 0;
  for (int k = 0; k < o->n_sizes; k++) {
    size_run_t m;
    run_size(&c, &s, o, o->sizes[k], &m);
    double mine[2] = {m.loop_s, s.sent};
    double *all = rank == 0 ? malloc(sizeof(double) * 2 * (size_t)np) : NULL;
    double *smax = rank == 0 ? malloc(sizeof(double) * (size_t)m.n_batches) : NULL;
    MPI_Gather(mine, 2, MPI_DOUBLE, all, 2, MPI_DOUBLE, 0, MPI_COMM_WORLD);
    MPI_Reduce(m.samples, smax, (int)m.n_batches, MPI_DOUBLE, MPI_MAX, 0, MPI_COMM_WORLD);
    long bad = m.defects, total = 0;
    MPI_Reduce(&bad, &total, 1, MPI_LONG, MPI_SUM, 0, MPI_COMM_WORLD);
    if (rank == 0) report_size(&ti, d, o->sizes[k], &m, all, smax, o->check ? total : -1, np);
    defects += o->check ? total : 0;
    (*results)++;
    free(all);
    free(smax);
    free(m.samples);
  }
  free_mem(c.sbuf);
  free_mem(c.rbuf);
  free(s.ring);
  return defects;
}


int p2p_main(int argc, char **argv) {
  static p2p_options_t o;
  char err[ERR_LEN] = {0};
  p2p_options_defaults(&o);
  int parse_rc = p2p_options_parse(&o, argc, argv, 2, err, sizeof(err));
  MPI_Init(&argc, &argv);
  int rank, np;
  MPI_Comm_rank(MPI_COMM_WORLD, &rank);
  MPI_Comm_size(MPI_COMM_WORLD, &np);
  if (parse_rc != 0) return finish(rank, EXIT_BAD_INPUT, err);
  if (o.help) {
    if (rank == 0) usage(o.help_topic);
    return finish(rank, 0, NULL);
  }
  static const bench_desc *list[P2P_MAX_NAMES + 16];
  int n = 0;
  if (own_list(&suite_p2p, o.names, o.n_names, list, &n, err, sizeof(err)) != 0)
    return finish(rank, EXIT_BAD_INPUT, err);
  if (own_reporters(imb_p2p_text_reporter(), o.json_path, err, sizeof(err)) != 0)
    return finish(rank, EXIT_BAD_INPUT, err);

  static run_info_t info;
  host_share_t host;
  run_info_collect(&info, &host, argc, argv, "MPI_THREAD_SINGLE", "MPI_THREAD_SINGLE");
  info.suite = &suite_p2p;
  info.benchmarks = list;
  info.n_benchmarks = n;
  info.write_options = write_options;
  info.options_ctx = &o;
  info.min_bytes = p2p_min_size(&o);
  info.max_bytes = p2p_max_size(&o);
  p2p_run_t run = {.o = &o, .rank = rank, .np = np};
  own_driver_t drv = {.run = run_benchmark, .ctx = &run, .before_end = sync_all, .defects_what = "received bytes",
                      .too_big = "the largest size"};
  int code = own_run(&info, rank, np, &drv, err, sizeof(err));
  return finish(rank, code, err);
}
