#include "util/patterns.h"

int np_list(int npmin, int P, int even, int *out, int max) {
  int n = 0;
  if (even) {
    P -= P % 2;
    npmin += npmin % 2;
  }
  if (P < 1) return 0;
  int q = npmin < P ? npmin : P;
  if (q < 1) q = 1;
  while (q < P && n < max) {
    out[n++] = q;
    q *= 2;
  }
  if (n < max) out[n++] = P;
  return n;
}

int root_of_iteration(long iter, int root_shift, int np) {
  return root_shift ? (int)(iter % np) : 0;
}

size_t split_count(size_t L, int np, int i) {
  size_t r = L / (size_t)np, s = L % (size_t)np;
  return (size_t)i < s ? r + 1 : r;
}

size_t split_offset(size_t L, int np, int i) {
  size_t r = L / (size_t)np, s = L % (size_t)np;
  size_t ii = (size_t)i;
  return ii * r + (ii < s ? ii : s);
}

int map_key(int w, int P, int Q) {
  if (P <= 1 || Q <= 1) return w;
  int k = (int)(((long)Q * w) % ((long)P * Q - 1));
  return k == 0 ? w : k;
}

int group_count(int P, int np, int multi) {
  if (np <= 0) return 0;
  return multi ? P / np : (np <= P ? 1 : 0);
}

int group_of_rank(int w, int P, int np, int multi, int map_p, int map_q) {
  int key = map_key(w, map_p, map_q);
  int g = key / np;
  return g < group_count(P, np, multi) ? g : -1;
}
