/* IMB-P2P's command line (docs/p2p.md): benchmark names, -iter max[,MB],
 * -msglog [k:]n, -msglen FILE, -msgsz SIZE (repeatable), -msgwr/-msgrd
 * BOOL, -pause USEC, -help [OPTION]; and mpimark's -check [on|off] and
 * -json FILE (-list is every suite's, main.c). Pure parsing (no MPI), so every rank reaches the same
 * verdict and CTest checks it. Where IMB ignores a bad value or an unknown
 * word, this parser refuses it with one line saying how to fix it. */
#ifndef MPIMARK_P2P_OPTIONS_H
#define MPIMARK_P2P_OPTIONS_H

#include <stddef.h>

#define P2P_MAX_MSG_LOG 47
#define P2P_MAX_SIZES 512
#define P2P_MAX_NAMES 64

typedef struct {
  size_t sizes[P2P_MAX_SIZES];  /* in run order; the default 0, 1, 2, ..., 4 MiB */
  int n_sizes;
  int sizes_given;              /* -msglog, -msglen or -msgsz given */
  char msglen_file[1024];
  size_t iter_max;              /* -iter 1st: at most this many iterations (100000) */
  size_t numerator;             /* -iter 2nd, in bytes: iterations = numerator / size (800 MiB) */
  int touch_send, touch_recv;   /* -msgwr, -msgrd (on) */
  int pause_usec;               /* -pause (100000); < 0: none */
  char *names[P2P_MAX_NAMES];   /* in the order given; none: the default list */
  int n_names;
  int check;                    /* mpimark's -check */
  char json_path[1024];
  int help;
  char help_topic[32];          /* -help OPTION */
} p2p_options_t;

void p2p_options_defaults(p2p_options_t *o);
/* argv[first..argc-1]; 0, or -1 with one line in err. names point into argv. */
int p2p_options_parse(p2p_options_t *o, int argc, char **argv, int first, char *err, size_t errlen);
size_t p2p_max_size(const p2p_options_t *o);
size_t p2p_min_size(const p2p_options_t *o);

#endif
