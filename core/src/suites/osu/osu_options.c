#include "suites/osu/osu_options.h"
#include "util/parse.h"
#include "util/strutil.h"

#include <limits.h>
#include <stdarg.h>
#include <string.h>
#include <strings.h>

/* OSU 7.4's defaults (c/util/osu_util.h). */
enum { LAT_LOOP_SMALL = 10000, LAT_SKIP_SMALL = 100, LAT_LOOP_LARGE = 1000, LAT_SKIP_LARGE = 10,
       BW_LOOP_SMALL = 100, BW_SKIP_SMALL = 10, BW_LOOP_LARGE = 20, BW_SKIP_LARGE = 2,
       COLL_LOOP_SMALL = 1000, COLL_SKIP_SMALL = 100, COLL_LOOP_LARGE = 100, COLL_SKIP_LARGE = 10,
       WINDOW_SIZE = 64, VALIDATION_WARMUP = 5, VALIDATION_WARMUP_MAX = 10, MAX_THREADS = 128 };

static const char *const type_names[] = {"MPI_CHAR", "MPI_INT", "MPI_FLOAT"};
const char *osu_type_name(int type_id) { return type_names[type_id]; }

/* Indexed by osu_win_t and osu_sync_t (osu.h). */
static const char *const win_names[] = {"MPI_Win_create", "MPI_Win_allocate", "MPI_Win_create_dynamic"};
static const char *const win_words[] = {"create", "allocate", "dynamic"};
static const char *const sync_names[] = {"MPI_Win_lock/unlock", "MPI_Win_flush", "MPI_Win_flush_local",
                                         "MPI_Win_lock_all/unlock_all", "MPI_Win_post/start/complete/wait",
                                         "MPI_Win_fence"};
static const char *const sync_words[] = {"lock", "flush", "flush_local", "lock_all", "pscw", "fence"};
const char *osu_win_name(osu_win_t w) { return win_names[w]; }
const char *osu_sync_name(osu_sync_t s) { return sync_names[s]; }
const char *osu_win_word(osu_win_t w) { return win_words[w]; }
const char *osu_sync_word(osu_sync_t s) { return sync_words[s]; }

int osu_takes(const osu_test_t *t, char letter) {
  return letter != ':' && strchr(t->optstring, letter) != NULL;
}

/* 0 none, 1 required, 2 optional and in the same word (getopt's "c::"). */
static int takes_argument(const osu_test_t *t, char letter) {
  const char *p = strchr(t->optstring, letter);
  if (!p || p[1] != ':') return 0;
  return p[2] == ':' ? 2 : 1;
}

void osu_options_defaults(osu_options_t *o, const osu_test_t *t) {
  memset(o, 0, sizeof(*o));
  o->min_size = t->min_size_default;
  o->max_size = t->max_size_default;
  static const long loops[3][4] = {
      [OSU_ITER_LAT] = {LAT_LOOP_SMALL, LAT_LOOP_LARGE, LAT_SKIP_SMALL, LAT_SKIP_LARGE},
      [OSU_ITER_BW] = {BW_LOOP_SMALL, BW_LOOP_LARGE, BW_SKIP_SMALL, BW_SKIP_LARGE},
      [OSU_ITER_COLL] = {COLL_LOOP_SMALL, COLL_LOOP_LARGE, COLL_SKIP_SMALL, COLL_SKIP_LARGE}};
  o->iterations = loops[t->iter_class][0];
  o->iterations_large = loops[t->iter_class][1];
  o->skip = loops[t->iter_class][2];
  o->skip_large = loops[t->iter_class][3];
  o->large_threshold = OSU_LARGE_MESSAGE_SIZE;
  o->window = WINDOW_SIZE;
  o->print_rate = 1;
  o->mem_limit = 512u << 20;
  o->n_types = 0;  /* filled after parsing: the program's one datatype, MPI_CHAR */
  o->validation_warmup = VALIDATION_WARMUP;
  o->n_tail = 0;
  o->num_test_calls = 0;  /* OSU's num_probes: no MPI_Test in the compute loop */
  o->sender_threads = 1;
  o->receiver_threads = 2;
  o->sender_processes = 2;
  o->receiver_processes = 2;
  /* One-sided: the program's window and synchronisation (MPI 3 and up). */
  o->win = OSU_WIN_ALLOCATE;
  o->sync = OSU_SYNC_FLUSH;
  if (!strcmp(t->name, "put_bibw")) o->sync = OSU_SYNC_PSCW;
  if (!strcmp(t->name, "get_acc_latency")) {
    o->win = OSU_WIN_CREATE;  /* it sets neither, so OSU's first values */
    o->sync = OSU_SYNC_LOCK;
  }
  o->selfcheck = 1;
}

