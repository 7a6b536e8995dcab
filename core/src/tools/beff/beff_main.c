/* mpimark-core beff [-mem MB] [-json FILE] [-out PREFIX] ...: the effective
 * bandwidth b_eff as HLRS's definition (b_eff.c 3.6) gives it: 21 lengths,
 * 6 ring and 30 random patterns (plus patterns only reported), three
 * methods, repetitions; maximum over methods and repetitions, average over
 * lengths, logarithmic averages over ring and random patterns, then over
 * both. See docs/beff.md for every formula and for what differs. */
#include "tools/beff/beff.h"
#include "engine/comms.h"
#include "engine/finish.h"
#include "util/parse.h"
#include "util/strutil.h"
#include "util/timer.h"

#include <errno.h>
#include <limits.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>


const char *const beff_method_name[BEFF_METHODS] = {"Sndrcv", "Alltoal", "non-blk"};

static void usage(FILE *f) {
  fprintf(f,
    "usage: mpimark-core beff [options]\n"
    "\n"
    "The effective bandwidth b_eff (HLRS b_eff 3.6): ring and random patterns, 21 message\n"
    "lengths from 1 byte to Lmax = min(128 MB, memory per process / 128), the best of\n"
    "MPI_Sendrecv, MPI_Alltoallv and MPI_Irecv/MPI_Isend/MPI_Waitall. Needs 2 or more processes.\n"
    "\n"
    "  -mem MB          memory per process in MiB (default: MemTotal / processes on the host)\n"
    "  -out PREFIX      output files PREFIX.prot .short .sum .plot .gps (default b_eff); -f is the same\n"
    "  -json FILE       write the JSON Lines results stream to FILE\n"
    "  -short           the original's SHORT build: 2 repetitions, 0.05 s per loop, 6 random patterns\n"
    "  -test            the original's TEST build: 0.005 s per loop, 2 random patterns\n"
    "                   (-short and -test results are tagged b_effSHORT / b_effTEST: not official)\n"
    "  -noshortlasttwo  always measure the two largest lengths with every method and repetition\n"
    "  -seed N          seed of the random patterns (default: the time)\n"
    "  -yrange MIN:MAX  y range of the gnuplot script, e.g. 0.01:10000 or [0.01:10000] (default: autoscale)\n"
    "  -help            this text\n");
}

/* MIN:MAX, or [MIN:MAX] as the original's help writes it, with 0 < MIN < MAX:
 * out gets MIN:MAX as written (the .gps script adds the brackets). 0, or -1. */
static int parse_yrange(const char *v, char *out, size_t size) {
  size_t len = strlen(v);
  int bracketed = v[0] == '[';
  if (bracketed && (len < 2 || v[len - 1] != ']')) return -1;
  char range[64];
  size_t n = len - 2 * (size_t)bracketed;
  if (n >= sizeof(range) || n >= size) return -1;
  memcpy(range, v + bracketed, n);
  range[n] = 0;
  char *colon = strchr(range, ':');
  if (!colon) return -1;
  *colon = 0;
  double lo, hi;
  if (parse_double(range, &lo) || parse_double(colon + 1, &hi) || !(lo > 0) || !(hi > lo)) return -1;
  *colon = ':';
  memcpy(out, range, n + 1);
  return 0;
}

static int parse_args(beff_t *s, int argc, char **argv, char *err) {
  snprintf(s->prefix, sizeof(s->prefix), "b_eff");
  for (int i = 2; i < argc; i++) {
    const char *a = argv[i];
    const char *v = i + 1 < argc ? argv[i + 1] : NULL;
    if (str_ieq(a, "-help") || str_ieq(a, "-h") || str_ieq(a, "--help")) { s->help = 1; continue; }
    if (str_ieq(a, "-short")) { s->short_mode = 1; continue; }
    if (str_ieq(a, "-test")) { s->test_mode = 1; continue; }
    if (str_ieq(a, "-noshortlasttwo")) { s->no_short_last_two = 1; continue; }
    if (str_ieq(a, "-mem") || str_ieq(a, "-out") || str_ieq(a, "-f") || str_ieq(a, "-json") ||
        str_ieq(a, "-seed") || str_ieq(a, "-yrange")) {
      if (!v) {
        snprintf(err, ERR_LEN, "%s needs a value; see 'mpimark-core beff -help'", a);
        return -1;
      }
      i++;
      if (str_ieq(a, "-mem")) {
        if (parse_integer(v, 1, 1LL << 40, &s->mem_mb)) {
          snprintf(err, ERR_LEN, "-mem '%s' is not a memory size in MiB; give a positive integer, e.g. -mem 128", v);
          return -1;
        }
        s->mem_given = 1;
      } else if (str_ieq(a, "-out") || str_ieq(a, "-f")) {
        if (!*v || strlen(v) >= sizeof(s->prefix) - 8) {
          snprintf(err, ERR_LEN, "%s needs a file name prefix of at most %zu characters", a, sizeof(s->prefix) - 8);
          return -1;
        }
        snprintf(s->prefix, sizeof(s->prefix), "%s", v);
      } else if (str_ieq(a, "-json")) {
        if (!*v || strlen(v) >= sizeof(s->json)) {
          snprintf(err, ERR_LEN, "-json needs a file name");
          return -1;
        }
        snprintf(s->json, sizeof(s->json), "%s", v);
      } else if (str_ieq(a, "-seed")) {
        long long seed;
        if (parse_integer(v, 0, LLONG_MAX, &seed)) {
          snprintf(err, ERR_LEN, "-seed '%s' is not a non-negative integer", v);
          return -1;
        }
        s->seed = (unsigned long long)seed;
      } else {
        if (parse_yrange(v, s->yrange, sizeof(s->yrange))) {
          snprintf(err, ERR_LEN, "-yrange '%s' is not MIN:MAX or [MIN:MAX] with 0 < MIN < MAX, e.g. 0.01:10000", v);
          return -1;
        }
      }
      continue;
    }
    snprintf(err, ERR_LEN, "unknown beff option '%s'; see 'mpimark-core beff -help'", a);
    return -1;
  }
  s->reps = s->short_mode ? 2 : BEFF_MAX_REPS;
  s->n_random = s->test_mode ? 2 : s->short_mode ? 6 : BEFF_MAX_RANDOM;
  s->time_per_loop = s->test_mode ? 5e-3 : s->short_mode ? 5e-2 : 5e-1;
  s->max_for_last_two = s->test_mode ? 1.0 : 60.0;
  s->tag = s->short_mode && s->test_mode ? "SHORT&TEST" : s->short_mode ? "SHORT" : s->test_mode ? "TEST" : "";
  return 0;
}

