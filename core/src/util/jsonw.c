#include "util/jsonw.h"

#include <math.h>
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>

void jw_init(jw_t *w, FILE *f) {
  w->f = f;
  w->depth = 0;
  w->count[0] = 0;
}

void json_escape(FILE *f, const char *s) {
  fputc('"', f);
  for (const unsigned char *p = (const unsigned char *)s; *p; p++) {
    switch (*p) {
      case '"': fputs("\\\"", f); break;
      case '\\': fputs("\\\\", f); break;
      case '\n': fputs("\\n", f); break;
      case '\r': fputs("\\r", f); break;
      case '\t': fputs("\\t", f); break;
      default:
        if (*p < 0x20) fprintf(f, "\\u%04x", *p);
        else fputc(*p, f);
    }
  }
  fputc('"', f);
}

static void member(jw_t *w, const char *key) {
  if (w->depth > 0 && w->count[w->depth]++ > 0) fputc(',', w->f);
  if (key) {
    json_escape(w->f, key);
    fputc(':', w->f);
  }
}

static void open(jw_t *w, const char *key, char c) {
  member(w, key);
  fputc(c, w->f);
  if (w->depth + 1 < JW_MAX_DEPTH) w->depth++;
  w->count[w->depth] = 0;
}

void jw_obj_begin(jw_t *w, const char *key) { open(w, key, '{'); }
void jw_arr_begin(jw_t *w, const char *key) { open(w, key, '['); }

void jw_obj_end(jw_t *w) {
  fputc('}', w->f);
  if (w->depth > 0) w->depth--;
}

void jw_arr_end(jw_t *w) {
  fputc(']', w->f);
  if (w->depth > 0) w->depth--;
}

void jw_str(jw_t *w, const char *key, const char *v) {
  member(w, key);
  if (v) json_escape(w->f, v);
  else fputs("null", w->f);
}

void jw_int(jw_t *w, const char *key, int64_t v) {
  member(w, key);
  fprintf(w->f, "%" PRId64, v);
}

void jw_num(jw_t *w, const char *key, double v) {
  member(w, key);
  if (!isfinite(v)) {
    fputs("null", w->f);
    return;
  }
  /* The fewest digits (at least 12) that read back as v: a record's figure must give back the text the
   * core printed from the same double (OSU's and IMB's %.2f at a tie), whoever reads it. */
  char buf[32];
  for (int digits = 12; digits <= 17; digits++) {
    snprintf(buf, sizeof(buf), "%.*g", digits, v);
    if (strtod(buf, NULL) == v) break;
  }
  fputs(buf, w->f);
}

void jw_bool(jw_t *w, const char *key, int v) {
  member(w, key);
  fputs(v ? "true" : "false", w->f);
}

void jw_null(jw_t *w, const char *key) {
  member(w, key);
  fputs("null", w->f);
}

void jw_end_line(jw_t *w) {
  fputc('\n', w->f);
  fflush(w->f);
  w->depth = 0;
  w->count[0] = 0;
}