static int fail(char *err, size_t errlen, const char *fmt, ...) __attribute__((format(printf, 3, 4)));
static int fail(char *err, size_t errlen, const char *fmt, ...) {
  va_list ap;
  va_start(ap, fmt);
  vsnprintf(err, errlen, fmt, ap);
  va_end(ap);
  return OSU_PARSE_BAD;
}

/* A whole number in [lo, hi] for option letter, or a line saying what it takes. */
static int number(const char *s, long long lo, long long hi, long long *out, char letter, const char *what,
                  char *err, size_t errlen) {
  if (parse_integer(s, lo, hi, out) == 0) return 0;
  return fail(err, errlen, "-%c %s: %s must be a whole number from %lld to %lld", letter, s, what, lo, hi);
}

/* -m MAX, MIN:MAX, MIN: or :MAX (set_message_size): MIN above 0, MAX at least 0. */
static int message_sizes(osu_options_t *o, const char *v, char *err, size_t errlen) {
  const char *colon = strchr(v, ':');
  char min_s[64] = "", max_s[64] = "";
  if (strlen(v) >= sizeof(min_s) || (colon && strchr(colon + 1, ':')) || !v[0] || !strcmp(v, ":"))
    return fail(err, errlen, "-m %s: give [MIN:]MAX in bytes (-m 1:4096, -m 4096, -m 2:)", v);
  if (colon) {
    memcpy(min_s, v, (size_t)(colon - v));
    strcpy(max_s, colon + 1);
  } else {
    strcpy(max_s, v);
  }
  long long min = (long long)o->min_size, max = (long long)o->max_size;
  if (min_s[0] && parse_integer(min_s, 1, LLONG_MAX, &min) != 0)
    return fail(err, errlen, "-m %s: MIN must be a whole number of bytes above 0 (OSU 7.4 measures no 0-byte size; give -m 1:MAX)", v);
  if (max_s[0] && parse_integer(max_s, 0, INT_MAX, &max) != 0)
    return fail(err, errlen, "-m %s: MAX must be a whole number of bytes from 0 to %d", v, INT_MAX);
  if (min > max)
    return fail(err, errlen, "-m %s: MIN %lld is above MAX %lld, so no size would run; give MIN <= MAX", v, min,
                max);
  o->min_size = (size_t)min;
  o->max_size = (size_t)max;
  return 0;
}

/* -t for latency_mt (threads) and latency_mp (processes): RECV or SEND:RECV, 1 to 127 each. */
static int pair_counts(const char *v, int *send, int *recv, const char *what, char *err, size_t errlen) {
  const char *colon = strchr(v, ':');
  long long s = *send, r;
  char head[32];
  if (colon) {
    if ((size_t)(colon - v) >= sizeof(head)) return fail(err, errlen, "-t %s: give RECV or SEND:RECV", v);
    memcpy(head, v, (size_t)(colon - v));
    head[colon - v] = 0;
    if (parse_integer(head, 1, MAX_THREADS - 1, &s) != 0 || parse_integer(colon + 1, 1, MAX_THREADS - 1, &r) != 0)
      return fail(err, errlen, "-t %s: %s are whole numbers from 1 to %d, as SEND:RECV", v, what, MAX_THREADS - 1);
  } else if (parse_integer(v, 1, MAX_THREADS - 1, &r) != 0) {
    return fail(err, errlen, "-t %s: %s are whole numbers from 1 to %d (RECV or SEND:RECV)", v, what,
                MAX_THREADS - 1);
  }
  *send = (int)s;
  *recv = (int)r;
  return 0;
}