/* splitmix64: the random patterns' generator (rank 0 only). */
static double rnd_unit(void *state) {
  unsigned long long *x = state;
  unsigned long long z = (*x += 0x9E3779B97F4A7C15ULL);
  z = (z ^ (z >> 30)) * 0xBF58476D1CE4E5B9ULL;
  z = (z ^ (z >> 27)) * 0x94D049BB133111EBULL;
  z ^= z >> 31;
  return (double)(z >> 11) * (1.0 / 9007199254740992.0);
}

static beff_pattern_t *new_pattern(beff_t *s, const char *label, beff_class_t k, MPI_Comm comm) {
  beff_pattern_t *p = &s->pat[s->n_pat++];
  memset(p, 0, sizeof(*p));
  snprintf(p->label, sizeof(p->label), "%s", label);
  p->klass = k;
  p->comm = comm;
  p->participate = comm == MPI_COMM_NULL ? 0 : 1;
  return p;
}

/* A ping to next (receiving from prev) and a pong to prev (receiving from next). */
static void ping_pong(beff_pattern_t *p, int next, int prev) {
  p->sdest[p->sr_count] = next;
  p->rsrc[p->sr_count++] = prev;
  p->sdest[p->sr_count] = prev;
  p->rsrc[p->sr_count++] = next;
}

/* Pairs (2k, 2k+1) of ranks below 2*(n/2) in a one-directional ping-pong:
 * the first sends the ping, the second the pong. partner(r) gives the pair. */
static void pair_pattern(beff_pattern_t *p, int me, int limit, int partner, int first) {
  if (me >= limit) {
    p->participate = -1;       /* in the communicator, but without messages */
    return;
  }
  p->sr_count = 2;
  if (first) {
    p->sdest[0] = partner; p->rsrc[0] = MPI_PROC_NULL;
    p->sdest[1] = MPI_PROC_NULL; p->rsrc[1] = partner;
  } else {
    p->sdest[0] = MPI_PROC_NULL; p->rsrc[0] = partner;
    p->sdest[1] = partner; p->rsrc[1] = MPI_PROC_NULL;
  }
}

