/* The measure, setup and teardown functions of each family of OSU programs
 * (osu.h), which the table (osu_tests.c) points at. A family finds what a
 * program does by its name (c->test->name), from a table of its own. */
#ifndef MPIMARK_OSU_FAMILIES_H
#define MPIMARK_OSU_FAMILIES_H

#include "suites/osu/osu.h"

/* A family that needs no setup or teardown leaves them out (NULL in the table). */

/* osu_latency.c: latency (setup: -b single's buffers of the largest size) */
int osu_measure_latency(osu_ctx_t *c, osu_row_t *row);
int osu_setup_latency(osu_ctx_t *c);
int osu_teardown_latency(osu_ctx_t *c);

/* osu_bw.c: bw and bibw, mbw_mr; osu_multi_lat.c: multi_lat */
int osu_measure_bw(osu_ctx_t *c, osu_row_t *row);
int osu_measure_mbw_mr(osu_ctx_t *c, osu_row_t *row);
int osu_setup_bw(osu_ctx_t *c);     /* bw, bibw, mbw_mr: -b single's buffers of the largest size, as OSU's */
int osu_teardown_bw(osu_ctx_t *c);
int osu_measure_multi_lat(osu_ctx_t *c, osu_row_t *row);

/* osu_latency_mt.c, osu_latency_mp.c */
int osu_measure_latency_mt(osu_ctx_t *c, osu_row_t *row);
int osu_setup_latency_mt(osu_ctx_t *c);
int osu_teardown_latency_mt(osu_ctx_t *c);
int osu_measure_latency_mp(osu_ctx_t *c, osu_row_t *row);
int osu_setup_latency_mp(osu_ctx_t *c);
int osu_teardown_latency_mp(osu_ctx_t *c);

/* osu_onesided.c: put/get/acc/fop/cas/get_acc latency, put_bw, get_bw, put_bibw */
int osu_measure_onesided(osu_ctx_t *c, osu_row_t *row);
int osu_setup_onesided(osu_ctx_t *c);
int osu_teardown_onesided(osu_ctx_t *c);

/* osu_coll.c: the blocking collectives; osu_nbc.c: the non-blocking ones */
int osu_measure_coll(osu_ctx_t *c, osu_row_t *row);
int osu_setup_coll(osu_ctx_t *c);
int osu_teardown_coll(osu_ctx_t *c);
int osu_measure_nbc(osu_ctx_t *c, osu_row_t *row);
int osu_setup_nbc(osu_ctx_t *c);
int osu_teardown_nbc(osu_ctx_t *c);

/* osu_startup.c: init (MPI_Init's time over the ranks, c->user: this rank's ms); hello measures nothing */
int osu_measure_startup(osu_ctx_t *c, osu_row_t *row);

#endif