/* -z[P1,P2,...]: percentiles from 0 to 100, at most OSU_MAX_TAIL; none: 50, 90, 99. */
static int tail_percentiles(osu_options_t *o, const char *v, char *err, size_t errlen) {
  o->n_tail = 0;
  if (!v) {
    static const double def[] = {50, 90, 99};
    for (int i = 0; i < 3; i++) o->tail[o->n_tail++] = def[i];
    return 0;
  }
  char buf[128];
  if (strlen(v) >= sizeof(buf)) return fail(err, errlen, "-z%s: too long; give up to %d percentiles", v, OSU_MAX_TAIL);
  strcpy(buf, v);
  for (char *save = NULL, *p = strtok_r(buf, ",", &save); p; p = strtok_r(NULL, ",", &save)) {
    long long pct;
    if (o->n_tail == OSU_MAX_TAIL)
      return fail(err, errlen, "-z%s: at most %d percentiles, as OSU", v, OSU_MAX_TAIL);
    if (parse_integer(p, 0, 100, &pct) != 0)
      return fail(err, errlen, "-z%s: percentiles are whole numbers from 0 to 100, written -z50,99", v);
    o->tail[o->n_tail++] = (double)pct;
  }
  if (o->n_tail == 0) return fail(err, errlen, "-z%s: give percentiles as -z50,99, or -z alone", v);
  return 0;
}

static int datatypes(osu_options_t *o, const char *v, char *err, size_t errlen) {
  int add[OSU_MAX_TYPES], n = 0;
  if (str_ieq(v, "all")) {
    for (int i = 0; i < OSU_MAX_TYPES; i++) add[n++] = i;
  } else {
    for (int i = 0; i < OSU_MAX_TYPES; i++)
      if (str_ieq(v, type_names[i])) add[n++] = i;
  }
  if (n == 0) return fail(err, errlen, "-T %s: give mpi_char, mpi_int, mpi_float or all", v);
  if (o->n_types + n > OSU_MAX_TYPES)
    return fail(err, errlen, "-T %s: at most %d datatypes in all (-T all has every one)", v, OSU_MAX_TYPES);
  for (int i = 0; i < n; i++) o->type_ids[o->n_types++] = add[i];
  return 0;
}

/* OSU's long options (OMBOP_LONG_OPTIONS_ALL), each the same as a letter. */
static const struct { const char *name; char letter; } long_options[] = {
    {"help", 'h'}, {"version", 'v'}, {"full", 'f'}, {"message-size", 'm'}, {"window-size", 'W'},
    {"num-test-calls", 't'}, {"iterations", 'i'}, {"warmup", 'x'}, {"array-size", 'a'},
    {"sync-option", 's'}, {"win-options", 'w'}, {"mem-limit", 'M'}, {"accelerator", 'd'},
    {"cuda-target", 'r'}, {"print-rate", 'R'}, {"num-pairs", 'p'}, {"vary-window", 'V'},
    {"validation", 'c'}, {"buffer-num", 'b'}, {"validation-warmup", 'u'}, {"graph", 'G'}, {"papi", 'P'},
    {"ddt", 'D'}, {"nhbr", 'N'}, {"type", 'T'}, {"session", 'I'}, {"in-place", 'l'}, {"tail-lat", 'z'},
    {"root-rank", 'k'}};

/* What OSU offers that this core does not have: refused with why, whether or not the program takes it. */
static const char *not_here(char letter) {
  switch (letter) {
    case 'd':
    case 'r':
    case 'a':
      return "no device buffers: this core is built without CUDA/ROCm/OpenACC support; leave -%c out";
    case 'I':
      return "MPI sessions (-%c) are not supported by this core; leave -%c out";
    case 'G':
      return "graphs (-%c) are not drawn by this core; mpimark show and report give the figures; leave -%c out";
    case 'P':
      return "PAPI counters (-%c) are not read by this core; leave -%c out";
    case 'D':
      return "derived datatypes (-%c) are not supported by this core; leave -%c out";
    case 'N':
      return "neighbourhood topologies (-%c) are not supported by this core; leave -%c out";
  }
  return NULL;
}

