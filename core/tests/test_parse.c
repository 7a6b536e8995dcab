/* util/parse.c: the value parsers of every command line in the core (and str_gigabytes). */
#include "check.h"
#include "util/parse.h"
#include "util/strutil.h"

#include <string.h>

#include <limits.h>

static void test_integer(void) {
  long long v = 7;
  CHECK(parse_integer("42", 0, 100, &v) == 0 && v == 42);
  CHECK(parse_integer("-3", -5, 5, &v) == 0 && v == -3);
  CHECK(parse_integer("0", 0, 0, &v) == 0 && v == 0);
  CHECK(parse_integer("9223372036854775807", 0, LLONG_MAX, &v) == 0 && v == LLONG_MAX);
  v = 7;
  CHECK(parse_integer("101", 0, 100, &v) == -1 && v == 7);   /* out of range: *out untouched */
  CHECK(parse_integer("-1", 0, 100, &v) == -1);
  CHECK(parse_integer("", 0, 100, &v) == -1);
  CHECK(parse_integer(NULL, 0, 100, &v) == -1);
  CHECK(parse_integer("12x", 0, 100, &v) == -1);
  CHECK(parse_integer("1.5", 0, 100, &v) == -1);
  CHECK(parse_integer("99999999999999999999", 0, LLONG_MAX, &v) == -1);  /* overflow */
  CHECK(v == 7);
}

static void test_double(void) {
  double d = 0;
  CHECK(parse_double("2.5", &d) == 0 && d == 2.5);
  CHECK(parse_double("1e3", &d) == 0 && d == 1000);
  CHECK(parse_double("", &d) == -1);
  CHECK(parse_double("3s", &d) == -1);
  CHECK(parse_double("1e999", &d) == -1);   /* ERANGE */
  CHECK(parse_double("nan", &d) == -1);     /* would turn a check such as d <= 0 off */
  CHECK(parse_double("-NaN", &d) == -1);
  CHECK(parse_double("inf", &d) == -1);
}

static void test_bool(void) {
  int b = -1;
  CHECK(parse_bool("on", &b) == 0 && b == 1);
  CHECK(parse_bool("ENABLE", &b) == 0 && b == 1);
  CHECK(parse_bool("0", &b) == 0 && b == 0);
  CHECK(parse_bool("False", &b) == 0 && b == 0);
  CHECK(parse_bool("maybe", &b) == -1);
}

static void test_size(void) {
  size_t v = 0;
  CHECK(parse_size("0", &v) == 0 && v == 0);
  CHECK(parse_size("4k", &v) == 0 && v == 4096);
  CHECK(parse_size("3M", &v) == 0 && v == 3145728);
  CHECK(parse_size("2g", &v) == 0 && v == 2147483648UL);
  CHECK(parse_size("+4", &v) == -1);
  CHECK(parse_size("-1", &v) == -1);
  CHECK(parse_size("1kb", &v) == -1);
  CHECK(parse_size("k", &v) == -1);
  CHECK(parse_size("99999999999999999999", &v) == -1);
}

static void test_gigabytes(void) {
  char b[32];
  CHECK(strcmp(str_gigabytes(2.0, b, sizeof(b)), "2.000 GB") == 0);
  CHECK(strcmp(str_gigabytes(0.002, b, sizeof(b)), "2.0 MB") == 0);
  CHECK(strcmp(str_gigabytes(0.25 / 1024 / 1024 * 1024, b, sizeof(b)), "256 KB") == 0); /* not "0.000 GB" */
}

int main(void) {
  test_gigabytes();
  test_integer();
  test_double();
  test_bool();
  test_size();
  TEST_MAIN_END();
}
