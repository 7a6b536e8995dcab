/* The columns of an OSU table: which figures a program prints after the
 * size, under which headers, for the options given. The one place this is
 * decided: the text (report/osu_text.c), the facts (bench_facts.c) and the
 * record's field names (records/osu_columns.py's names) all come from here.
 * No MPI. */
#ifndef MPIMARK_OSU_COLUMNS_H
#define MPIMARK_OSU_COLUMNS_H

#include "suites/osu/osu.h"

#define OSU_FIELD_WIDTH 18   /* OSU's configure sets FIELD_WIDTH to 18 */
#define OSU_MAX_COLUMNS 24

typedef struct {
  char header[24];   /* as OSU prints it: "Avg Latency(us)", "P50 Tail Lat(us)" */
  char field[24];    /* the record's field: t_avg_usec, p50_tail_lat_us */
  char kind;         /* 'f' two decimals, 'i' a whole number, 's' text */
  int width;         /* OSU's printf width */
  int pad;           /* tail headers: OSU's blanks before the name (its own arithmetic) */
} osu_column_t;

/* The columns after the Size column (*sized: 1 when there is one) of
 * program t's table under options o (NULL: OSU's defaults). Returns how many. */
int osu_columns(const osu_test_t *t, const osu_options_t *o, osu_column_t *cols, int *sized);

#endif