/* One OSU option with its value (NULL: none). */
static int apply(osu_options_t *o, const osu_test_t *t, char letter, const char *v, char *err, size_t errlen) {
  long long n;
  switch (letter) {
    case 'h': return OSU_PARSE_HELP;
    case 'v': return OSU_PARSE_VERSION;
    case 'm': return message_sizes(o, v, err, errlen);
    case 'i':
      if (number(v, 1, INT_MAX, &n, letter, "iterations", err, errlen)) return OSU_PARSE_BAD;
      o->iterations = o->iterations_large = (long)n;
      return 0;
    case 'x':
      if (number(v, 0, INT_MAX, &n, letter, "warm-up iterations", err, errlen)) return OSU_PARSE_BAD;
      o->skip = o->skip_large = (long)n;
      return 0;
    case 'W':
      if (number(v, 1, INT_MAX, &n, letter, "the window", err, errlen)) return OSU_PARSE_BAD;
      o->window = (int)n;
      return 0;
    case 'V': o->vary_window = 1; return 0;
    case 'p':
      if (number(v, 1, INT_MAX, &n, letter, "pairs", err, errlen)) return OSU_PARSE_BAD;
      o->pairs = (int)n;
      return 0;
    case 'R':
      if (number(v, 0, 1, &n, letter, "the message rate switch", err, errlen)) return OSU_PARSE_BAD;
      o->print_rate = (int)n;
      return 0;
    case 'f': o->full = 1; return 0;
    case 'M':
      if (number(v, 0, LLONG_MAX, &n, letter, "the memory limit in bytes", err, errlen)) return OSU_PARSE_BAD;
      o->mem_limit = n < OSU_MEM_LIMIT_FLOOR ? OSU_MEM_LIMIT_FLOOR : (size_t)n;
      return 0;
    case 'T': return datatypes(o, v, err, errlen);
    case 'c':
      if (v) return fail(err, errlen, "-c%s: validation logs are not written by this core; give -c alone", v);
      o->validate = 1;
      return 0;
    case 'u':
      if (number(v, 0, VALIDATION_WARMUP_MAX, &n, letter, "validation warm-up iterations", err, errlen))
        return OSU_PARSE_BAD;
      o->validation_warmup = (long)n;
      return 0;
    case 'z': return tail_percentiles(o, v, err, errlen);
    case 'b':
      if (str_ieq(v, "single") || str_ieq(v, "multiple")) {
        o->buffer_multiple = str_ieq(v, "multiple");
        return 0;
      }
      return fail(err, errlen, "-b %s: give single or multiple", v);
    case 't':
      if (t->family == OSU_FAM_LATENCY_MT)
        return pair_counts(v, &o->sender_threads, &o->receiver_threads, "threads", err, errlen);
      if (!strcmp(t->name, "latency_mp"))
        return pair_counts(v, &o->sender_processes, &o->receiver_processes, "processes", err, errlen);
      if (t->family == OSU_FAM_NBC) {
        if (number(v, 0, INT_MAX, &n, letter, "MPI_Test calls", err, errlen)) return OSU_PARSE_BAD;
        o->num_test_calls = (int)n;
      }
      return 0;  /* osu_bw and osu_bibw take -t and ignore it, as OSU */
    case 'w':
      for (int w = 0; w < 3; w++)
        if (str_ieq(v, win_words[w])) {
          o->win = (osu_win_t)w;
          return 0;
        }
      return fail(err, errlen, "-w %s: give create, allocate or dynamic", v);
    case 's': {
      /* put_bibw synchronises actively: pscw and fence only. */
      int active_only = !strcmp(t->name, "put_bibw");
      for (int s = 0; s < 6; s++)
        if (str_ieq(v, sync_words[s]) && (!active_only || s == OSU_SYNC_PSCW || s == OSU_SYNC_FENCE)) {
          o->sync = (osu_sync_t)s;
          return 0;
        }
      return fail(err, errlen, "-s %s: osu_%s takes %s", v, t->name,
                  active_only ? "pscw or fence" : "lock, flush, flush_local, lock_all, pscw or fence");
    }
    case 'l': o->in_place = 1; return 0;
    case 'k':
      if (str_ieq(v, "rotate")) {
        o->root_rotate = 1;
        return 0;
      }
      if (!strncasecmp(v, "fixed:", 6) && parse_integer(v + 6, 0, INT_MAX, &n) == 0) {
        o->root_rotate = 0;
        o->root_rank = (int)n;
        return 0;
      }
      return fail(err, errlen, "-k %s: give rotate or fixed:RANK (-k fixed:1)", v);
  }
  return fail(err, errlen, "osu_%s: -%c is not an option this core knows; mpimark-core osu %s -h lists its options",
              t->name, letter, t->name);
}

