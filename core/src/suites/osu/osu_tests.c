/* The one table of OSU Micro-Benchmarks 7.4's MPI programs (the C tree's
 * 73 and osu_hello). OSU_PROGRAMS is the only list: it is expanded twice,
 * into the osu_test_t rows (osu.h) and into the registry's bench_desc rows
 * of suite_osu (names "osu_latency", for -list, the facts and the records).
 * Built with OSU_FACTS_ONLY (the CTest test_osu, no MPI library linked) the
 * rows carry no functions. */
#include "suites/osu/osu.h"
#include "suites/osu/osu_families.h"
#include "util/strutil.h"

#include <string.h>

#ifdef OSU_FACTS_ONLY
#define FN(f) NULL
#else
#define FN(f) f
#endif

/* The OSU options each kind of program takes: OSU 7.4's getopt letters
 * (c/util/osu_util_options.h, the builds without accelerators), ':' an
 * argument, '::' an optional one written in the same word (-z50,99). */
#define O_LAT "hvm:x:i:b:c::u:G:D:P:T:Iz::"
#define O_BW "hvm:x:i:t:W:b:c::u:G:D:P:T:Iz::"
#define O_LAT_MT "hvm:x:i:t:c::u:G:D:T:Iz::"
#define O_LAT_MP "hvm:x:i:t:c::u:G:D:P:T:Iz::"
#define O_MBW_MR "p:W:R:x:i:m:Vhvb:c::u:G:D:P:T:Iz::"
#define O_A2A "hvfm:i:x:M:a:c::u:G:D:P:T:Ilz::"
#define O_GATHER O_A2A "k:"
#define O_BCAST "hvfm:i:x:M:a:c::u:G:D:P:T:Iz::"
#define O_BARRIER "hvfm:i:x:M:a:u:G:P:Iz::"
#define O_ALLRED "hvfm:i:x:M:a:c::u:G:P:T:Ilz::"
#define O_REDUCE O_ALLRED "k:"
#define O_NHBR "hvfm:i:x:M:a:c::u:N:G:D:P:T:Iz::"
#define O_NBC_BARRIER "hvfm:i:x:M:t:a:G:P:Iz::"
#define O_NBC_A2A "hvfm:i:x:M:t:a:c::u:G:D:P:T:Ilz::"
#define O_NBC_GATHER O_NBC_A2A "k:"
#define O_NBC_BCAST "hvfm:i:x:M:t:a:c::u:G:D:P:T:Iz::"
#define O_NBC_ALLRED "hvfm:i:x:M:t:a:c::u:G:P:T:Ilz::"
#define O_NBC_REDUCE O_NBC_ALLRED "k:"
#define O_NBC_NHBR "hvfm:i:x:M:t:a:c::u:N:G:D:P:T:Iz::"
/* One-sided: OSU builds the string per program; -c and -T only where the program validates. */
#define O_OS_LAT "w:s:hvm:x:i:G:Iz::P:"
#define O_OS_LAT_C O_OS_LAT "cT:"
#define O_OS_BW "w:s:hvm:x:i:G:Iz::W:P:"
#define O_INIT "I"
#define O_NONE ""

/* Kinds of program: family, the family whose table it prints, optstring,
 * fixed and least process counts, OSU's default sizes, iteration class,
 * bandwidth factor, shape, ROOT and RED (rooted, reduction), functions. */
#define ROOT 1
#define RED 2
#define NO_SIZE OSU_SHAPE_NO_SIZE
#define ONE_ELEMENT OSU_SHAPE_ONE_ELEMENT
#define K_LAT(m) OSU_FAM_LATENCY, OSU_FAM_LATENCY, O_LAT, 2, 2, 0, 1u << 22, OSU_ITER_LAT, 0, 0, 0, m, \
  FN(osu_setup_latency), FN(osu_teardown_latency)
#define K_BW(m, f) OSU_FAM_BW, OSU_FAM_BW, O_BW, 2, 2, 1, 1u << 22, OSU_ITER_BW, f, 0, 0, m, FN(osu_setup_bw), \
  FN(osu_teardown_bw)
#define K_COLL(o, sh, rr) OSU_FAM_COLL, OSU_FAM_COLL, o, 0, 2, 1, 1u << 20, OSU_ITER_COLL, 0, sh, rr, \
  FN(osu_measure_coll), FN(osu_setup_coll), FN(osu_teardown_coll)