static void setup_patterns(beff_t *s) {
  int N = s->N, me = s->rank;
  int period = 1;
  MPI_Comm comm_1d;
  MPI_Cart_create(MPI_COMM_WORLD, 1, &N, &period, 1, &comm_1d);
  int pos;
  MPI_Comm_rank(comm_1d, &pos);

  /* Rings. */
  s->first_ring = 0;
  for (int i = 0; i < BEFF_RINGS; i++) {
    beff_ring_t r;
    char label[24];
    beff_ring_layout(N, i, &r);
    beff_ring_label(&r, label, sizeof(label));
    beff_pattern_t *p = new_pattern(s, label, PAT_RING, comm_1d);
    int prev, next;
    beff_ring_neighbours(&r, pos, &prev, &next);
    ping_pong(p, next, prev);
  }

  /* Random orders of a bidirectional ring, then the worst order (reported only). */
  s->first_random = s->n_pat;
  int *order = malloc(sizeof(int) * (size_t)N);
  unsigned long long state = s->seed;
  for (int i = 0; i <= s->n_random; i++) {
    if (me == 0) {
      if (i < s->n_random) beff_random_order(N, rnd_unit, &state, order);
      else beff_worst_order(N, order);
    }
    MPI_Bcast(order, N, MPI_INT, 0, MPI_COMM_WORLD);
    int at = 0;
    while (order[at] != me) at++;
    beff_pattern_t *p = new_pattern(s, i < s->n_random ? "random-cyc-1dim" : "worst-cyc-1dim",
                                    i < s->n_random ? PAT_RANDOM : PAT_EXTRA, MPI_COMM_WORLD);
    ping_pong(p, order[(at + 1) % N], order[(at - 1 + N) % N]);
  }
  free(order);
  s->first_extra = s->n_pat - 1;

  /* Best bi-section (2k <-> 2k+1), worst bi-section (k <-> n-1-k), one ping-pong pair (0 <-> 1). */
  int even = N / 2 * 2;
  beff_pattern_t *p = new_pattern(s, "best  bi-section", PAT_EXTRA, comm_1d);
  pair_pattern(p, pos, even, pos % 2 == 0 ? pos + 1 : pos - 1, pos % 2 == 0);
  p = new_pattern(s, "worst bi-section", PAT_EXTRA, comm_1d);
  pair_pattern(p, pos, even, even - 1 - pos, pos < even / 2);
  s->pingpong_pat = s->n_pat;
  p = new_pattern(s, "one PingPong Pair", PAT_EXTRA, comm_1d);
  pair_pattern(p, pos, 2, 1 - pos, pos == 0);
  p->sendrecv_only = 1;

  /* 2- and 3-dimensional Cartesian patterns, acyclic and cyclic: a ping-pong
   * with the neighbour in each direction, and in all directions at once. The
   * grid may leave ranks out: the largest size <= N whose last dimension
   * exceeds 1, or that is even and < 8, or < 4. */
  for (int cyclic = 0; cyclic < 2; cyclic++)
    for (int nd = 2; nd <= 3; nd++) {
      int dims[3], periods[3], size = N + 1;
      do {
        size--;
        for (int d = 0; d < nd; d++) dims[d] = 0;
        MPI_Dims_create(size, nd, dims);
      } while (!(dims[nd - 1] > 1 || (size < 8 && size % 2 == 0) || size < 4));
      for (int d = 0; d < nd; d++) periods[d] = cyclic;
      MPI_Comm cart;
      MPI_Cart_create(MPI_COMM_WORLD, nd, dims, periods, 1, &cart);
      if (!cyclic) {
        int n = snprintf(s->dims_line[s->n_dims_lines], 64, "%d-dim-patterns: size = %d", nd, dims[0]);
        for (int d = 1; d < nd && n < 60; d++) n += snprintf(s->dims_line[s->n_dims_lines] + n, (size_t)(64 - n), " * %d", dims[d]);
        s->n_dims_lines++;
      }
      char label[24];
      if (cyclic)
        for (int d = 0; d < nd; d++) {
          if (dims[d] < 2) continue;
          snprintf(label, sizeof(label), "cyclic-%ddim-%c", nd, 'x' + d);
          p = new_pattern(s, label, PAT_EXTRA, cart);
          if (cart != MPI_COMM_NULL) {
            int src, dest;
            MPI_Cart_shift(cart, d, 1, &src, &dest);
            ping_pong(p, dest, src);
          }
        }
      snprintf(label, sizeof(label), "%s-%ddim-all", cyclic ? "cyclic" : "acyclic", nd);
      p = new_pattern(s, label, PAT_EXTRA, cart);
      if (cart != MPI_COMM_NULL)
        for (int d = 0; d < nd; d++) {
          if (dims[d] < 2) continue;
          int src, dest;
          MPI_Cart_shift(cart, d, 1, &src, &dest);
          ping_pong(p, dest, src);
        }
    }

  /* A pong to the same partner as its ping (two processes in a cyclic
   * direction) is dropped: one Alltoallv carries one message per pair. */
  for (int i = 0; i < s->n_pat; i++) {
    p = &s->pat[i];
    for (int k = p->sr_count - 2; k >= 0; k -= 2) {
      if (p->sdest[k] != p->sdest[k + 1]) continue;
      for (int j = k + 2; j < p->sr_count; j++) {
        p->sdest[j - 1] = p->sdest[j];
        p->rsrc[j - 1] = p->rsrc[j];
      }
      p->sr_count--;
    }
  }

  /* Totals over all ranks. */
  long local[3 * BEFF_MAX_PATTERNS], total[3 * BEFF_MAX_PATTERNS];
  for (int i = 0; i < s->n_pat; i++) {
    p = &s->pat[i];
    long sends = 0;
    if (p->participate == 1)
      for (int k = 0; k < p->sr_count; k++) sends += p->sdest[k] != MPI_PROC_NULL;
    local[3 * i] = sends;
    local[3 * i + 1] = p->participate == 1;
    local[3 * i + 2] = 0;
  }
  MPI_Allreduce(local, total, 3 * s->n_pat, MPI_LONG, MPI_SUM, MPI_COMM_WORLD);
  for (int i = 0; i < s->n_pat; i++) {
    s->pat[i].all_msg = total[3 * i];
    s->pat[i].participants = (int)total[3 * i + 1];
    local[i] = s->pat[i].sr_count;
  }
  MPI_Allreduce(local, total, s->n_pat, MPI_LONG, MPI_MAX, MPI_COMM_WORLD);
  for (int i = 0; i < s->n_pat; i++) s->pat[i].sr_max = (int)total[i];
}

/* The state of one rank's measurement loop. */
typedef struct {
  char *sbuf, *rbuf;
  long long buflng, base;
  int *scounts, *rcounts, *sdispls, *rdispls;
  long defects;
  /* Local per cell: time of the timed loop (s) and this rank's bandwidth. */
  double *t_local, *bw_local;
  unsigned char *took_part;
} loop_state_t;