/* An OSU letter: refused when the core lacks it or the program does not take it. */
static int check_letter(const osu_test_t *t, char letter, char *err, size_t errlen) {
  if (letter == 'h' || letter == 'v') return 0;  /* every program answers -h and -v here */
  const char *why = not_here(letter);
  if (why) {
    char line[256];
    snprintf(line, sizeof(line), why, letter, letter);
    return fail(err, errlen, "%s", line);
  }
  if (!osu_takes(t, letter))
    return fail(err, errlen, "osu_%s does not take -%c; mpimark-core osu %s -h lists its options", t->name, letter,
                t->name);
  return 0;
}

/* mpimark's options: TAKEN when argv[*i] was one (and its value consumed), 0 when not, or OSU_PARSE_BAD/_HELP. */
enum { TAKEN = 3 };
static int mpimark_option(osu_options_t *o, const osu_test_t *t, int argc, char **argv, int *i, char *err,
                          size_t errlen) {
  const char *a = argv[*i];
  if (str_ieq(a, "-help")) return OSU_PARSE_HELP;
  if (str_ieq(a, "-check")) {
    if (!osu_takes(t, 'c'))
      return fail(err, errlen, "osu_%s does not take -check (OSU's -c); mpimark-core osu %s -h lists its options",
                  t->name, t->name);
    o->validate = 1;
    return TAKEN;
  }
  if (str_ieq(a, "-json") || str_ieq(a, "-selfcheck")) {
    if (*i + 1 >= argc) return fail(err, errlen, "%s needs a value (%s)", a, str_ieq(a, "-json") ? "a file" : "on or off");
    const char *v = argv[++*i];
    if (str_ieq(a, "-json")) {
      if (strlen(v) >= sizeof(o->json_path)) return fail(err, errlen, "-json: the path is too long");
      strcpy(o->json_path, v);
    } else if (str_ieq(v, "on") || str_ieq(v, "off")) {
      o->selfcheck = str_ieq(v, "on");
    } else {
      return fail(err, errlen, "-selfcheck %s: give on or off", v);
    }
    return TAKEN;
  }
  return 0;
}

int osu_options_parse(osu_options_t *o, const osu_test_t *t, int argc, char **argv, int first, char *err,
                      size_t errlen) {
  int rc = 0;
  char optional = 0;  /* the last word was a letter whose value must be in its own word (-z, -c) */
  for (int i = first; i < argc && rc == 0; i++) {
    const char *a = argv[i];
    char after_optional = optional;
    optional = 0;
    int mine = mpimark_option(o, t, argc, argv, &i, err, errlen);
    if (mine < 0 || mine == OSU_PARSE_HELP) return mine;
    if (mine == TAKEN) continue;
    if ((a[0] != '-' || !a[1]) && after_optional)
      return fail(err, errlen, "unexpected argument '%s': -%c takes its value in the same word (-%c%s)", a,
                  after_optional, after_optional, a);
    if (a[0] != '-' || !a[1])
      return fail(err, errlen, "unexpected argument '%s' after osu_%s; OSU's options start with '-' "
                  "(mpimark-core osu %s -h)", a, t->name, t->name);
    if (a[1] == '-') {
      /* --name VALUE, --name=VALUE */
      const char *eq = strchr(a + 2, '=');
      size_t len = eq ? (size_t)(eq - a - 2) : strlen(a + 2);
      char letter = 0;
      for (size_t k = 0; k < sizeof(long_options) / sizeof(long_options[0]); k++)
        if (strlen(long_options[k].name) == len && !strncmp(long_options[k].name, a + 2, len))
          letter = long_options[k].letter;
      if (!letter)
        return fail(err, errlen, "osu_%s does not take %s; mpimark-core osu %s -h lists its options", t->name, a,
                    t->name);
      if (check_letter(t, letter, err, errlen)) return OSU_PARSE_BAD;
      int kind = takes_argument(t, letter);
      const char *v = eq ? eq + 1 : NULL;
      if (kind == 1 && !v) {
        if (i + 1 >= argc) return fail(err, errlen, "%s needs a value; mpimark-core osu %s -h", a, t->name);
        v = argv[++i];
      }
      if (kind == 0 && v) return fail(err, errlen, "%s takes no value", a);
      rc = apply(o, t, letter, v, err, errlen);
      continue;
    }
    /* -abc: flags one after the other; a letter with a value takes the rest of the word (or the next word). */
    for (const char *p = a + 1; *p && rc == 0; p++) {
      if (check_letter(t, *p, err, errlen)) return OSU_PARSE_BAD;
      int kind = takes_argument(t, *p);
      if (kind == 0) {
        rc = apply(o, t, *p, NULL, err, errlen);
        continue;
      }
      const char *v = p[1] ? p + 1 : NULL;
      if (kind == 2 && !v) optional = *p;
      if (kind == 1 && !v) {
        if (i + 1 >= argc) return fail(err, errlen, "-%c needs a value; mpimark-core osu %s -h", *p, t->name);
        v = argv[++i];
      }
      rc = apply(o, t, *p, v, err, errlen);
      break;
    }
  }
  if (rc != 0) return rc;
  if (o->n_types == 0) o->type_ids[o->n_types++] = OSU_TYPE_CHAR;
  /* osu_latency_mt checks what each receiver thread got against one sender's pattern (OSU refuses too,
   * its default 1:2 included). */
  if (t->family == OSU_FAM_LATENCY_MT && o->validate && o->sender_threads != o->receiver_threads)
    return fail(err, errlen, "osu_latency_mt -c needs as many sender as receiver threads (-t %d:%d, say), not %d:%d",
                o->receiver_threads, o->receiver_threads, o->sender_threads, o->receiver_threads);
  return 0;
}

