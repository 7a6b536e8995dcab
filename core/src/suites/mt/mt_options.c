#include "suites/mt/mt_options.h"
#include "util/parse.h"
#include "util/strutil.h"

#include <stdio.h>
#include <string.h>

void mt_options_defaults(mt_options_t *o) {
  memset(o, 0, sizeof(*o));
  static const int counts[] = {1, 2, 4, 8};
  for (int i = 0; i < 4; i++) o->counts[i] = counts[i];
  o->n_counts = 4;
  o->repeat = 1000;
  o->warmup = 100;
  o->window_size = 64;
  o->barrier = MT_BARRIER_ON;
  o->malloc_align = 64;
  o->malloc_algo = MT_MALLOC_SERIAL;
  o->datatype = DT_INT;
  o->thread_level = THREAD_SINGLE;
}

const char *mt_datatype_name(dtype_t t) { return t == DT_CHAR ? "char" : "int"; }

static char words[8192];
static size_t used;

/* Splits a comma list into list[], the words kept in `words`. */
static int add_words(const char *what, const char *v, char **list, int *n, char *err, size_t errlen) {
  size_t len = strlen(v) + 1;
  if (used + len > sizeof(words)) {
    snprintf(err, errlen, "the %s list is too long; name fewer benchmarks", what);
    return -1;
  }
  char *copy = memcpy(words + used, v, len);
  used += len;
  for (char *tok = strtok(copy, ","); tok; tok = strtok(NULL, ",")) {
    if (*n >= MT_MAX_NAMES) {
      snprintf(err, errlen, "more than %d names in %s; name fewer", MT_MAX_NAMES, what);
      return -1;
    }
    list[(*n)++] = tok;
  }
  return 0;
}

static int parse_counts(mt_options_t *o, const char *v, char *err, size_t errlen) {
  char buf[2048];
  snprintf(buf, sizeof(buf), "%s", v);
  o->n_counts = 0;
  for (char *tok = strtok(buf, ","); tok; tok = strtok(NULL, ",")) {
    long long c;
    if (parse_integer(tok, 0, 1 << 30, &c) != 0 || o->n_counts >= MT_MAX_COUNTS) {
      snprintf(err, errlen, "-count '%s' is not a list of element counts (non-negative integers, at most %d); "
               "e.g. -count 1,2,4,8", v, MT_MAX_COUNTS);
      return -1;
    }
    o->counts[o->n_counts++] = (int)c;
  }
  if (o->n_counts == 0) {
    snprintf(err, errlen, "-count '%s' names no count; e.g. -count 1,2,4,8", v);
    return -1;
  }
  return 0;
}

static int int_option(const char *opt, const char *v, long long lo, int *out, char *err, size_t errlen) {
  long long x;
  if (parse_integer(v, lo, 2147483647LL, &x) == 0) {
    *out = (int)x;
    return 0;
  }
  snprintf(err, errlen, "%s '%s' is not an integer >= %lld", opt, v, lo);
  return -1;
}

static int choice(const char *opt, const char *v, const char *const *names, int n, int *out, char *err,
                  size_t errlen) {
  for (int i = 0; i < n; i++)
    if (str_ieq(v, names[i])) {
      *out = i;
      return 0;
    }
  snprintf(err, errlen, "%s '%s' is not one of %s%s%s%s%s", opt, v, names[0], n > 1 ? ", " : "", n > 1 ? names[1] : "",
           n > 2 ? ", " : "", n > 2 ? names[2] : "");
  return -1;
}