#define K_NBC(o, sh, rr) OSU_FAM_NBC, OSU_FAM_NBC, o, 0, 2, 1, 1u << 20, OSU_ITER_COLL, 0, sh, rr, \
  FN(osu_measure_nbc), FN(osu_setup_nbc), FN(osu_teardown_nbc)
#define K_OS_LAT(o, sh) OSU_FAM_ONESIDED, OSU_FAM_ONESIDED, o, 2, 2, 1, 1u << 22, OSU_ITER_LAT, 0, sh, 0, \
  FN(osu_measure_onesided), FN(osu_setup_onesided), FN(osu_teardown_onesided)
#define K_OS_BW(f) OSU_FAM_ONESIDED, OSU_FAM_ONESIDED, O_OS_BW, 2, 2, 1, 1u << 22, OSU_ITER_BW, f, 0, 0, \
  FN(osu_measure_onesided), FN(osu_setup_onesided), FN(osu_teardown_onesided)
/* Described, not run: what it would print, no functions. */
#define NOT_RUN(looks, o, fixed, min, iter, f, sh, rr) OSU_FAM_NOT_RUN, looks, o, fixed, 2, min, \
  (looks) == OSU_FAM_COLL || (looks) == OSU_FAM_NBC ? 1u << 20 : 1u << 22, iter, f, sh, rr, NULL, NULL, NULL
#define NR_COLL(o, rr) NOT_RUN(OSU_FAM_COLL, o, 0, 1, OSU_ITER_COLL, 0, 0, rr)
#define NR_NBC(o, rr) NOT_RUN(OSU_FAM_NBC, o, 0, 1, OSU_ITER_COLL, 0, 0, rr)

