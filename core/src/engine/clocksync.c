#include "engine/clocksync.h"
#include "util/timer.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

#define TAG_PING 4301
#define TAG_PONG 4302

/* One reference-client pair, SKaMPI's bounds: the reference sends its time s,
 * the client answers with its time t on arrival, the reference reads s' on
 * the answer's arrival. Causality gives t - s' < offset < t - s for the
 * client's clock minus the reference's, whatever the delays; the estimate
 * is the middle of the tightest bounds, its error at most half their width.
 * After `min` exchanges it stops at the first whose round trip is within
 * 110 % of the best; `shift` is subtracted from the client's stamps (0 to
 * build a model, the model's offset to check it). On the reference only. */
static void ref_side(int client, int64_t *offset, double *bound, double *rtt_min) {
  int64_t lo = INT64_MIN, hi = INT64_MAX, best = INT64_MAX;
  for (int k = 0; k < CLOCKSYNC_MAX_PINGPONGS; k++) {
    int64_t msg[2];
    msg[1] = 1;
    msg[0] = now_ns();
    MPI_Send(msg, 2, MPI_INT64_T, client, TAG_PING, MPI_COMM_WORLD);
    int64_t t;
    MPI_Recv(&t, 1, MPI_INT64_T, client, TAG_PONG, MPI_COMM_WORLD, MPI_STATUS_IGNORE);
    int64_t s_now = now_ns();
    int64_t rtt = s_now - msg[0];
    if (t - msg[0] < hi) hi = t - msg[0];
    if (t - s_now > lo) lo = t - s_now;
    int stop = k + 1 >= CLOCKSYNC_MIN_PINGPONGS && best < INT64_MAX && (double)rtt <= 1.1 * (double)best;
    if (rtt < best) best = rtt;
    if (stop) break;
  }
  int64_t done[2] = {0, 0};
  MPI_Send(done, 2, MPI_INT64_T, client, TAG_PING, MPI_COMM_WORLD);
  /* lo <= hi always (both bound the same true offset); the middle: */
  *offset = lo + (hi - lo) / 2;
  *bound = (double)(hi - lo) / 2.0;
  *rtt_min = (double)best;
}

static void client_side(int64_t shift) {
  for (;;) {
    int64_t msg[2];
    MPI_Recv(msg, 2, MPI_INT64_T, 0, TAG_PING, MPI_COMM_WORLD, MPI_STATUS_IGNORE);
    if (!msg[1]) return;
    int64_t t = now_ns() - shift;
    MPI_Send(&t, 1, MPI_INT64_T, 0, TAG_PONG, MPI_COMM_WORLD);
  }
}

/* Rank 0 against every other rank in turn (O(p) rounds: fine at the scales
 * of a benchmark node; a tree such as ReproMPI's HCA3 would be O(log p)).
 * est[] on rank 0 gets every rank's estimate; the others get theirs through
 * *mine. */
static void measure_all(int64_t shift, clock_est_t *est, clock_est_t *mine) {
  int rank, P;
  MPI_Comm_rank(MPI_COMM_WORLD, &rank);
  MPI_Comm_size(MPI_COMM_WORLD, &P);
  memset(mine, 0, sizeof(*mine));
  if (rank == 0) memset(est, 0, sizeof(clock_est_t) * (size_t)P);
  if (MPIMARK_SIMULATED) {
    /* Every simulated rank reads SimGrid's one clock: each offset is 0 by construction. The
     * exchanges would cost P serial rounds of simulated ping-pongs (hours of wall time at 12,288
     * ranks) to measure that. */
  } else if (rank == 0) {
    for (int r = 1; r < P; r++) {
      ref_side(r, &est[r].offset_ns, &est[r].bound_ns, &est[r].rtt_min_ns);
      est[r].at_ns = now_ns();
    }
  } else {
    /* Every client waits its turn inside its first receive. */
    client_side(shift);
  }
  /* Each rank learns its own offset and bound. */
  double packed[3 * 1];
  double *sendbuf = NULL;
  if (rank == 0) {
    sendbuf = malloc(sizeof(double) * 3 * (size_t)P);
    for (int r = 0; r < P; r++) {
      sendbuf[3 * r] = (double)est[r].offset_ns;
      sendbuf[3 * r + 1] = est[r].bound_ns;
      sendbuf[3 * r + 2] = est[r].rtt_min_ns;
    }
  }
  MPI_Scatter(sendbuf, 3, MPI_DOUBLE, packed, 3, MPI_DOUBLE, 0, MPI_COMM_WORLD);
  free(sendbuf);
  mine->offset_ns = (int64_t)llround(packed[0]);
  mine->bound_ns = packed[1];
  mine->rtt_min_ns = packed[2];
  mine->at_ns = now_ns();
}

void clocksync_check(const clock_model_t *m, double *residual_ns, double *bound_ns, double *drift_ppm) {
  int rank, P;
  MPI_Comm_rank(MPI_COMM_WORLD, &rank);
  MPI_Comm_size(MPI_COMM_WORLD, &P);
  clock_est_t *est = rank == 0 ? malloc(sizeof(clock_est_t) * (size_t)P) : NULL;
  clock_est_t mine;
  measure_all(m->mine.offset_ns, est, &mine);
  if (rank == 0) {
    for (int r = 0; r < P; r++) {
      residual_ns[r] = (double)est[r].offset_ns;
      bound_ns[r] = est[r].bound_ns;
      double dt = (double)(est[r].at_ns - (m->all ? m->all[r].at_ns : 0));
      drift_ppm[r] = r > 0 && dt > 0 ? (double)est[r].offset_ns / dt * 1e6 : 0.0;
    }
  }
  free(est);
}

void clocksync_build(clock_model_t *m) {
  int rank, P;
  MPI_Comm_rank(MPI_COMM_WORLD, &rank);
  MPI_Comm_size(MPI_COMM_WORLD, &P);
  clocksync_free(m);
  m->n = P;
  MPI_Barrier(MPI_COMM_WORLD);
  int64_t t0 = now_ns();
  if (rank == 0) {
    m->all = malloc(sizeof(clock_est_t) * (size_t)P);
    m->residual_ns = malloc(sizeof(double) * (size_t)P);
    m->residual_bound_ns = malloc(sizeof(double) * (size_t)P);
  }
  measure_all(0, m->all, &m->mine);
  m->duration_s = (double)(now_ns() - t0) * 1e-9;
  /* The check right after: the same exchanges with the model applied. */
  double *drift = rank == 0 ? malloc(sizeof(double) * (size_t)P) : NULL;
  clocksync_check(m, m->residual_ns, m->residual_bound_ns, drift);
  free(drift);
  m->max_bound_ns = m->max_residual_ns = 0;
  if (rank == 0)
    for (int r = 1; r < P; r++) {
      if (m->all[r].bound_ns > m->max_bound_ns) m->max_bound_ns = m->all[r].bound_ns;
      double res = fabs(m->residual_ns[r]) + m->residual_bound_ns[r];
      if (res > m->max_residual_ns) m->max_residual_ns = res;
    }
  m->valid = 1;
}

void clocksync_free(clock_model_t *m) {
  free(m->all);
  free(m->residual_ns);
  free(m->residual_bound_ns);
  memset(m, 0, sizeof(*m));
}
