/* OSU 7.4's command line (c/util/osu_util.c, process_options) for one
 * program of the table: the letters it takes, OSU's defaults per class, and
 * mpimark's own options after them. No MPI: unit-tested by CTest test_osu. */
#ifndef MPIMARK_OSU_OPTIONS_H
#define MPIMARK_OSU_OPTIONS_H

#include <stdio.h>
#include "suites/osu/osu.h"

enum { OSU_PARSE_OK = 0, OSU_PARSE_HELP = 1, OSU_PARSE_VERSION = 2, OSU_PARSE_BAD = -1 };
enum { OSU_TYPE_CHAR, OSU_TYPE_INT, OSU_TYPE_FLOAT };

#define OSU_LARGE_MESSAGE_SIZE 8192
#define OSU_MEM_LIMIT_FLOOR (1u << 20)  /* -M below this is raised to it, as OSU does */

/* OSU's defaults for program t (and mpimark's: -selfcheck on). */
void osu_options_defaults(osu_options_t *o, const osu_test_t *t);

/* argv[first..] for program t: OSU's options (t->optstring, getopt's way:
 * -fc, -m 1:64, -z50,99, --iterations 10), then mpimark's (-json FILE,
 * -selfcheck on|off, -check, -help). OSU_PARSE_OK, _HELP (-h, -help),
 * _VERSION (-v), or _BAD with one line in err. */
int osu_options_parse(osu_options_t *o, const osu_test_t *t, int argc, char **argv, int first, char *err,
                      size_t errlen);

/* The -h text of program t: the options it takes, with OSU's defaults. */
void osu_options_usage(FILE *f, const osu_test_t *t);

/* Whether t takes OSU's option letter. */
int osu_takes(const osu_test_t *t, char letter);

/* "MPI_CHAR", "MPI_INT", "MPI_FLOAT" for OSU_TYPE_*. */
const char *osu_type_name(int type_id);
/* OSU's window creation and synchronisation lines ("MPI_Win_allocate", "MPI_Win_flush") and -w/-s words. */
const char *osu_win_name(osu_win_t w);
const char *osu_sync_name(osu_sync_t s);
const char *osu_win_word(osu_win_t w);
const char *osu_sync_word(osu_sync_t s);

#endif