#define OSU_PROGRAMS(P)                                                                                 \
  /* point to point */                                                                                  \
  P("latency", "OSU MPI Latency Test", K_LAT(FN(osu_measure_latency)))                                  \
  P("bw", "OSU MPI Bandwidth Test", K_BW(FN(osu_measure_bw), 1))                                        \
  P("bibw", "OSU MPI Bi-Directional Bandwidth Test", K_BW(FN(osu_measure_bw), 2))                       \
  P("mbw_mr", "OSU MPI Multiple Bandwidth / Message Rate Test", OSU_FAM_MBW_MR, OSU_FAM_MBW_MR,         \
    O_MBW_MR, 0, 2, 1, 1u << 22, OSU_ITER_BW, 1, 0, 0, FN(osu_measure_mbw_mr), FN(osu_setup_bw), FN(osu_teardown_bw))                 \
  P("multi_lat", "OSU MPI Multi Latency Test", OSU_FAM_MULTI_LAT, OSU_FAM_MULTI_LAT, O_LAT, 0, 2, 0,     \
    1u << 22, OSU_ITER_LAT, 0, 0, 0, FN(osu_measure_multi_lat), NULL, NULL)                                \
  P("latency_mt", "OSU MPI Multi-threaded Latency Test", OSU_FAM_LATENCY_MT, OSU_FAM_LATENCY_MT,        \
    O_LAT_MT, 2, 2, 0, 1u << 22, OSU_ITER_LAT, 0, 0, 0, FN(osu_measure_latency_mt),                        \
    FN(osu_setup_latency_mt), FN(osu_teardown_latency_mt))                                              \
  P("latency_mp", "OSU MPI Multi-process Latency Test", OSU_FAM_LATENCY, OSU_FAM_LATENCY, O_LAT_MP, 2,  \
    2, 0, 1u << 22, OSU_ITER_LAT, 0, 0, 0, FN(osu_measure_latency_mp), FN(osu_setup_latency_mp),           \
    FN(osu_teardown_latency_mp))                                                                        \
  P("bibw_persistent", "OSU MPI Bi-Directional Bandwidth Persistent Test",                              \
    NOT_RUN(OSU_FAM_BW, O_BW, 2, 1, OSU_ITER_BW, 2, 0, 0))                                                 \
  P("bw_persistent", "OSU MPI Bandwidth Persistent Test", NOT_RUN(OSU_FAM_BW, O_BW, 2, 1, OSU_ITER_BW, 1, 0, 0)) \
  P("latency_persistent", "OSU MPI Latency Persistent Test",                                            \
    NOT_RUN(OSU_FAM_LATENCY, O_LAT, 2, 0, OSU_ITER_LAT, 0, 0, 0))                                          \
  /* blocking collectives */                                                                            \
  P("allgather", "OSU MPI Allgather Latency Test", K_COLL(O_A2A, 0, 0))                                    \
  P("allgatherv", "OSU MPI Allgatherv Latency Test", K_COLL(O_A2A, 0, 0))                                  \
  P("allreduce", "OSU MPI Allreduce Latency Test", K_COLL(O_ALLRED, 0, RED))                                 \
  P("alltoall", "OSU MPI All-to-All Personalized Exchange Latency Test", K_COLL(O_A2A, 0, 0))              \
  P("alltoallv", "OSU MPI All-to-Allv Personalized Exchange Latency Test", K_COLL(O_A2A, 0, 0))            \
  P("alltoallw", "OSU MPI All-to-Allw Personalized Exchange Latency Test", K_COLL(O_A2A, 0, 0))            \
  P("barrier", "OSU MPI Barrier Latency Test", K_COLL(O_BARRIER, NO_SIZE, 0))                              \
  P("bcast", "OSU MPI Broadcast Latency Test", K_COLL(O_BCAST, 0, ROOT))                                      \
  P("gather", "OSU MPI Gather Latency Test", K_COLL(O_GATHER, 0, ROOT))                                       \
  P("gatherv", "OSU MPI Gatherv Latency Test", K_COLL(O_GATHER, 0, ROOT))                                     \
  P("reduce", "OSU MPI Reduce Latency Test", K_COLL(O_REDUCE, 0, ROOT | RED))                                       \
  P("reduce_scatter", "OSU MPI Reduce_scatter Latency Test", K_COLL(O_ALLRED, 0, RED))                       \
  P("reduce_scatter_block", "OSU MPI Reduce_scatter_block Latency Test", K_COLL(O_ALLRED, 0, RED))           \
  P("scatter", "OSU MPI Scatter Latency Test", K_COLL(O_GATHER, 0, ROOT))                                     \
  P("scatterv", "OSU MPI Scatterv Latency Test", K_COLL(O_GATHER, 0, ROOT))                                   \
  /* non-blocking collectives */                                                                        \
  P("iallgather", "OSU MPI Non-blocking Allgather Latency Test", K_NBC(O_NBC_A2A, 0, 0))                   \
  P("iallgatherv", "OSU MPI Non-blocking Allgatherv Latency Test", K_NBC(O_NBC_A2A, 0, 0))                 \
  P("iallreduce", "OSU MPI Non-blocking Allreduce Latency Test", K_NBC(O_NBC_ALLRED, 0, RED))                \
  P("ialltoall", "OSU MPI Non-blocking All-to-All Latency Test", K_NBC(O_NBC_A2A, 0, 0))                   \
  P("ialltoallv", "OSU MPI Non-blocking All-to-Allv Personalized Exchange Latency Test", K_NBC(O_NBC_A2A, 0, 0)) \
  P("ialltoallw", "OSU MPI Non-blocking All-to-Allw Personalized Exchange Latency Test", K_NBC(O_NBC_A2A, 0, 0)) \
  P("ibarrier", "OSU MPI Non-blocking Barrier Latency Test", K_NBC(O_NBC_BARRIER, NO_SIZE, 0))             \
  P("ibcast", "OSU MPI Non-Blocking Broadcast Latency Test", K_NBC(O_NBC_BCAST, 0, ROOT))                     \
  P("igather", "OSU MPI Non-blocking Gather Latency Test", K_NBC(O_NBC_GATHER, 0, ROOT))                      \
  P("igatherv", "OSU MPI Non-blocking Gatherv Latency Test", K_NBC(O_NBC_GATHER, 0, ROOT))                    \
  P("ireduce", "OSU MPI Non-blocking Reduce Latency Test", K_NBC(O_NBC_REDUCE, 0, ROOT | RED))                      \
  P("ireduce_scatter", "OSU MPI Non-blocking Reduce_scatter Latency Test", K_NBC(O_NBC_ALLRED, 0, RED))      \
  P("ireduce_scatter_block", "OSU MPI Non-blocking Reduce_scatter_block Latency Test", K_NBC(O_NBC_ALLRED, 0, RED)) \
  P("iscatter", "OSU MPI Non-blocking Scatter Latency Test", K_NBC(O_NBC_GATHER, 0, ROOT))                    \
  P("iscatterv", "OSU MPI Non-blocking Scatterv Latency Test", K_NBC(O_NBC_GATHER, 0, ROOT))                  \
  /* persistent collectives (MPI-4): described only */                                                  \
  P("allgather_persistent", "OSU MPI Allgather Persistent Latency Test", NR_COLL(O_A2A, 0))                \
  P("allgatherv_persistent", "OSU MPI Allgatherv Persistent Latency Test", NR_COLL(O_A2A, 0))              \
  P("allreduce_persistent", "OSU MPI Allreduce Persistent Latency Test", NR_COLL(O_ALLRED, RED))             \
  P("alltoall_persistent", "OSU MPI All-to-All Personalized Exchange Persistent Latency Test", NR_COLL(O_A2A, 0)) \
  P("alltoallv_persistent", "OSU MPI All-to-Allv Personalized Exchange Persistent Latency Test", NR_COLL(O_A2A, 0)) \
  P("alltoallw_persistent", "OSU MPI All-to-Allw Personalized Exchange Persistent Latency Test", NR_COLL(O_A2A, 0)) \
  P("barrier_persistent", "OSU MPI Barrier Persistent Latency Test",                                    \
    NOT_RUN(OSU_FAM_COLL, O_BARRIER, 0, 1, OSU_ITER_COLL, 0, NO_SIZE, 0))                                  \
  P("bcast_persistent", "OSU MPI Broadcast Persistent Latency Test", NR_COLL(O_BCAST, ROOT))                  \
  P("gather_persistent", "OSU MPI Gather Persistent Latency Test", NR_COLL(O_A2A, ROOT))                      \
  P("gatherv_persistent", "OSU MPI Gatherv Persistent Latency Test", NR_COLL(O_A2A, ROOT))                    \
  P("reduce_persistent", "OSU MPI Reduce Persistent Latency Test", NR_COLL(O_ALLRED, ROOT | RED))                   \
  P("reduce_scatter_persistent", "OSU MPI Reduce_scatter Persistent Latency Test", NR_COLL(O_ALLRED, RED))   \
  P("scatter_persistent", "OSU MPI Scatter Persistent Latency Test", NR_COLL(O_A2A, ROOT))                    \
  P("scatterv_persistent", "OSU MPI Scatterv Persistent Latency Test", NR_COLL(O_A2A, ROOT))                  \
  /* neighbourhood collectives: described only */                                                       \
  P("ineighbor_allgather", "OSU MPI Non-blocking Neighborhood Allgather Latency Test", NR_NBC(O_NBC_NHBR, 0)) \
  P("ineighbor_allgatherv", "OSU MPI Non-blocking Neighborhood Allgatherv Latency Test", NR_NBC(O_NBC_NHBR, 0)) \
  P("ineighbor_alltoall", "OSU MPI Non-blocking Neighborhood Alltoall Latency Test", NR_NBC(O_NBC_NHBR, 0)) \
  P("ineighbor_alltoallv", "OSU MPI Non-blocking Neighborhood Alltoallv Latency Test", NR_NBC(O_NBC_NHBR, 0)) \
  P("ineighbor_alltoallw", "OSU MPI Non-blocking Neighborhood Alltoallw Latency Test", NR_NBC(O_NBC_NHBR, 0)) \
  P("neighbor_allgather", "OSU MPI Neighborhood Allgather Latency Test", NR_COLL(O_NHBR, 0))               \
  P("neighbor_allgatherv", "OSU MPI Neighborhood Allgatherv Latency Test", NR_COLL(O_NHBR, 0))             \
  P("neighbor_alltoall", "OSU MPI Neighborhood Alltoall Latency Test", NR_COLL(O_NHBR, 0))                 \
  P("neighbor_alltoallv", "OSU MPI Neighborhood All-to-Allv Latency Test", NR_COLL(O_NHBR, 0))             \
  /* one-sided */                                                                                       \
  P("acc_latency", "OSU MPI_Accumulate latency Test", K_OS_LAT(O_OS_LAT_C, 0))                          \
  P("cas_latency", "OSU MPI_Compare_and_swap latency Test", K_OS_LAT(O_OS_LAT_C, ONE_ELEMENT))                    \
  P("fop_latency", "OSU MPI_Fetch_and_op latency Test", K_OS_LAT(O_OS_LAT_C, ONE_ELEMENT))                        \
  P("get_acc_latency", "OSU MPI_Get_accumulate latency Test", K_OS_LAT(O_OS_LAT, OSU_SHAPE_NO_DATATYPE_LINE)) \
  P("get_bw", "OSU MPI_Get Bandwidth Test", K_OS_BW(1))                                                 \
  P("get_latency", "OSU MPI_Get latency Test", K_OS_LAT(O_OS_LAT, 0))                                   \
  P("put_bibw", "OSU MPI_Put Bi-directional Bandwidth Test", K_OS_BW(2))                                \
  P("put_bw", "OSU MPI_Put Bandwidth Test", K_OS_BW(1))                                                 \
  P("put_latency", "OSU MPI_Put Latency Test", K_OS_LAT(O_OS_LAT, 0))                                   \
  /* start-up */                                                                                        \
  P("init", "OSU MPI Init Test", OSU_FAM_STARTUP, OSU_FAM_STARTUP, O_INIT, 0, 1, 0, 0, OSU_ITER_LAT, 0,   \
    NO_SIZE, 0, FN(osu_measure_startup), NULL, NULL)                                                       \
  P("hello", "OSU MPI Hello World Test", OSU_FAM_STARTUP, OSU_FAM_STARTUP, O_NONE, 0, 1, 0, 0,           \
    OSU_ITER_LAT, 0, NO_SIZE, 0, NULL, NULL, NULL)

