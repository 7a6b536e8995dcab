/* latency_mp (OSU 7.4's osu_latency_mp.c): a fork-safety test. After
 * MPI_Init, rank 0 forks -t's sender count of children and rank 1 the
 * receiver count; each child sleeps OSU's 2 seconds and exits without
 * touching MPI, while the parents play ping-pong with a barrier before each
 * round trip (multi_lat's loop with one pair). What it shows is that the MPI
 * library still communicates after fork() (RDMA networks pin pages that
 * fork() makes copy-on-write); on shared memory it is osu_latency with a
 * barrier per iteration.
 *
 * Unlike OSU's children, ours end with _exit (no atexit handler of the MPI
 * library runs twice, no stdio buffer is written twice), and the parents
 * reap them after the last size instead of leaving them behind. */
#include "suites/osu/osu_families.h"

#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/types.h>
#include <sys/wait.h>
#include <unistd.h>

#define CHILD_SLEEP_SECONDS 2  /* OSU's */

typedef struct {
  pid_t *pids;
  int n;
} children_t;

int osu_setup_latency_mp(osu_ctx_t *c) {
  const osu_options_t *o = c->o;
  int want = c->rank == 0 ? o->sender_processes : c->rank == 1 ? o->receiver_processes : 0;
  children_t *k = calloc(1, sizeof(*k));
  if (!k || (want > 0 && !(k->pids = calloc((size_t)want, sizeof(pid_t))))) {
    free(k);
    snprintf(c->err, sizeof(c->err), "osu_latency_mp: no memory to fork %d processes", want);
    return -1;
  }
  /* What stdio holds now would be written again by a child that flushed it. */
  fflush(stdout);
  fflush(stderr);
  for (; k->n < want; k->n++) {
    pid_t pid = fork();
    if (pid == 0) {
      /* Only async-signal-safe calls here: the parent may have threads (the MPI library's). */
      sleep(CHILD_SLEEP_SECONDS);
      _exit(0);
    }
    if (pid < 0) {
      snprintf(c->err, sizeof(c->err), "osu_latency_mp: fork() failed after %d of %d processes: %s", k->n, want,
               strerror(errno));
      break;
    }
    k->pids[k->n] = pid;
  }
  c->user = k;
  return k->n == want ? 0 : -1;
}

int osu_teardown_latency_mp(osu_ctx_t *c) {
  children_t *k = c->user;
  if (!k) return 0;
  for (int i = 0; i < k->n; i++)
    while (waitpid(k->pids[i], NULL, 0) < 0 && errno == EINTR) {
    }
  free(k->pids);
  free(k);
  c->user = NULL;
  return 0;
}

int osu_measure_latency_mp(osu_ctx_t *c, osu_row_t *row) { return osu_measure_multi_lat(c, row); }
