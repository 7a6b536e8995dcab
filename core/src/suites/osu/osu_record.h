/* What the osu suite hands the reporters: a measured row as a result record
 * (OSU's figures under records/osu_columns.py's names, mpimark's samples)
 * and the run record's options. */
#ifndef MPIMARK_OSU_RECORD_H
#define MPIMARK_OSU_RECORD_H

#include "report/reporter.h"
#include "suites/osu/osu.h"

/* An empty row: every figure NaN (not a column of this row) until the family fills it. */
void osu_row_init(osu_row_t *row);

/* Rank 0: the row of c's size as a result record, to every reporter. */
void osu_report_row(const table_info_t *ti, const osu_ctx_t *c, osu_row_t *row);

/* run_info_t.write_options for the osu suite (ctx: the osu_ctx_t): osu_options_t's fields by name. */
void osu_write_options(jw_t *w, const void *ctx);

#endif
