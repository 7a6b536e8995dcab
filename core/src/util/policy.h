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

#endif