#define AS_TEST(n, t, ...) AS_TEST_(n, t, __VA_ARGS__)
#define AS_TEST_(n, t, fam, looks, opts, fixed, minp, mins, maxs, iter, bw, sh, rr, m, su, td)                \
  {.name = n, .title = t, .family = fam, .looks_like = looks, .optstring = opts, .fixed_processes = fixed,   \
   .min_processes = minp, .min_size_default = mins, .max_size_default = maxs, .iter_class = iter,            \
   .bandwidth = bw, .shape = sh, .rooted = ((rr) & ROOT) != 0, .reduction = ((rr) & RED) != 0, .measure = m, \
   .setup = su, .teardown = td},

static const osu_test_t tests[] = {OSU_PROGRAMS(AS_TEST)};
#define N_TESTS ((int)(sizeof(tests) / sizeof(tests[0])))

/* The registry's view of the same rows. IMB's class of each: size-less
 * ones sync, MB/s ones msgrate, collectives collective, the rest single. */
#define CLASS_OF(looks, bw, sh)                                                                         \
  ((sh) & OSU_SHAPE_NO_SIZE ? CLASS_SYNC                                                                \
   : (bw) ? CLASS_MSGRATE                                                                               \
   : (looks) == OSU_FAM_COLL || (looks) == OSU_FAM_NBC ? CLASS_COLLECTIVE : CLASS_SINGLE)
