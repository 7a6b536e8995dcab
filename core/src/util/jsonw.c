#include "util/jsonw.h"

#include <math.h>
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

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

/* --- a validator for json_is_object: recursive descent, each function returns the text after what it read,
 * or NULL where the text is not JSON. */
static const char *skip_ws(const char *p) {
  while (*p == ' ' || *p == '\t' || *p == '\n' || *p == '\r') p++;
  return p;
}

static const char *parse_value(const char *p, int depth);

static const char *parse_string(const char *p) {
  if (*p++ != '"') return NULL;
  for (;;) {
    unsigned char c = (unsigned char)*p++;
    if (c == '"') return p;
    if (c < 0x20) return NULL;  /* the end of the text, or a raw control character */
    if (c != '\\') continue;
    c = (unsigned char)*p++;
    if (c == 'u') {
      for (int i = 0; i < 4; i++, p++)
        if (!((*p >= '0' && *p <= '9') || (*p >= 'a' && *p <= 'f') || (*p >= 'A' && *p <= 'F'))) return NULL;
    } else if (!c || !strchr("\"\\/bfnrt", c)) {
      return NULL;
    }
  }
}

static const char *digits(const char *p) {
  if (*p < '0' || *p > '9') return NULL;
  while (*p >= '0' && *p <= '9') p++;
  return p;
}

static const char *parse_number(const char *p) {
  if (*p == '-') p++;
  if (*p == '0') p++;
  else if (!(p = digits(p))) return NULL;
  if (*p == '.' && !(p = digits(p + 1))) return NULL;
  if (*p == 'e' || *p == 'E') {
    p++;
    if (*p == '+' || *p == '-') p++;
    if (!(p = digits(p))) return NULL;
  }
  return p;
}

static const char *parse_members(const char *p, int depth, int object) {
  char close = object ? '}' : ']';
  p = skip_ws(p + 1);
  if (*p == close) return p + 1;
  for (;;) {
    if (object) {
      if (!(p = parse_string(p))) return NULL;
      p = skip_ws(p);
      if (*p++ != ':') return NULL;
    }
    if (!(p = parse_value(p, depth + 1))) return NULL;
    p = skip_ws(p);
    if (*p == close) return p + 1;
    if (*p++ != ',') return NULL;
    p = skip_ws(p);
  }
}

static const char *parse_value(const char *p, int depth) {
  if (depth >= JW_MAX_DEPTH) return NULL;
  p = skip_ws(p);
  switch (*p) {
    case '{': return parse_members(p, depth, 1);
    case '[': return parse_members(p, depth, 0);
    case '"': return parse_string(p);
    case 't': return strncmp(p, "true", 4) ? NULL : p + 4;
    case 'f': return strncmp(p, "false", 5) ? NULL : p + 5;
    case 'n': return strncmp(p, "null", 4) ? NULL : p + 4;
    default: return parse_number(p);
  }
}

int json_is_object(const char *text) {
  if (!text) return 0;
  const char *p = skip_ws(text);
  if (*p != '{') return 0;
  /* the writer's own depth counts too: the object is written one level down */
  p = parse_value(p, 1);
  return p && *skip_ws(p) == 0;
}

void jw_raw_object(jw_t *w, const char *key, const char *text) {
  member(w, key);
  for (const char *p = text; *p; p++) fputc(*p == '\n' || *p == '\r' || *p == '\t' ? ' ' : *p, w->f);
}
