/* What the core knows about each benchmark, as data: its suite, class, IMB
 * table layout and columns, bandwidth factor, time scale, whether it
 * reduces, is a default, runs in modes, is verified by -check, and on which
 * process counts and sizes it runs. Everything is derived from the registry
 * rows (registry.h) and their suite; nothing here is a second table.
 *
 * Written by `mpimark-core [SUITE] -list -json` (every suite without SUITE)
 * and into the run record (`benchmark_facts`, docs/results-format.md), so the
 * front end and the tests read the core's facts instead of keeping their own.
 * The table layout is decided here for the text reporter too (imb_text.c). */
#ifndef MPIMARK_BENCH_FACTS_H
#define MPIMARK_BENCH_FACTS_H

#include <stdio.h>
#include "engine/registry.h"
#include "util/jsonw.h"

/* IMB's column sets (out_format); the names in the facts are the lower-case
 * enumerator suffixes: t_bw, range_bw, range, sync, rate, overlap,
 * overlap_sync, pure_ovrl, p2p, avg_rate (the front end's Layout enum). */
typedef enum {
  LAYOUT_T_BW,          /* #bytes #repetitions t Mbytes/sec */
  LAYOUT_RANGE_BW,      /* #bytes #repetitions t_min t_max t_avg Mbytes/sec */
  LAYOUT_RANGE,         /* #bytes #repetitions t_min t_max t_avg */
  LAYOUT_SYNC,          /* #repetitions t_min t_max t_avg */
  LAYOUT_RATE,          /* #bytes #repetitions Mbytes/sec Msg/sec */
  LAYOUT_OVERLAP,       /* #bytes #repetitions t_ovrl t_pure t_CPU overlap[%] */
  LAYOUT_OVERLAP_SYNC,  /* the same without #bytes */
  LAYOUT_PURE_OVRL,     /* #bytes #repetitions t_pure t_ovrl */
  LAYOUT_P2P,           /* #bytes #repetitions t Mbytes/sec Msg/sec (IMB-P2P) */
  LAYOUT_AVG_RATE       /* #bytes #repetitions t_avg Mbytes/sec Msg/sec (IMB-MT's windowed) */
} bench_layout_t;

#define BENCH_MAX_COLUMNS 8

/* The layout of b's table with -multi multi (-1 none, 0, 1). */
bench_layout_t bench_layout(const bench_desc *b, int multi);
const char *bench_layout_name(bench_layout_t k);
/* The column titles of a layout, without -multi 1's Group and -check's
 * defects; returns their number. */
int bench_layout_columns(bench_layout_t k, const char **cols);

/* Whether this build runs the suite: a suite may need a newer MPI standard
 * than the library's (MPI-4); its rows are listed but not run. */
int suite_runnable(const suite_desc *s);

/* The facts of suite s as the JSON object member key (NULL inside an array). */
void bench_facts_write_suite(jw_t *w, const char *key, const suite_desc *s);
/* -list -json: one JSON line on f with the facts of s, or of every suite
 * when s is NULL. */
void bench_facts_print(FILE *f, const suite_desc *s);

#endif