static void put_marks(loop_state_t *ls, long long L, int slot, int msg) {
  char v1 = (char)(slot * msg + 1), v2 = (char)(2 * v1 - 1);
  ls->sbuf[ls->base] = v1;
  ls->sbuf[ls->base + L - 1] = v2;
}

static void check_marks(loop_state_t *ls, long long at, long long L, int slot, int msg) {
  char v1 = (char)(slot * msg + 1), v2 = (char)(2 * v1 - 1);
  if (ls->rbuf[at] != v1 || ls->rbuf[at + L - 1] != v2) ls->defects++;
}

/* Advances the cyclic buffer position for a message of L bytes; returns where it goes. */
static long long next_base(loop_state_t *ls, long long L8) {
  if (ls->base + L8 > ls->buflng) ls->base = 0;
  return ls->base;
}

/* One (pattern, method, length): the timed loop of `loops` iterations after
 * `pre` untimed ones. Returns the timed seconds (0 when the rank has no part). */
static double run_cell(beff_t *s, loop_state_t *ls, const beff_pattern_t *p, int mthd, int msg, int loops, int pre) {
  const long long L = s->len[msg], L8 = (L + 7) / 8 * 8;
  const int n = p->sr_count;
  int64_t t0 = 0, t1;
  if (mthd == BEFF_ALLTOALLV) {
    if (p->participate == 0) return 0;
    for (int k = 0; k < n; k++) {
      if (p->sdest[k] != MPI_PROC_NULL) ls->scounts[p->sdest[k]] = (int)L;
      if (p->rsrc[k] != MPI_PROC_NULL) ls->rcounts[p->rsrc[k]] = (int)L;
    }
    long long at[BEFF_MAXSR];
    for (int i = -pre; i < loops; i++) {
      if (i == 0) t0 = now_ns();
      for (int k = 0; k < n; k++) {
        at[k] = next_base(ls, L8);
        put_marks(ls, L, k, msg);
        if (p->sdest[k] != MPI_PROC_NULL) ls->sdispls[p->sdest[k]] = (int)at[k];
        if (p->rsrc[k] != MPI_PROC_NULL) ls->rdispls[p->rsrc[k]] = (int)at[k];
        ls->base += L8;
      }
      MPI_Alltoallv(ls->sbuf, ls->scounts, ls->sdispls, MPI_BYTE, ls->rbuf, ls->rcounts, ls->rdispls, MPI_BYTE,
                    p->comm);
      for (int k = 0; k < n; k++)
        if (p->rsrc[k] != MPI_PROC_NULL) check_marks(ls, at[k], L, k, msg);
    }
    t1 = now_ns();
    for (int k = 0; k < n; k++) {
      if (p->sdest[k] != MPI_PROC_NULL) ls->scounts[p->sdest[k]] = ls->sdispls[p->sdest[k]] = 0;
      if (p->rsrc[k] != MPI_PROC_NULL) ls->rcounts[p->rsrc[k]] = ls->rdispls[p->rsrc[k]] = 0;
    }
    return p->participate == 1 ? (double)(t1 - t0) * 1e-9 : 0;
  }
  if (p->participate != 1) return 0;
  if (mthd == BEFF_SNDRCV) {
    for (int i = -pre; i < loops; i++) {
      if (i == 0) t0 = now_ns();
      for (int k = 0; k < n; k++) {
        long long at = next_base(ls, L8);
        put_marks(ls, L, k, msg);
        int dest = p->sdest[k], src = p->rsrc[k];
        if (src == MPI_PROC_NULL)
          MPI_Send(ls->sbuf + at, (int)L, MPI_BYTE, dest, k, p->comm);
        else if (dest == MPI_PROC_NULL)
          MPI_Recv(ls->rbuf + at, (int)L, MPI_BYTE, src, k, p->comm, MPI_STATUS_IGNORE);
        else
          MPI_Sendrecv(ls->sbuf + at, (int)L, MPI_BYTE, dest, k, ls->rbuf + at, (int)L, MPI_BYTE, src, k, p->comm,
                       MPI_STATUS_IGNORE);
        if (src != MPI_PROC_NULL) check_marks(ls, at, L, k, msg);
        ls->base += L8;
      }
    }
  } else {
    MPI_Request rq[2 * BEFF_MAXSR];
    long long at[BEFF_MAXSR];
    for (int i = -pre; i < loops; i++) {
      if (i == 0) t0 = now_ns();
      int nrq = 0;
      for (int k = 0; k < n; k++) {
        at[k] = next_base(ls, L8);
        put_marks(ls, L, k, msg);
        if (p->rsrc[k] != MPI_PROC_NULL)
          MPI_Irecv(ls->rbuf + at[k], (int)L, MPI_BYTE, p->rsrc[k], k, p->comm, &rq[nrq++]);
        if (p->sdest[k] != MPI_PROC_NULL)
          MPI_Isend(ls->sbuf + at[k], (int)L, MPI_BYTE, p->sdest[k], k, p->comm, &rq[nrq++]);
        ls->base += L8;
      }
      MPI_Waitall(nrq, rq, MPI_STATUSES_IGNORE);
      for (int k = 0; k < n; k++)
        if (p->rsrc[k] != MPI_PROC_NULL) check_marks(ls, at[k], L, k, msg);
    }
  }
  t1 = now_ns();
  return (double)(t1 - t0) * 1e-9;
}

