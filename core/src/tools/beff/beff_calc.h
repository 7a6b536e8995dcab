/* b_eff's arithmetic, free of MPI so CTest can check it (docs/beff.md):
 * Lmax and the 21 message lengths, the ring layout, the random orders, the
 * logarithmic average and the analysis paths that turn the measured
 * bandwidths b(pattern, L, method, repetition) into b_eff. */
#ifndef MPIMARK_BEFF_CALC_H
#define MPIMARK_BEFF_CALC_H

#include <stddef.h>

#define BEFF_MSGLENGTHS 21     /* 1 B .. 4 KiB (13 lengths), then 8 geometric steps to Lmax */
#define BEFF_MAX_FACT_2 12     /* msglng[12] = 2^12 = 4096 */
#define BEFF_METHODS 3         /* Sendrecv, Alltoallv, Irecv+Isend+Waitall */
#define BEFF_MAX_REPS 3        /* repetitions of the definition */
#define BEFF_RINGS 6           /* ring patterns in the average */
#define BEFF_MAX_RANDOM 30     /* random patterns in the average */
#define BEFF_MAX_PATTERNS 64
#define BEFF_LMAX_CAP (128LL * 1024 * 1024)

/* Lmax in bytes for mem_mb MiB of memory per process:
 * min(128 MiB, mem_mb * 2^20 / 128). */
long long beff_lmax(long long mem_mb);

/* The 21 lengths for lmax: len[i] = 2^i for i <= 12, then
 * len[i] = (long long)(4096 * factor^(i-12) + 0.5) with the product
 * accumulated step by step, factor = (lmax/4096)^(1/8). Returns factor. */
double beff_lengths(long long lmax, long long len[BEFF_MSGLENGTHS]);

/* Ring pattern i_ring (0..5) on N processes: the definition's "medium" ring
 * sizes 2, 4, 8, max(16, N/4), max(32, N/2), N (each at most N), the number
 * of rings max(1, min((int)(N/size + 0.4), N/2)), balanced to sizes low =
 * N/rings and low+1; the larger rings come first when low is odd. */
typedef struct {
  int rings;
  int first_size, first_count;    /* the first first_count rings */
  int second_size, second_count;  /* then second_count rings */
} beff_ring_t;

void beff_ring_layout(int N, int i_ring, beff_ring_t *r);
/* Neighbours of position pos (0..N-1) in the ring layout. */
void beff_ring_neighbours(const beff_ring_t *r, int pos, int *prev, int *next);
/* "ring-<rings>*<first size>" + "fix" (one size), "&+1" or "&-1". */
void beff_ring_label(const beff_ring_t *r, char *buf, size_t n);

/* A random order of 0..N-1: for i = 0..N-1 draw j = (int)(rnd()*N) and
 * probe j, j+1, ... (mod N) for the first free slot; order[slot] = i. */
void beff_random_order(int N, double (*rnd)(void *), void *state, int *order);
/* The "worst" cyclic order (reported only): order[i] = i/2 for even i,
 * N-1-i/2 for odd i. */
void beff_worst_order(int N, int *order);

/* Logarithmic average (geometric mean) exp(sum(log v)/n); NaN when n < 1
 * or any v <= 0. */
double beff_logavg(const double *v, int n);

/* Measured accumulated bandwidths b (bytes/s over all processes), indexed
 * [rep][pat][msg][mthd]; unmeasured entries are 0. */
typedef struct {
  int n_rep, n_pat, n_mthd;
  int first_ring, n_ring;        /* patterns averaged as rings */
  int first_random, n_random;    /* patterns averaged as random */
  const double *b;
} beff_input_t;

static inline size_t beff_index(const beff_input_t *in, int rep, int pat, int msg, int mthd) {
  return (((size_t)rep * (size_t)in->n_pat + (size_t)pat) * BEFF_MSGLENGTHS + (size_t)msg) * (size_t)in->n_mthd
         + (size_t)mthd;
}

/* Index BEFF_MSGLENGTHS of the msg dimension holds the average over L. */
#define BEFF_AVG BEFF_MSGLENGTHS

typedef struct {
  /* Official (1st) path: logavg_pat( avg_L( max_mthd( max_rep b ))). */
  double pat_msg[BEFF_MAX_PATTERNS][BEFF_MSGLENGTHS + 1];
  double rings_msg[BEFF_MSGLENGTHS + 1], random_msg[BEFF_MSGLENGTHS + 1], final_msg[BEFF_MSGLENGTHS + 1];
  double b_eff;                  /* final_msg[BEFF_AVG] */
  /* 2nd path (information): per method avg_L( max_rep b ); [n_mthd] = max over methods. */
  double pat_mthd[BEFF_MAX_PATTERNS][BEFF_METHODS + 1];
  double rings_mthd[BEFF_METHODS + 1], random_mthd[BEFF_METHODS + 1], final_mthd[BEFF_METHODS + 1];
  /* 3rd path (information): per repetition avg_L( max_mthd b ); [n_rep] = max over repetitions. */
  double pat_rep[BEFF_MAX_PATTERNS][BEFF_MAX_REPS + 1];
  double rings_rep[BEFF_MAX_REPS + 1], random_rep[BEFF_MAX_REPS + 1], final_rep[BEFF_MAX_REPS + 1];
  /* 4th path (information): per method and L, max_rep b; [BEFF_AVG] = average over L. */
  double pat_msg_mthd[BEFF_MAX_PATTERNS][BEFF_MSGLENGTHS + 1][BEFF_METHODS];
  double rings_msg_mthd[BEFF_MSGLENGTHS + 1][BEFF_METHODS];
  double random_msg_mthd[BEFF_MSGLENGTHS + 1][BEFF_METHODS];
  double final_msg_mthd[BEFF_MSGLENGTHS + 1][BEFF_METHODS];
} beff_analysis_t;

/* Fills *a from *in. Returns 0, or -1 when the input's dimensions exceed the limits. */
int beff_analyse(const beff_input_t *in, beff_analysis_t *a);

/* Ping-pong figures of the "one PingPong Pair" pattern from its accumulated
 * bandwidths at L = 1 byte (b1) and at Lmax (bmax): latency = all_msg /
 * (b1 * sr_count) seconds, i.e. half a round trip; bandwidth = bmax. */
double beff_pingpong_latency(double b1, long all_msg, int sr_count);

/* The reported-only patterns that the .plot file's "additional" blocks show,
 * as the original b_eff 3.6 writes them: its gnuplot figure has nine curves,
 * patterns 36-38 and 40-45 with 30 random patterns, i.e. the first ten
 * patterns after the random ones less the fourth. The fourth is the "one
 * PingPong Pair", measured with MPI_Sendrecv only and reported as ping-pong
 * latency and bandwidth; patterns after the tenth (46-47 at 4 processes, the
 * 3-dim cyclic y and all) do not fit the nine curves. first_extra is the
 * first pattern after the random ones, pingpong the ping-pong pair's index,
 * n_pat the number of patterns. Writes the pattern indices to out and
 * returns how many (fewer only when fewer patterns exist). */
#define BEFF_PLOT_EXTRA 9
int beff_plot_extra_patterns(int first_extra, int pingpong, int n_pat, int out[BEFF_PLOT_EXTRA]);

#endif