/* The help line of each letter, OSU's meaning in our words. */
static const struct { char letter; const char *text; } help_lines[] = {
    {'m', "-m [MIN:]MAX      message sizes from MIN to MAX bytes, doubling (-m 128, -m 2:128, -m 2:)"},
    {'i', "-i N              timed iterations per size (small and large sizes alike)"},
    {'x', "-x N              warm-up iterations per size"},
    {'W', "-W N              messages in flight per window"},
    {'V', "-V                vary the window sizes"},
    {'p', "-p N              pairs of processes"},
    {'R', "-R 0|1            print the message rate (1)"},
    {'f', "-f                full listing: minimum, maximum latency and iterations too"},
    {'M', "-M BYTES          memory limit per process for the buffers (512 MiB)"},
    {'T', "-T TYPE           mpi_char, mpi_int, mpi_float or all (repeatable; mpi_char)"},
    {'c', "-c                validate the data received (also mpimark's -check)"},
    {'u', "-u N              validation warm-up iterations, up to 10 (5)"},
    {'z', "-z[P1,P2,..]      tail latency percentiles, written in the same word (-z: 50,90,99)"},
    {'b', "-b single|multiple  one buffer for every size, or one per size (single)"},
    {'t', "-t N | SEND:RECV  MPI_Test calls (non-blocking collectives); threads or processes (_mt, _mp)"},
    {'w', "-w create|allocate|dynamic  window creation"},
    {'s', "-s lock|flush|flush_local|lock_all|pscw|fence  synchronisation"},
    {'l', "-l                MPI_IN_PLACE"},
    {'k', "-k rotate|fixed:R the root: rotating, or rank R (0)"},
    {'h', "-h                this text"},
    {'v', "-v                the version line"},
};

void osu_options_usage(FILE *f, const osu_test_t *t) {
  fprintf(f, "usage: mpimark-core osu %s [OSU options] [mpimark options]   (osu_%s, OMB 7.4)\n\n", t->name, t->name);
  fprintf(f, "OSU's options osu_%s takes:\n", t->name);
  for (size_t i = 0; i < sizeof(help_lines) / sizeof(help_lines[0]); i++)
    if (osu_takes(t, help_lines[i].letter)) fprintf(f, "  %s\n", help_lines[i].text);
  fprintf(f, "\nmpimark options (after OSU's):\n"
             "  -json FILE        write the JSON Lines results stream to FILE\n"
             "  -selfcheck on|off timer, OS-noise and load checks before measuring (on)\n"
             "  -help             this text\n");
}