static int imin(int a, int b) { return a < b ? a : b; }

/* Rank 0's loop lengths for (msg, rep): adaptive, about time_per_loop
 * seconds per (length, repetition, method) summed over the patterns. */
static void plan_loops(beff_t *s, int msg, int rep, int pre_pass, const double *pre_time, int *max_loops) {
  for (int m = 0; m < BEFF_METHODS; m++) {
    int lng;
    if (msg == 0) {
      if (pre_pass) {
        lng = BEFF_PRE_MSG_LOOPS;
      } else {
        double ml = pre_time[m] > 0 ? BEFF_PRE_MSG_LOOPS * (s->time_per_loop / pre_time[m]) : BEFF_PRE_MSG_LOOPS;
        max_loops[m] = ml > INT_MAX / 2 ? INT_MAX / 2 : (int)ml;
        if (max_loops[m] < BEFF_PRE_MSG_LOOPS) max_loops[m] = BEFF_PRE_MSG_LOOPS;
        lng = max_loops[m] / 2;
      }
    } else {
      lng = s->looplng[msg - 1][rep][m];
      double ct = s->comm_time[msg - 1][rep][m];
      if (ct > 0) {
        double grow = s->time_per_loop / ct;
        double want = lng / (msg <= BEFF_MAX_FACT_2 ? 2.0 : s->factor) * (grow > 1 ? grow : 1.0);
        if (want > max_loops[m]) want = max_loops[m];
        lng = want < BEFF_MIN_LOOPS ? BEFF_MIN_LOOPS : (int)want;
      }
    }
    if (msg == BEFF_MSGLENGTHS - 2 && !s->no_short_last_two && s->looplng[msg - 1][rep][m] > 0 &&
        isfinite(s->min_looptime[msg - 1][rep][m])) {
      /* Expected time of the two largest lengths, from the fastest pattern
       * at the length before, with 4x for slower patterns. */
      double expected = s->min_looptime[msg - 1][rep][m] * s->n_pat * 4.0 * (s->factor + s->factor * s->factor) *
                        s->reps * BEFF_METHODS / s->looplng[msg - 1][rep][m];
      if (expected > s->max_for_last_two) lng = 0;
    }
    s->looplng[msg][rep][m] = lng;
  }
}

