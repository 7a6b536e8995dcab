/* What the run record says about the machine: hosts, cores, memory, load. */
#ifndef MPIMARK_SYSINFO_H
#define MPIMARK_SYSINFO_H

#include "report/reporter.h"
#include "util/jsonw.h"

#include <stdint.h>

/* A "host" here is a physical machine (one kernel): ranks whose host names
 * differ but that share a kernel's boot id (containers, UTS namespaces, the
 * placement tests' fake hosts) share its cores and memory, so they count
 * together; the host name decides only where the boot id cannot be read. */
typedef struct {
  int ranks_on_host;        /* world ranks sharing this rank's machine */
  int machine_reader;       /* 1 on the lowest world rank of its machine: it reads the machine-wide counters */
  double mem_available;     /* bytes of MemAvailable on this rank's machine */
} host_share_t;

/* The most a scratch buffer of the checks before measuring (timer self-tests,
 * noise probe) may take: below glibc's default mmap threshold, 128 KiB, so it
 * comes from the heap. A larger chunk is mmapped, and freeing it raises
 * glibc's dynamic mmap threshold for the rest of the process: the MPI
 * library's per-call temporary buffers (Open MPI's reduce, 64 KiB and more)
 * would then come from the heap instead of a fresh mmap as in OSU's or IMB's
 * own process, and the core would time a cheaper call
 * (docs/osu-compatibility.md). */
#define PRE_MEASURE_SCRATCH_BYTES (120 * 1024)
/* Clock reads of a timer self-test (the run record's timer, the self-check's):
 * its arrays of 8-byte values, and qsort's copy of one in summarize, stay
 * within PRE_MEASURE_SCRATCH_BYTES. */
#define TIMER_SELFTEST_READS 15000
_Static_assert((TIMER_SELFTEST_READS + 1) * 8 <= PRE_MEASURE_SCRATCH_BYTES, "timer self-test scratch above the bound");

/* Collective over MPI_COMM_WORLD: fills the machine fields of *info on rank 0
 * (hosts by name, cores, oversubscription by machine, uname, load, times) and
 * *share on every rank. */
void sysinfo_collect(run_info_t *info, host_share_t *share);
/* Physical memory of this host in bytes (MemTotal), -1 unknown: the run
 * record's memory_bytes, b_eff's default memory. */
double host_memory_bytes(void);
/* 1, 5, 15 minute load average of this host; -1 each when /proc/loadavg cannot be read. */
void load_average(double out[3]);

/* The end record's common part: complete, the seconds since t0 (now_ns()),
 * the results and this host's load average now; no clock check (the caller
 * adds one where it has a clock model). */
run_end_t run_end_now(int complete, int64_t t0, long results);

/* The run record's per-rank lists (placement, clock offsets, self-check figures, the end's clock check) name every
 * rank up to this many world ranks; past it they are summarized (counts, ranges, the extreme ranks), so neither
 * rank 0's record nor the stream grows with P, unless the user asks for every rank: MPIMARK_PER_RANK=1
 * (docs/results-format.md, "Per-rank fields past the bound"). */
#define PER_RANK_LIST_MAX 64
/* 1 when the per-rank lists of a run of P world ranks name every rank (rank 0 decides). */
int per_rank_listed(int P);
/* Seconds (rank 0's clock; simulated time under SMPI) since run_info_collect began: the run record's startup_s. */
double sysinfo_startup_s(void);
/* "per_rank" (the bound, whether every rank is listed), "hosts" (past the bound the first PER_RANK_LIST_MAX
 * hosts) and "hosts_omitted" (only past it) into the open run object. */
void sysinfo_write_hosts(jw_t *w, const run_info_t *info);

/* Where every rank ran, as sysinfo_collect found it (rank 0 holds it): writes
 * "nodes", "ranks_per_node" (in the order of info->hosts) and "ranks" (per
 * world rank: host, the CPU it was on, the CPUs it may run on, and the values
 * of the variables named in MPIMARK_RECORD_ENV) into the open run object;
 * past PER_RANK_LIST_MAX "ranks_per_node_counts" and "ranks_summary" instead. */
void sysinfo_write_placement(jw_t *w, const run_info_t *info);
/* Collective over MPI_COMM_WORLD: everything of the run record that is not
 * the suite's own (argv, thread levels, MPI library and standard version,
 * MPI_Wtick, sysinfo_collect, the timer self-test), for the IMB suites and
 * the tools alike. Leaves the other fields of *info as they are. */
void run_info_collect(run_info_t *info, host_share_t *share, int argc, char **argv, const char *thread_requested,
                      const char *thread_provided);

#endif