#define AS_BENCH(n, t, ...) AS_BENCH_(n, t, __VA_ARGS__)
#define AS_BENCH_(n, t, fam, looks, opts, fixed, minp, mins, maxs, iter, bw, sh, rr, m, su, td)               \
  {.name = "osu_" n, .cls = CLASS_OF(looks, bw, sh), .time_scale = 1, .bw_scale = bw,                         \
   .flags = BF_DEFAULT | ((looks) == OSU_FAM_NBC ? BF_OVERLAP : 0u) | ((rr) & ROOT ? BF_HAS_ROOT : 0u) |      \
            ((rr) & RED ? BF_REDUCTION : 0u)},

static const bench_desc benches[] = {OSU_PROGRAMS(AS_BENCH)};

const osu_test_t *osu_find(const char *name) {
  if (strncmp(name, "osu_", 4) == 0) name += 4;
  for (int i = 0; i < N_TESTS; i++)
    if (str_ieq(tests[i].name, name)) return &tests[i];
  return NULL;
}

int osu_n_tests(void) { return N_TESTS; }

const osu_test_t *osu_test_at(int i) {
  return i >= 0 && i < N_TESTS ? &tests[i] : NULL;
}

const bench_desc *osu_bench_of(const osu_test_t *t) { return &benches[t - tests]; }

const osu_test_t *osu_test_of(const bench_desc *b) {
  return b >= benches && b < benches + N_TESTS ? &tests[b - benches] : NULL;
}

#ifndef OSU_FACTS_ONLY
const suite_desc suite_osu = {.name = "osu", .title = "OSU Micro-Benchmarks 7.4", .benchmarks = benches,
                              .n_benchmarks = N_TESTS, .own_main = osu_main};
#endif