static int measure_loop(beff_t *s, loop_state_t *ls, double *pre_time_out) {
  int max_loops[BEFF_METHODS] = {BEFF_PRE_MSG_LOOPS, BEFF_PRE_MSG_LOOPS, BEFF_PRE_MSG_LOOPS};
  for (int msg = 0; msg < BEFF_MSGLENGTHS; msg++) s->repetitions[msg] = s->reps;
  for (int r = 0; r < BEFF_MAX_REPS; r++)
    for (int p = 0; p < BEFF_MAX_PATTERNS; p++) s->best_method[r][p] = -1;
  for (int msg = 0; msg < BEFF_MSGLENGTHS; msg++)
    for (int r = 0; r < BEFF_MAX_REPS; r++)
      for (int m = 0; m < BEFF_METHODS; m++) {
        s->comm_time[msg][r][m] = 0;
        s->min_looptime[msg][r][m] = INFINITY;
        s->max_looptime[msg][r][m] = 0;
      }
  /* Which cells run: every method, except the ping-pong pair (Sendrecv only). */
  unsigned char *want = calloc(s->n_cells, 1);
  for (int r = 0; r < s->reps; r++)
    for (int p = 0; p < s->n_pat; p++)
      for (int msg = 0; msg < BEFF_MSGLENGTHS; msg++)
        for (int m = 0; m < BEFF_METHODS; m++)
          want[beff_cell(s, r, p, msg, m)] = !s->pat[p].sendrecv_only || m == BEFF_SNDRCV;

  for (int rep = 0; rep < s->reps; rep++) {
    double pre_time[BEFF_METHODS] = {0, 0, 0};
    for (int pass = 0; pass < 2; pass++) {         /* pass 0: the calibration pass at L = 1 */
      for (int msg = 0; msg < (pass == 0 ? 1 : BEFF_MSGLENGTHS); msg++) {
        if (rep >= s->repetitions[msg]) {
          /* Shortened Lmax: the repetitions beyond are copies of repetition 0. */
          for (int p = 0; p < s->n_pat; p++)
            for (int m = 0; m < BEFF_METHODS; m++) {
              size_t c = beff_cell(s, rep, p, msg, m), c0 = beff_cell(s, 0, p, msg, m);
              ls->t_local[c] = ls->t_local[c0];
              ls->bw_local[c] = ls->bw_local[c0];
              ls->took_part[c] = ls->took_part[c0];
              s->loops[c] = s->loops[c0];
            }
          continue;
        }
        if (s->rank == 0) plan_loops(s, msg, rep, pass == 0, pre_time, max_loops);
        MPI_Bcast(s->looplng[msg][rep], BEFF_METHODS, MPI_INT, 0, MPI_COMM_WORLD);
        int minlng = INT_MAX;
        for (int m = 0; m < BEFF_METHODS; m++) minlng = imin(minlng, s->looplng[msg][rep][m]);
        if (minlng == 0 && pass == 1) {
          /* The two largest lengths take too long: only the best method of
           * the length before (rank 0's view) is used, with one iteration,
           * and Lmax gets only BEFF_MIN_REPETITIONS repetitions. */
          s->shortened = 1;
          if (s->rank == 0)
            for (int p = 0; p < s->n_pat; p++) {
              int best = 0;
              for (int m = 1; m < BEFF_METHODS; m++) {
                size_t c = beff_cell(s, rep, p, msg - 1, m), cb = beff_cell(s, rep, p, msg - 1, best);
                double bw = ls->took_part[c] ? ls->bw_local[c] : 0, bwb = ls->took_part[cb] ? ls->bw_local[cb] : 0;
                if (want[c] && bw >= bwb) best = m;
              }
              s->best_method[rep][p] = best;
            }
          MPI_Bcast(s->best_method[rep], s->n_pat, MPI_INT, 0, MPI_COMM_WORLD);
          s->repetitions[msg + 1] = BEFF_MIN_REPETITIONS;
          for (int m = 0; m < BEFF_METHODS; m++) {
            s->looplng[msg][rep][m] = 1;
            s->looplng[msg + 1][rep][m] = rep < s->repetitions[msg + 1] ? 1 : 0;
            for (int p = 0; p < s->n_pat; p++) {
              int is_best = s->best_method[rep][p] == m;
              want[beff_cell(s, rep, p, msg, m)] = (unsigned char)is_best;
              want[beff_cell(s, rep, p, msg + 1, m)] = (unsigned char)(is_best && rep < s->repetitions[msg + 1]);
            }
          }
        }
        const int pre = msg < BEFF_WITH_PRELOOPS ? BEFF_PRE_LOOPS : 0;
        for (int p = 0; p < s->n_pat; p++) {
          const beff_pattern_t *pt = &s->pat[p];
          for (int m = 0; m < BEFF_METHODS; m++) {
            size_t c = beff_cell(s, rep, p, msg, m);
            if (!want[c]) continue;
            int loops = s->looplng[msg][rep][m];
            MPI_Barrier(MPI_COMM_WORLD);
            double t = run_cell(s, ls, pt, m, msg, loops, pre);
            if (pt->participate != 1) continue;
            if (t <= 0) t = 1e-9;
            if (pass == 0) {
              pre_time[m] += t;
              continue;
            }
            s->comm_time[msg][rep][m] += t;
            if (t < s->min_looptime[msg][rep][m]) s->min_looptime[msg][rep][m] = t;
            if (t > s->max_looptime[msg][rep][m]) s->max_looptime[msg][rep][m] = t;
            ls->t_local[c] = t;
            ls->bw_local[c] = (double)s->len[msg] * loops * pt->sr_count / t;
            ls->took_part[c] = 1;
          }
          if (pass == 1) {
            for (int m = 0; m < BEFF_METHODS; m++) {
              size_t c = beff_cell(s, rep, p, msg, m);
              if (want[c]) {
                s->loops[c] = s->looplng[msg][rep][m];
                s->measured[c] = 1;
              }
            }
            int best = s->best_method[rep][p];
            if (best >= 0)   /* copies of the best method, so the maximum over methods is unchanged */
              for (int m = 0; m < BEFF_METHODS; m++) {
                size_t c = beff_cell(s, rep, p, msg, m), cb = beff_cell(s, rep, p, msg, best);
                if (m == best) continue;
                ls->t_local[c] = ls->t_local[cb];
                ls->bw_local[c] = ls->bw_local[cb];
                ls->took_part[c] = ls->took_part[cb];
                s->loops[c] = s->loops[cb];
              }
          }
        }
      }
    }
    if (rep == 0) memcpy(pre_time_out, pre_time, sizeof(pre_time));
  }
  for (int msg = 0; msg < BEFF_MSGLENGTHS; msg++)   /* no measurement (or copies only): 0 */
    for (int r = 0; r < BEFF_MAX_REPS; r++)
      for (int m = 0; m < BEFF_METHODS; m++)
        if (isinf(s->min_looptime[msg][r][m])) s->min_looptime[msg][r][m] = 0;
  free(want);
  return 0;
}

/* Reduces the per-rank results to rank 0 and computes the accumulated
 * bandwidths b = L * loops * all_msg / t_max. */