int mt_options_parse(mt_options_t *o, int argc, char **argv, int first, char *err, size_t errlen) {
  static const char *const barrier[] = {"off", "on", "special"};
  static const char *const algo[] = {"serial", "continuous", "parallel"};
  static const char *const dtype[] = {"int", "char"};
  static const char *const levels[] = {"single", "funneled", "serialized", "multiple", "nompiinit"};
  used = 0;
  for (int i = first; i < argc; i++) {
    const char *a = argv[i], *v = i + 1 < argc ? argv[i + 1] : NULL;
    if (str_ieq(a, "-help") || str_ieq(a, "-h") || str_ieq(a, "--help")) { o->help = 1; return 0; }
    if (str_ieq(a, "-noheader")) { o->noheader = 1; continue; }
    if (str_ieq(a, "-check")) {
      /* IMB-MT's -check takes a boolean; a bare -check (mpimark's other suites) means on. */
      o->check = 1;
      if (v && parse_bool(v, &o->check) == 0) i++;
      continue;
    }
    if (a[0] != '-') {
      if (add_words("benchmark", a, o->names, &o->n_names, err, errlen)) return -1;
      continue;
    }
    if (!v) {
      snprintf(err, errlen, "%s needs a value; see mpimark-core mt -help", a);
      return -1;
    }
    int rc, k = 0;
    if (str_ieq(a, "-count")) rc = parse_counts(o, v, err, errlen);
    else if (str_ieq(a, "-repeat")) rc = int_option(a, v, 1, &o->repeat, err, errlen);
    else if (str_ieq(a, "-warmup")) rc = int_option(a, v, 0, &o->warmup, err, errlen);
    else if (str_ieq(a, "-window_size")) rc = int_option(a, v, 1, &o->window_size, err, errlen);
    else if (str_ieq(a, "-stride")) rc = int_option(a, v, 0, &o->stride, err, errlen);
    else if (str_ieq(a, "-malloc_align")) {
      rc = int_option(a, v, 1, &o->malloc_align, err, errlen);
      if (rc == 0 && (o->malloc_align & (o->malloc_align - 1))) {
        snprintf(err, errlen, "-malloc_align %s is not a power of two; e.g. -malloc_align 64", v);
        rc = -1;
      }
    } else if (str_ieq(a, "-barrier")) rc = choice(a, v, barrier, 3, &o->barrier, err, errlen);
    else if (str_ieq(a, "-malloc_algo")) rc = choice(a, v, algo, 3, &o->malloc_algo, err, errlen);
    else if (str_ieq(a, "-datatype")) {
      rc = choice(a, v, dtype, 2, &k, err, errlen);
      o->datatype = k ? DT_CHAR : DT_INT;
    } else if (str_ieq(a, "-thread_level")) {
      rc = choice(a, v, levels, 5, &k, err, errlen);
      if (rc) snprintf(err, errlen, "-thread_level '%s' is not one of single, funneled, serialized, multiple, nompiinit", v);
      o->thread_level = (thread_level_t)k;
    } else if (str_ieq(a, "-include")) rc = add_words("-include", v, o->include, &o->n_include, err, errlen);
    else if (str_ieq(a, "-exclude")) rc = add_words("-exclude", v, o->exclude, &o->n_exclude, err, errlen);
    else if (str_ieq(a, "-input")) {
      snprintf(o->input_file, sizeof(o->input_file), "%s", v);
      rc = 0;
    } else if (str_ieq(a, "-json")) {
      snprintf(o->json_path, sizeof(o->json_path), "%s", v);
      rc = 0;
    } else {
      snprintf(err, errlen, "unknown option '%s' for mt (IMB-MT's are -thread_level, -count, -repeat, -warmup, "
               "-window_size, -stride, -barrier, -malloc_align, -malloc_algo, -check, -noheader, -datatype, "
               "-input, -include, -exclude, -list, -help; mpimark adds -json)", a);
      return -1;
    }
    if (rc) return -1;
    i++;
  }
  /* IMB's imb.cpp appends the file's names to those of the command line. */
  if (o->input_file[0] && read_input_names(o->input_file, o->names, &o->n_names, MT_MAX_NAMES, err, errlen))
    return -1;
  if (o->check && o->datatype != DT_INT) {
    snprintf(err, errlen, "-check verifies int data only (as IMB-MT); drop -datatype char or -check");
    return -1;
  }
  return 0;
}
