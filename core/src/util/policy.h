/* The engine's decisions that need no MPI, as pure functions so CTest can
 * check them: how many iterations a batch (one sample) holds, IMB's overlap
 * and bandwidth figures, and how much memory a message size needs and
 * whether it may have it. engine/engine.c applies them. */
#ifndef MPIMARK_POLICY_H
#define MPIMARK_POLICY_H

#include <stddef.h>
#include "util/buflayout.h"
#include "util/options.h"

#define BATCH_MIN_NS 10000.0   /* a batch lasts at least this long when it can ... */
#define MIN_BATCHES 50         /* ... but a measurement keeps at least this many samples */

/* Iterations per batch of a timed loop of n iterations taking t_iter_s
 * seconds each (<= 0: unknown): 1 when the benchmark times itself (own_loop);
 * n in aggregate mode (1), whose completion comes once after the loop; 1 when
 * an untimed barrier follows every call; else enough iterations for
 * BATCH_MIN_NS, but no fewer than MIN_BATCHES batches where n allows. */
long policy_batch(long n, double t_iter_s, int own_loop, int barrier_each, int aggregate);

/* The overlap figures of the IMB-NBC user guide: 100 max(0, min(1, (t_pure +
 * t_cpu - t_ovrl) / min(t_pure, t_cpu))) in *pct, and the same divided by
 * max(t_pure, t_cpu), as IMB's code computes it, in *pct_max (0 where the
 * denominator is 0). */
void policy_overlap(double t_ovrl, double t_pure, double t_cpu, double *pct, double *pct_max);

/* IMB's bandwidth: factor * bytes / t_max in MB/s (10^6 bytes, t in us), 0
 * when t_max is 0. */
double policy_mbytes_per_sec(double factor, size_t bytes, double t_max_us);

/* Uniband/Biband: bw_scale * window * pairs messages per t_max, per second. */
double policy_msgs_per_sec(double bw_scale, int window, int pairs, double t_max_us);

/* Per-process bytes a message size needs (send + receive buffers) and the
 * layouts it would use: disjoint slots (aggregate mode of BF_DISJOINT
 * benchmarks, n_sel of them) or the -off_cache layout. */
double policy_need_bytes(bufsize_t sbuf, bufsize_t rbuf, int disjoint, size_t bytes, int np, const options_t *o,
                         long n_sel, layout_t *ls, layout_t *lr);

typedef enum { MEM_FITS, MEM_OVER_LIMIT, MEM_HOST_SHORT } mem_verdict_t;

/* Whether need_bytes per process may be had: over -mem (mem_gb, GiB), or
 * the ranks of this host together would take more than 90 % of its free
 * memory. The host verdict differs between hosts; the engine combines it. */
mem_verdict_t policy_memory(double need_bytes, double mem_gb, int ranks_on_host, double mem_available);

/* ---- Rigour beyond IMB (docs/measurement.md) ---- */

#define CI_MAX_SAMPLES 20000   /* -ci_target, -min_samples: never more samples than this */
#define CI_MIN_SAMPLES 6       /* the fewest samples whose median has a 95 % interval */

/* How often to run a timed loop that yields `per_loop` samples and took
 * loop_s seconds (max over ranks) so that at least min_samples samples
 * exist (-min_samples; the default 1 is IMB's single loop), as far as
 * budget_s (-time) allows, but never fewer loops than min(min_samples,
 * CI_MIN_SAMPLES) samples need; never below 1. */
long policy_repeats(int per_loop, long min_samples, double loop_s, double budget_s);

/* -ci_target's stopping rule on the samples so far (any order; not changed):
 * CI_CONTINUE, or why to stop. target: when the exact 95 % CI of the median
 * lies within +-target*median (*half_width gets max(median - low, high -
 * median) / median, NaN without an interval); time: elapsed_s >= budget_s;
 * max: n >= max_n. The target wins over the others. */
enum { CI_CONTINUE = 0, CI_STOP_TIME = 1, CI_STOP_MAX = 2, CI_STOP_TARGET = 3 };
int policy_ci_stop(const double *samples, int n, double target, double elapsed_s, double budget_s, int max_n,
                   double *half_width);
const char *policy_ci_stop_name(int reason);

/* -sync window: the window (ns) between the common start times of two
 * samples, from the slowest rank's time of one call and the clock model's
 * error: room for the call, for the skew of the ranks' clocks, and 5 us;
 * at least 20 us. */
double policy_window_ns(double t_call_ns, double clock_err_ns);

#endif