static void reduce_results(beff_t *s, loop_state_t *ls) {
  size_t n = s->n_cells;
  /* Per cell, min / avg / max over the ranks that took part, for the loop
   * times and the per-process bandwidths. */
  spread_t *mine = malloc(sizeof(spread_t) * n * 2), *all = s->rank == 0 ? malloc(sizeof(spread_t) * n * 2) : NULL;
  for (size_t c = 0; c < n; c++) {
    spread_init(&mine[c]);
    spread_init(&mine[n + c]);
    if (!ls->took_part[c]) continue;
    spread_add(&mine[c], ls->t_local[c], s->rank);
    spread_add(&mine[n + c], ls->bw_local[c], s->rank);
  }
  spread_reduce(mine, all, (int)(2 * n), 0, MPI_COMM_WORLD);
  free(mine);
  if (s->rank == 0) {
    double **dst[6] = {&s->t_min, &s->t_avg, &s->t_max, &s->bw_min, &s->bw_avg, &s->bw_max};
    for (int k = 0; k < 6; k++) *dst[k] = malloc(sizeof(double) * n);
    for (int k = 0; k < 2; k++)
      for (size_t c = 0; c < n; c++) {
        const spread_t *sp = &all[(size_t)k * n + c];
        (*dst[3 * k])[c] = sp->n ? sp->min : 0;        /* no participant: 0 */
        (*dst[3 * k + 1])[c] = spread_avg(sp);
        (*dst[3 * k + 2])[c] = sp->n ? sp->max : 0;
      }
    free(all);
  }
  long d = ls->defects;
  MPI_Reduce(&d, &s->defects, 1, MPI_LONG, MPI_SUM, 0, MPI_COMM_WORLD);
  if (s->rank != 0) return;
  s->b = calloc(n, sizeof(double));
  for (int r = 0; r < s->reps; r++)
    for (int p = 0; p < s->n_pat; p++)
      for (int msg = 0; msg < BEFF_MSGLENGTHS; msg++)
        for (int m = 0; m < BEFF_METHODS; m++) {
          size_t c = beff_cell(s, r, p, msg, m);
          if (s->loops[c] > 0 && s->t_max[c] > 0)
            s->b[c] = (double)s->len[msg] * s->loops[c] * (double)s->pat[p].all_msg / s->t_max[c];
        }
}

static void analyse(beff_t *s) {
  double *b = calloc((size_t)s->reps * s->n_pat * BEFF_MSGLENGTHS * BEFF_METHODS, sizeof(double));
  beff_input_t in = {.n_rep = s->reps, .n_pat = s->n_pat, .n_mthd = BEFF_METHODS, .first_ring = s->first_ring,
                     .n_ring = BEFF_RINGS, .first_random = s->first_random, .n_random = s->n_random, .b = b};
  for (int r = 0; r < s->reps; r++)
    for (int p = 0; p < s->n_pat; p++)
      for (int msg = 0; msg < BEFF_MSGLENGTHS; msg++)
        for (int m = 0; m < BEFF_METHODS; m++) b[beff_index(&in, r, p, msg, m)] = s->b[beff_cell(s, r, p, msg, m)];
  s->an = malloc(sizeof(beff_analysis_t));
  beff_analyse(&in, s->an);
  free(b);
  const beff_pattern_t *pp = &s->pat[s->pingpong_pat];
  double b1 = 0, bmax = 0;
  for (int r = 0; r < s->reps; r++) {
    double v1 = s->b[beff_cell(s, r, s->pingpong_pat, 0, BEFF_SNDRCV)];
    double vm = s->b[beff_cell(s, r, s->pingpong_pat, BEFF_MSGLENGTHS - 1, BEFF_SNDRCV)];
    if (v1 > b1) b1 = v1;
    if (vm > bmax) bmax = vm;
  }
  s->latency_pp_s = beff_pingpong_latency(b1, pp->all_msg, pp->sr_max);
  s->bw_pp = bmax;
}

int beff_main(int argc, char **argv) {
  static beff_t st;
  beff_t *s = &st;
  char err[ERR_LEN] = {0};
  int parse_rc = parse_args(s, argc, argv, err);
  int64_t t_start = now_ns();
  MPI_Init(&argc, &argv);
  MPI_Comm_rank(MPI_COMM_WORLD, &s->rank);
  MPI_Comm_size(MPI_COMM_WORLD, &s->N);
  if (parse_rc) return finish(s->rank, EXIT_BAD_INPUT, err);
  if (s->help) {
    if (s->rank == 0) usage(stdout);
    return finish(s->rank, 0, NULL);
  }
  if (s->N < 2) return finish(s->rank, EXIT_BAD_INPUT, "b_eff needs at least 2 MPI processes; start it with mpiexec -n 2 or more");

  static tool_run_t tr;
  tool_collect(&tr, argc, argv);

  /* Memory per process: -mem, else MemTotal / ranks on this host; the
   * smallest over all ranks, so every rank uses the same Lmax. */
  long long mem = s->mem_mb;
  if (!s->mem_given) {
    double total = host_memory_bytes();
    mem = total > 0 ? (long long)(total / (1024.0 * 1024.0) / tr.share.ranks_on_host) : 128;
    if (mem < 1) mem = 1;
  }
  MPI_Allreduce(MPI_IN_PLACE, &mem, 1, MPI_LONG_LONG, MPI_MIN, MPI_COMM_WORLD);
  s->mem_mb = mem;
  s->lmax = beff_lmax(mem);
  s->factor = beff_lengths(s->lmax, s->len);
  if (!s->seed) {
    unsigned long long seed = (unsigned long long)time(NULL);
    MPI_Bcast(&seed, 1, MPI_UNSIGNED_LONG_LONG, 0, MPI_COMM_WORLD);
    s->seed = seed;
  }

  int json_failed = 0;
  if (s->rank == 0) {
    /* The output files are written at the end: find an unwritable prefix now. */
    char path[1100];
    snprintf(path, sizeof(path), "%.1000s.sum", s->prefix);
    FILE *f = fopen(path, "w");
    if (!f) {
      snprintf(err, sizeof(err), "cannot write '%.400s': %s; give a writable -out prefix", path, strerror(errno));
      json_failed = 1;
    } else {
      fclose(f);
    }
  }
  if (s->rank == 0 && s->json[0] && !json_failed) json_failed = tool_json_open(&tr, s->json, err, sizeof(err)) != 0;
  MPI_Bcast(&json_failed, 1, MPI_INT, 0, MPI_COMM_WORLD);
  if (json_failed) return finish(s->rank, EXIT_BAD_INPUT, err);

  /* Buffers: (Lmax + 16) * 6 bytes each, used cyclically, touched before use. */
  loop_state_t ls;
  memset(&ls, 0, sizeof(ls));
  ls.buflng = (s->lmax + 16) * BEFF_MAXSR;
  ls.sbuf = malloc((size_t)ls.buflng);
  ls.rbuf = malloc((size_t)ls.buflng);
  ls.scounts = calloc((size_t)s->N, sizeof(int));
  ls.rcounts = calloc((size_t)s->N, sizeof(int));
  ls.sdispls = calloc((size_t)s->N, sizeof(int));
  ls.rdispls = calloc((size_t)s->N, sizeof(int));
  int oom = !ls.sbuf || !ls.rbuf || !ls.scounts || !ls.rcounts || !ls.sdispls || !ls.rdispls;
  MPI_Allreduce(MPI_IN_PLACE, &oom, 1, MPI_INT, MPI_LOR, MPI_COMM_WORLD);
  if (oom) {
    snprintf(err, sizeof(err), "cannot allocate 2 x %.1f MiB of message buffers per process (Lmax = %lld bytes from %lld MiB per process); give a smaller -mem",
             (double)ls.buflng / 1048576.0, s->lmax, s->mem_mb);
    return finish(s->rank, EXIT_BAD_INPUT, err);
  }
  memset(ls.sbuf, 1, (size_t)ls.buflng);
  memset(ls.rbuf, 0, (size_t)ls.buflng);

  setup_patterns(s);
  s->n_cells = (size_t)BEFF_MAX_REPS * BEFF_MAX_PATTERNS * BEFF_MSGLENGTHS * BEFF_METHODS;
  s->measured = calloc(s->n_cells, 1);
  s->loops = calloc(s->n_cells, sizeof(int));
  ls.t_local = calloc(s->n_cells, sizeof(double));
  ls.bw_local = calloc(s->n_cells, sizeof(double));
  ls.took_part = calloc(s->n_cells, 1);

  if (s->rank == 0) {
    printf("b_eff (mpimark-core %s): %d processes, %lld MiB per process (%s), Lmax = %lld bytes, %d patterns (%d ring, %d random), %d repetitions%s%s\n",
           MPIMARK_VERSION, s->N, s->mem_mb, s->mem_given ? "-mem" : "MemTotal / processes on the host", s->lmax,
           s->n_pat, BEFF_RINGS, s->n_random, s->reps, s->tag[0] ? ", mode " : "", s->tag);
    fflush(stdout);
  }
  MPI_Barrier(MPI_COMM_WORLD);
  int64_t l0 = now_ns();
  double pre_time[BEFF_METHODS];
  measure_loop(s, &ls, pre_time);
  double elapsed = (double)(now_ns() - l0) * 1e-9;
  MPI_Reduce(&elapsed, &s->loop_elapsed_s, 1, MPI_DOUBLE, MPI_MAX, 0, MPI_COMM_WORLD);
  reduce_results(s, &ls);

  int rc = 0;
  if (s->rank == 0) {
    analyse(s);
    s->total_elapsed_s = (double)(now_ns() - t_start) * 1e-9;
    uname(&s->uts);
    snprintf(s->uname_line, sizeof(s->uname_line), "%.64s %.64s %.64s %.64s %.64s", s->uts.sysname, s->uts.nodename,
             s->uts.release, s->uts.version, s->uts.machine);
    time_t now = time(NULL);
    struct tm tm;
    localtime_r(&now, &tm);
    strftime(s->date, sizeof(s->date), "%a %b %e %H:%M:%S %Y", &tm);
    if (beff_write_files(s, err, sizeof(err)) != 0) {
      error_line(err);
      rc = EXIT_BAD_INPUT;
    }
    beff_print_summary(s, stdout);
    char line[2000];
    beff_final_line(s, line, sizeof(line));
    printf("%s\n", line);
    fflush(stdout);
    fprintf(stderr, "%s\n", line);
    beff_write_json(s, &tr);
    if (s->defects > 0) {
      char msg[256];
      snprintf(msg, sizeof(msg), "%ld received messages had a wrong first or last byte", s->defects);
      tool_event(&tr, "error", "check_failed", msg);
    }
    tool_run_end(&tr, 1);
  }
  MPI_Bcast(&rc, 1, MPI_INT, 0, MPI_COMM_WORLD);
  long defects = s->defects;
  MPI_Bcast(&defects, 1, MPI_LONG, 0, MPI_COMM_WORLD);
  if (rc) return finish(s->rank, rc, NULL);
  if (defects > 0) {
    snprintf(err, sizeof(err), "%ld received messages had a wrong first or last byte: the MPI library delivered wrong data",
             defects);
    return finish(s->rank, EXIT_CHECK_FAILED, err);
  }
  return finish(s->rank, 0, NULL);
}
