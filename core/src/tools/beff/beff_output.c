/* b_eff's outputs: PREFIX.prot (detailed protocol), PREFIX.short (short
 * protocol with every analysis path), PREFIX.sum (summary), PREFIX.plot
 * (gnuplot data), PREFIX.gps (gnuplot script), and the JSON records. The
 * sections and tables follow the original's (docs/beff.md lists them); the
 * numbers are MB/s = 1e6 bytes/s, per process unless said "accumulated". */
#include "tools/beff/beff.h"

#include <errno.h>
#include <math.h>
#include <stdio.h>
#include <string.h>

#define MB 1e6

static double per_proc(const beff_t *s, double b) { return b / MB / s->N; }

static const char *class_name(beff_class_t k) {
  return k == PAT_RING ? "ring" : k == PAT_RANDOM ? "random" : "additional";
}

/* Lmax as the tables show it, in MB = 2^20 bytes. */
static void fmt_lmax(const beff_t *s, char *buf, size_t n) {
  double mb = (double)s->lmax / 1048576.0;
  if (mb >= 1 && mb == floor(mb)) snprintf(buf, n, "%.0f MB", mb);
  else snprintf(buf, n, "%.3g MB", mb);
}

void beff_final_line(const beff_t *s, char *buf, size_t n) {
  snprintf(buf, n, "b_eff%s = %10.3f MB/s = %7.3f * %3d PEs with %3lld MB/PE on %s", s->tag, s->an->b_eff / MB,
           per_proc(s, s->an->b_eff), s->N, s->mem_mb, s->uname_line);
}

static void write_head(const beff_t *s, FILE *f) {
  fprintf(f, "\nSECTION-HEAD-BEGIN\n\n");
  fprintf(f, "b_eff (definition of HLRS b_eff.c revision 3.6), measured by mpimark-core %s%s%s\n\n", MPIMARK_VERSION,
          s->tag[0] ? ", mode " : "", s->tag);
  fprintf(f, "MEMORY_PER_PROCESSOR = %lld MBytes  [1M = 1024*1024]  (%s)\n", s->mem_mb,
          s->mem_given ? "from -mem" : "MemTotal / processes on the host");
  fprintf(f, "Lmax = %lld bytes = min(128 MB, MEMORY_PER_PROCESSOR / 128)\n", s->lmax);
  fprintf(f, "1-dim-patterns: size = %d\n", s->N);
  for (int i = 0; i < s->n_dims_lines; i++) fprintf(f, "%s\n", s->dims_line[i]);
  fprintf(f, "Used message lengths:\nmsglng=");
  for (int i = 0; i < BEFF_MSGLENGTHS; i++) fprintf(f, " %lld", s->len[i]);
  fprintf(f, "\nUsed methods:");
  for (int m = 0; m < BEFF_METHODS; m++) fprintf(f, "  %d=%s", m, beff_method_name[m]);
  fprintf(f, "\nUsed patterns:");
  for (int p = 0; p < s->n_pat; p++) {
    if (p > 0 && p % 4 == 0) fprintf(f, "\n              ");
    fprintf(f, " %2d=%-17s", p, s->pat[p].label);
  }
  fprintf(f, "\n\n");
  fprintf(f, "               %d-%d   used for ring pattern average of b_eff\n", s->first_ring,
          s->first_ring + BEFF_RINGS - 1);
  fprintf(f, "               %d-%d  used for random pattern average of b_eff\n", s->first_random,
          s->first_random + s->n_random - 1);
  fprintf(f, "               %d-%d only reported, not used for b_eff average\n", s->first_extra, s->n_pat - 1);
  fprintf(f, "Repetitions: %d, time per loop: %g s, random patterns seeded with %llu\n", s->reps, s->time_per_loop,
          s->seed);
  fprintf(f, "\nSECTION-HEAD-END\n\n");
}

static void write_system(const beff_t *s, FILE *f) {
  fprintf(f, "system parameters  : %d nodes, %lld MB/node\n", s->N, s->mem_mb);
  fprintf(f, "       system name : %s\n", s->uts.sysname);
  fprintf(f, "       hostname    : %s\n", s->uts.nodename);
  fprintf(f, "       OS release  : %s\n", s->uts.release);
  fprintf(f, "       OS version  : %s\n", s->uts.version);
  fprintf(f, "       machine     : %s\n\n", s->uts.machine);
  fprintf(f, "Date of measurement: %s\n\n", s->date);
  fprintf(f, "Total execution wall clock time = %5.0f seconds\n\n", s->total_elapsed_s);
}

static double lat_usec(const beff_t *s, double b1) { return b1 > 0 ? s->N * 1e6 / b1 : NAN; }

static void write_table(const beff_t *s, FILE *f) {
  const beff_analysis_t *a = s->an;
  const int last = BEFF_MSGLENGTHS - 1;
  char lmax[32];
  fmt_lmax(s, lmax, sizeof(lmax));
  fprintf(f, "            | number  |   b_eff   |  Lmax  |   b_eff   |   b_eff   | Latency | Latency | Latency | ping-pong\n");
  fprintf(f, "            | of pro  |           |        |  at Lmax  |  at Lmax  | rings & |  rings  |  ping-  | bandwidth\n");
  fprintf(f, "            | cessors |           |        |  rings &  |   rings   | random  |  only   |  pong   |\n");
  fprintf(f, "            |         |           |        |  random   |   only    | micro-  | micro-  | micro-  |\n");
  fprintf(f, "            |         |  MByte/s  |        |  MByte/s  |  MByte/s  |  sec    |  sec    |  sec    |  MByte/s\n");
  fprintf(f, "---------------------------------------------------------------------------------------------------------------\n");
  fprintf(f, "accumulated |  %5d    %9.0f  %7s  %9.0f    %9.0f    %6.3f    %6.3f    %6.3f    %9.0f\n", s->N,
          a->b_eff / MB, lmax, a->final_msg[last] / MB, a->rings_msg[last] / MB, lat_usec(s, a->final_msg[0]),
          lat_usec(s, a->rings_msg[0]), s->latency_pp_s * 1e6, s->bw_pp / MB);
  fprintf(f, "per process |           %9.0f           %9.0f    %9.0f\n\n", per_proc(s, a->b_eff),
          per_proc(s, a->final_msg[last]), per_proc(s, a->rings_msg[last]));
}

static void write_caution(const beff_t *s, FILE *f) {
  if (!s->shortened) return;
  fprintf(f, "\n CAUTION: the two largest lengths were shortened because they would have taken more than %g s:\n"
             " only the best method of the length before was measured, with one iteration, and Lmax with %d\n"
             " repetitions; its values are copied to the other methods. b_eff is unaffected, but the methods\n"
             " cannot be compared at these lengths (-noshortlasttwo measures them in full).\n",
          s->max_for_last_two, BEFF_MIN_REPETITIONS);
}

static void write_prot(const beff_t *s, FILE *f) {
  write_head(s, f);
  fprintf(f, "\nSECTION-LOOP-BEGIN\n\nmeasurement loop: %7.3f sec\n\nSECTION-LOOP-END\n\n", s->loop_elapsed_s);

  fprintf(f, "\nSECTION-LOOPLNGS-BEGIN\n");
  for (int m = 0; m < BEFF_METHODS; m++) {
    fprintf(f, "\nmethod=%d  |", m);
    for (int r = 0; r < s->reps; r++) fprintf(f, " ------- repetition %d ---------", r);
    fprintf(f, " [sec]\n(=%7s)|", beff_method_name[m]);
    for (int r = 0; r < s->reps; r++) fprintf(f, " loop   total per pattrn&mthd  ");
    fprintf(f, "\nmsg length|");
    for (int r = 0; r < s->reps; r++) fprintf(f, "  lng    time minimum maximum  ");
    fprintf(f, "\n----------|");
    for (int r = 0; r < s->reps; r++) fprintf(f, " ---- ------- ------- ---------");
    fprintf(f, "\n");
    for (int msg = 0; msg < BEFF_MSGLENGTHS; msg++) {
      fprintf(f, " %9lld ", s->len[msg]);
      for (int r = 0; r < s->reps; r++) {
        char mark = ' ';
        if (s->shortened && msg == BEFF_MSGLENGTHS - 2) mark = 'M';
        if (s->shortened && msg == BEFF_MSGLENGTHS - 1) mark = 'R';
        fprintf(f, " %4d %7.1e %7.1e %7.1e %c", s->looplng[msg][r][m], s->comm_time[msg][r][m],
                s->min_looptime[msg][r][m], s->max_looptime[msg][r][m], mark);
      }
      fprintf(f, "\n");
    }
    if (s->shortened)
      fprintf(f, "\n Explanation: M = only the best method is used\n"
                 "              R = only best method and only %d repetitions\n", BEFF_MIN_REPETITIONS);
  }
  fprintf(f, "\nSECTION-LOOPLNGS-END\n\n");

  fprintf(f, "\nSECTION-VALUES-BEGIN\n\n");
  fprintf(f, "Minimum / Average / Maximum over the processes of the bandwidth per process,\n"
             "for all %d repetitions (MB/s = 1e6 Bytes/s):\n"
             "(mthd0=Sendrecv or Send or Recv, mthd1=Alltoallv, mthd2=Irecv+Isend+Waitall)\n\n", s->reps);
  fprintf(f, " msg length|methd|pat|    ");
  for (int r = 0; r < s->reps; r++) fprintf(f, " MByte/s");
  fprintf(f, " -> maximum bandw. on all repetitions\n           |     |   |    ");
  for (int r = 0; r < s->reps; r++) fprintf(f, "        ");
  fprintf(f, " -> (elapsed time of the slowest process)\n");
  for (int msg = 0; msg < BEFF_MSGLENGTHS; msg++)
    for (int m = 0; m < BEFF_METHODS; m++)
      for (int p = 0; p < s->n_pat; p++) {
        if (p == 0 && m == 0) fprintf(f, " %10lld", s->len[msg]);
        else fprintf(f, "           ");
        if (p == 0) fprintf(f, " mthd%d", m);
        else fprintf(f, "      ");
        fprintf(f, " p%02d min=", p);
        double best = 0, elapsed = 0;
        for (int r = 0; r < s->reps; r++) {
          size_t c = beff_cell(s, r, p, msg, m);
          if (!s->measured[c]) {
            fprintf(f, "  ------");
            continue;
          }
          fprintf(f, " %7.3f", s->bw_min[c] / MB);
          if (s->bw_min[c] > best) best = s->bw_min[c];
          int pre = msg < BEFF_WITH_PRELOOPS ? BEFF_PRE_LOOPS : 0;
          if (s->loops[c] > 0) elapsed += s->t_max[c] * (s->loops[c] + pre) / s->loops[c];
        }
        if (best > 0) fprintf(f, " -> %7.3f (%5.3f s)\n", best / MB, elapsed);
        else fprintf(f, " ->  ------ (----- s)\n");
        fprintf(f, "                      avg=");
        for (int r = 0; r < s->reps; r++) {
          size_t c = beff_cell(s, r, p, msg, m);
          if (s->measured[c]) fprintf(f, " %7.3f", s->bw_avg[c] / MB);
          else fprintf(f, "   ---- ");
        }
        fprintf(f, "\n                      max=");
        for (int r = 0; r < s->reps; r++) {
          size_t c = beff_cell(s, r, p, msg, m);
          if (s->measured[c]) fprintf(f, " %7.3f", s->bw_max[c] / MB);
          else fprintf(f, "    --  ");
        }
        fprintf(f, "\n");
      }
  fprintf(f, "\nSECTION-VALUES-END\n\n");
}

/* Sum over the measured cells of the slowest process's loop time (with the
 * untimed pre-loop), and the same from the fastest repetition only. */
static void elapsed_sums(const beff_t *s, double *all, double *fastest) {
  *all = 0;
  *fastest = 0;
  for (int msg = 0; msg < BEFF_MSGLENGTHS; msg++)
    for (int m = 0; m < BEFF_METHODS; m++)
      for (int p = 0; p < s->n_pat; p++) {
        double best = INFINITY;
        int n = 0;
        for (int r = 0; r < s->reps; r++) {
          size_t c = beff_cell(s, r, p, msg, m);
          if (!s->measured[c] || s->loops[c] <= 0) continue;
          int pre = msg < BEFF_WITH_PRELOOPS ? BEFF_PRE_LOOPS : 0;
          double t = s->t_max[c] * (s->loops[c] + pre) / s->loops[c];
          *all += t;
          if (t < best) best = t;
          n++;
        }
        if (n) *fastest += best * n;
      }
}

static void pattern_row(const beff_t *s, FILE *f, int p) {
  if (p == s->first_extra) fprintf(f, " -- additional patterns that are not used to compute b_eff:\n");
  fprintf(f, " p%02d %-17s :", p, s->pat[p].label);
}

static void avg_rows(const beff_t *s, FILE *f, const double *ring, const double *random, const double *final, int n,
                     int stride) {
  fprintf(f, "\n log_avg of all rings  :");
  for (int i = 0; i < n; i++) fprintf(f, " %7.3f", per_proc(s, ring[i * stride]));
  fprintf(f, " || %7.3f -> %10.3f MByte/s\n", per_proc(s, ring[n * stride]), ring[n * stride] / MB);
  fprintf(f, " log_avg of all random :");
  for (int i = 0; i < n; i++) fprintf(f, " %7.3f", per_proc(s, random[i * stride]));
  fprintf(f, " || %7.3f -> %10.3f MByte/s\n", per_proc(s, random[n * stride]), random[n * stride] / MB);
  fprintf(f, " log_avg(ring,random)  :");
  for (int i = 0; i < n; i++) fprintf(f, " %7.3f", per_proc(s, final[i * stride]));
  fprintf(f, " ||(%7.3f -> %10.3f)MByte/s\n", per_proc(s, final[n * stride]), final[n * stride] / MB);
  fprintf(f, "  * size ->\n accumulated on all pr.:");
  for (int i = 0; i < n; i++) fprintf(f, " %7.3f", final[i * stride] / MB);
  fprintf(f, " ||(%7.3f)MByte/s\n", final[n * stride] / MB);
}

static void write_short(const beff_t *s, FILE *f) {
  const beff_analysis_t *a = s->an;
  write_head(s, f);

  double all, fastest;
  elapsed_sums(s, &all, &fastest);
  double d = s->loop_elapsed_s;
  fprintf(f, "\nSECTION-ELAPSED-BEGIN\n\n");
  fprintf(f, "measurement loop: elapsed time               = %7.3f sec\n\n", d);
  fprintf(f, "  sum of max elapsed time per entries above = %7.3f sec\n", all);
  fprintf(f, "  difference to elapsed time                = %7.3f sec = %3.1f%%\n", d - all, fabs(d - all) / d * 100);
  fprintf(f, "\n  sum based on fastest repetition           = %7.3f sec\n", fastest);
  fprintf(f, "  difference to elapsed time                = %7.3f sec = %3.1f%%\n", d - fastest,
          fabs(d - fastest) / d * 100);
  if (fmax(fabs(d - all), fabs(d - fastest)) > 0.05 * d)
    fprintf(f, "\n  CAUTION: A difference above is more than 5 %%. There may be problems with the MPI\n"
               "  implementation or the processes were not on dedicated processors\n");
  else
    fprintf(f, "\n  The difference is less than 5 %%\n");
  fprintf(f, "\nSECTION-ELAPSED-END\n\n");

  fprintf(f, "\nSECTION-PATTERN-BEGIN\n\n");
  fprintf(f, "Pattern parameters: sendrecv  total number  messages/  messages/  unused  best method\n"
             "                       calls   of messages  used node  node&call   nodes  per repetition\n"
             "---- ----------------- -----  ------------  ---------  ---------  ------  --------------\n");
  for (int p = 0; p < s->n_pat; p++) {
    const beff_pattern_t *pt = &s->pat[p];
    int parts = pt->participants > 0 ? pt->participants : 1;
    fprintf(f, " p%02d %-17s %5d  %12ld  %9.2f  %9.2f  %6d  (", p, pt->label, pt->sr_max, pt->all_msg,
            (double)pt->all_msg / parts, pt->sr_max ? (double)pt->all_msg / (parts * pt->sr_max) : 0.0,
            s->N - pt->participants);
    for (int r = 0; r < s->reps; r++) fprintf(f, " %2d", s->best_method[r][p]);
    fprintf(f, " )\n");
  }
  fprintf(f, "\nSECTION-PATTERN-END\n\n");

  fprintf(f, "\nPrinting accumulated bandwidth / number of processes\n"
             "         = bandwidth per process   (in MBytes/sec = 1e6 Bytes/sec)\n"
             "Additionally the accumulated value is printed in the last column.\n"
             "\nOnly the ring and random patterns are used to compute b_eff;\n"
             "the other patterns are only information.\n");

  fprintf(f, "\nSECTION-BY-METHODS-BEGIN\n\n");
  fprintf(f, "2nd analysis path, only as information, last row:\n"
             "for all mthd: logavg_pat ( avg_L ( max_rep ( b(L) ) ) )\n"
             "|| logavg_pat ( max_mthd ( avg_L ( max_rep ( b(L) ) ) ) )\n");
  fprintf(f, "\n pattern   /    methods:");
  for (int m = 0; m < BEFF_METHODS; m++) fprintf(f, " %7s", beff_method_name[m]);
  fprintf(f, " -> best method -> accumulated\n\n");
  for (int p = 0; p < s->n_pat; p++) {
    pattern_row(s, f, p);
    for (int m = 0; m < BEFF_METHODS; m++) fprintf(f, " %7.3f", per_proc(s, a->pat_mthd[p][m]));
    fprintf(f, " -> %7.3f -> %10.3f MByte/s\n", per_proc(s, a->pat_mthd[p][BEFF_METHODS]),
            a->pat_mthd[p][BEFF_METHODS] / MB);
  }
  avg_rows(s, f, a->rings_mthd, a->random_mthd, a->final_mthd, BEFF_METHODS, 1);
  write_caution(s, f);
  fprintf(f, "\nSECTION-BY-METHODS-END\n\n");

  fprintf(f, "\nSECTION-BY-REPETITIONS-BEGIN\n\n");
  fprintf(f, "3rd analysis path, only as information, last row:\n"
             "for all rep.:logavg_pat ( avg_L ( max_mthd ( b(L) ) ) )\n"
             "|| logavg_pat ( max_rep ( avg_L ( max_mthd ( b(L) ) ) ) )\n");
  fprintf(f, "\n pattern  /  repetition:");
  for (int r = 0; r < s->reps; r++) fprintf(f, "   rep.%d", r);
  fprintf(f, " -> best repetition -> accumulated\n\n");
  for (int p = 0; p < s->n_pat; p++) {
    pattern_row(s, f, p);
    for (int r = 0; r < s->reps; r++) fprintf(f, " %7.3f", per_proc(s, a->pat_rep[p][r]));
    fprintf(f, " -> %7.3f -> %10.3f MByte/s\n", per_proc(s, a->pat_rep[p][s->reps]), a->pat_rep[p][s->reps] / MB);
  }
  avg_rows(s, f, a->rings_rep, a->random_rep, a->final_rep, s->reps, 1);
  fprintf(f, "\nSECTION-BY-REPETITIONS-END\n\n");

  fprintf(f, "\nSECTION-BY-MTHD-MSGLNG-BEGIN\n\n");
  fprintf(f, "4th analysis path, only as information, last 3 rows:\n"
             "for all methods and some msglng L: logavg_pat ( max_rep ( b(L) ) )\n"
             "for all methods: logavg_pat ( avg_L ( max_rep ( b(L) ) ) )\n");
  fprintf(f, "\n pattern & method / msg:         ");
  for (int msg = 0; msg < BEFF_MSGLENGTHS; msg += 4) fprintf(f, " %7lld", s->len[msg]);
  fprintf(f, " -> average -> accumulated\n"
             "                        (latency of one sendrecv (or equivalent method) in microsec)\n");
  for (int p = 0; p < s->n_pat; p++) {
    if (p == s->first_extra) fprintf(f, " -- additional patterns that are not used to compute b_eff:\n");
    fprintf(f, " p%02d %-17s\n", p, s->pat[p].label);
    for (int m = 0; m < BEFF_METHODS; m++) {
      fprintf(f, " p%02d method %d =%-7s :", p, m, beff_method_name[m]);
      double b1 = a->pat_msg_mthd[p][0][m];
      if (b1 > 0 && s->pat[p].sr_max > 0) fprintf(f, "(%7.3f)", 1e6 * (double)s->pat[p].all_msg / b1 / s->pat[p].sr_max);
      else fprintf(f, "(-------)");
      for (int msg = 0; msg < BEFF_MSGLENGTHS; msg += 4) fprintf(f, " %7.3f", per_proc(s, a->pat_msg_mthd[p][msg][m]));
      fprintf(f, " -> %7.3f -> %10.3f MByte/s\n", per_proc(s, a->pat_msg_mthd[p][BEFF_AVG][m]),
              a->pat_msg_mthd[p][BEFF_AVG][m] / MB);
    }
  }
  static const char *kind[3] = {"ring,    ", "random,  ", "average, "};
  for (int k = 0; k < 3; k++) {
    fprintf(f, k == 0 ? "\n log_avg of all rings\n" : k == 1 ? " log_avg of all random\n" : " log_avg(ring,random)\n");
    for (int m = 0; m < BEFF_METHODS; m++) {
      fprintf(f, " - %s method %d = %-7s:", kind[k], m, beff_method_name[m]);
      const double(*v)[BEFF_METHODS] = k == 0 ? a->rings_msg_mthd : k == 1 ? a->random_msg_mthd : a->final_msg_mthd;
      for (int msg = 0; msg < BEFF_MSGLENGTHS; msg += 4) fprintf(f, " %7.3f", per_proc(s, v[msg][m]));
      fprintf(f, " || %7.3f -> %10.3f MByte/s\n", per_proc(s, v[BEFF_AVG][m]), v[BEFF_AVG][m] / MB);
    }
  }
  fprintf(f, "  * size ->\n accumulated on all processes:\n");
  for (int m = 0; m < BEFF_METHODS; m++) {
    fprintf(f, " - accumulated, mthd %d = %-7s:", m, beff_method_name[m]);
    for (int msg = 0; msg < BEFF_MSGLENGTHS; msg += 4) fprintf(f, " %7.3f", a->final_msg_mthd[msg][m] / MB);
    fprintf(f, " || %7.3f MByte/s\n", a->final_msg_mthd[BEFF_AVG][m] / MB);
  }
  write_caution(s, f);
  fprintf(f, "\nSECTION-BY-MTHD-MSGLNG-END\n\n");

  fprintf(f, "\nSECTION-BY-MSGLNG-BEGIN\n\n");
  fprintf(f, "5th analysis path only as information:\n"
             "logavg_pat ( max_mthd ( max_rep ( b(L) ) ) )\n"
             "and for all methods: logavg_pat ( max_rep ( b(L) ) )\n");
  fprintf(f, "\nmsg length|accumulated| effective bandwidth per process:\n"
             "          |  effective| average    rings   random");
  for (int m = 0; m < BEFF_METHODS; m++) fprintf(f, " method_%d", m);
  fprintf(f, "\n          |  bandwidth| rng,rnd     only     only");
  for (int m = 0; m < BEFF_METHODS; m++) fprintf(f, "  %7s", beff_method_name[m]);
  fprintf(f, "\n");
  for (int msg = 0; msg < BEFF_MSGLENGTHS; msg++) {
    fprintf(f, " %9lld  %10.3f %8.3f %8.3f %8.3f", s->len[msg], a->final_msg[msg] / MB, per_proc(s, a->final_msg[msg]),
            per_proc(s, a->rings_msg[msg]), per_proc(s, a->random_msg[msg]));
    for (int m = 0; m < BEFF_METHODS; m++) fprintf(f, " %8.3f", per_proc(s, a->final_msg_mthd[msg][m]));
    fprintf(f, "\n");
  }
  write_caution(s, f);
  fprintf(f, "\nSECTION-BY-MSGLNG-END\n\n");

  fprintf(f, "\nSECTION-BY-PATTERN-MSGLNG-BEGIN\n\n");
  fprintf(f, "official (1st) analysis path -- see last column:\n"
             "(only columns of some message lengths are printed)\n"
             "logavg_pat ( avg_L ( max_mthd ( max_rep ( b(L) ) ) ) )\n");
  fprintf(f, "\n pattern  /  msg-length:         ");
  for (int msg = 0; msg < BEFF_MSGLENGTHS; msg += 4) fprintf(f, " %7lld", s->len[msg]);
  fprintf(f, " -> average -> accumulated\n"
             "                        (latency of one sendrecv (or equivalent method) in microsec)\n");
  for (int p = 0; p < s->n_pat; p++) {
    pattern_row(s, f, p);
    double b1 = a->pat_msg[p][0];
    if (b1 > 0 && s->pat[p].sr_max > 0) fprintf(f, "(%7.3f)", 1e6 * (double)s->pat[p].all_msg / b1 / s->pat[p].sr_max);
    else fprintf(f, "(-------)");
    for (int msg = 0; msg < BEFF_MSGLENGTHS; msg += 4) fprintf(f, " %7.3f", per_proc(s, a->pat_msg[p][msg]));
    fprintf(f, " -> %7.3f -> %10.3f MByte/s\n", per_proc(s, a->pat_msg[p][BEFF_AVG]), a->pat_msg[p][BEFF_AVG] / MB);
  }
  fprintf(f, "\n log_avg of all rings  :         ");
  for (int msg = 0; msg < BEFF_MSGLENGTHS; msg += 4) fprintf(f, " %7.3f", per_proc(s, a->rings_msg[msg]));
  fprintf(f, " || %7.3f -> %10.3f MByte/s\n", per_proc(s, a->rings_msg[BEFF_AVG]), a->rings_msg[BEFF_AVG] / MB);
  fprintf(f, " log_avg of all random :         ");
  for (int msg = 0; msg < BEFF_MSGLENGTHS; msg += 4) fprintf(f, " %7.3f", per_proc(s, a->random_msg[msg]));
  fprintf(f, " || %7.3f -> %10.3f MByte/s\n", per_proc(s, a->random_msg[BEFF_AVG]), a->random_msg[BEFF_AVG] / MB);
  fprintf(f, " log_avg(ring,random)  :         ");
  for (int msg = 0; msg < BEFF_MSGLENGTHS; msg += 4) fprintf(f, " %7.3f", per_proc(s, a->final_msg[msg]));
  fprintf(f, " || %7.3f -> %10.3f MByte/s\n", per_proc(s, a->final_msg[BEFF_AVG]), a->final_msg[BEFF_AVG] / MB);
  fprintf(f, "  * size ->\n accumulated on all pr.:         ");
  for (int msg = 0; msg < BEFF_MSGLENGTHS; msg += 4) fprintf(f, " %7.3f", a->final_msg[msg] / MB);
  fprintf(f, " || %7.3f MByte/s\n", a->final_msg[BEFF_AVG] / MB);
  fprintf(f, "\nSECTION-BY-PATTERN-MSGLNG-END\n\n");

  fprintf(f, "\nSECTION-BEFF-BEGIN\n\n");
  const int last = BEFF_MSGLENGTHS - 1;
  char lmax[32];
  fmt_lmax(s, lmax, sizeof(lmax));
  fprintf(f, "The effective bandwidth is b_eff = %10.3f MByte/s on %d processes\n", a->b_eff / MB, s->N);
  fprintf(f, "                               ( = %10.3f MByte/s * %d processes)\n", per_proc(s, a->b_eff), s->N);
  fprintf(f, "Latency: %8.3f microsec\n\n", lat_usec(s, a->final_msg[0]));
  fprintf(f, "Lmax: %s\n", lmax);
  fprintf(f, "b_eff at Lmax: %10.3f MByte/s on %d processes\n", a->final_msg[last] / MB, s->N);
  fprintf(f, "           ( : %10.3f MByte/s * %d processes)\n\n", per_proc(s, a->final_msg[last]), s->N);
  fprintf(f, "b_eff at Lmax (ring pattern):  %10.3f MByte/s on %d processes\n", a->rings_msg[last] / MB, s->N);
  fprintf(f, "                          ( :  %10.3f MByte/s * %d processes)\n", per_proc(s, a->rings_msg[last]), s->N);
  fprintf(f, "Latency ring pattern:           %8.3f microsec\n", lat_usec(s, a->rings_msg[0]));
  fprintf(f, "Ping-pong latency:            %8.3f microsec\n", s->latency_pp_s * 1e6);
  fprintf(f, "Ping-pong bandwidth at Lmax: %10.3f MByte/s at Lmax= %s\n\n (MByte/s=1e6 Byte/s)  (MB=2**20 Byte)\n\n",
          s->bw_pp / MB, lmax);
  write_system(s, f);
  write_table(s, f);
  fprintf(f, "\nSECTION-BEFF-END\n\n");
}

static void write_sum(const beff_t *s, FILE *f) {
  write_head(s, f);
  fprintf(f, "\nSECTION-BEFF-BEGIN\n\n");
  write_system(s, f);
  write_table(s, f);
  fprintf(f, "\nSECTION-BEFF-END\n\n");
}

/* Min, logavg and max of a per-pattern value over the random patterns. */
static void random_spread(const beff_t *s, const double *v, size_t stride, double *lo, double *hi) {
  *lo = INFINITY;
  *hi = 0;
  for (int i = 0; i < s->n_random; i++) {
    double x = v[(size_t)(s->first_random + i) * stride];
    if (x < *lo) *lo = x;
    if (x > *hi) *hi = x;
  }
}

/* gnuplot data: ten blocks (index 0..9), per process MB/s over L. */
static void write_plot(const beff_t *s, FILE *f) {
  const beff_analysis_t *a = s->an;
  const int stride_m = (BEFF_MSGLENGTHS + 1) * BEFF_METHODS, stride = BEFF_MSGLENGTHS + 1;
  fprintf(f, "# b_eff plot data (mpimark-core %s): bandwidth per process in MB/s (1e6 B/s) over the\n"
             "# message length in bytes. Blocks are separated by two blank lines (gnuplot 'index').\n", MPIMARK_VERSION);
  fprintf(f, "# ring & random columns: L, p%02d..p%02d (rings), worst random, logavg random, best random\n",
          s->first_ring, s->first_ring + BEFF_RINGS - 1);
  int extra[BEFF_PLOT_EXTRA], n_extra = beff_plot_extra_patterns(s->first_extra, s->pingpong_pat, s->n_pat, extra);
  fprintf(f, "# additional columns (the original's: the ping-pong pair and patterns after the ninth curve are in\n"
             "# .prot and .short): L,");
  for (int k = 0; k < n_extra; k++) fprintf(f, " p%02d=%s%s", extra[k], s->pat[extra[k]].label, k + 1 < n_extra ? "," : "\n");
  int block = 0;
  for (int m = 0; m <= BEFF_METHODS; m++) {
    const char *name = m < BEFF_METHODS ? beff_method_name[m] : "best";
    int lengths = m < BEFF_METHODS && s->shortened ? BEFF_MSGLENGTHS - 2 : BEFF_MSGLENGTHS;
    fprintf(f, "%s# index %d -- %s: ring & random\n", block ? "\n\n" : "\n", block, name);
    block++;
    for (int msg = 0; msg < lengths; msg++) {
      fprintf(f, "%10lld", s->len[msg]);
      const double *col = m < BEFF_METHODS ? &a->pat_msg_mthd[0][msg][m] : &a->pat_msg[0][msg];
      size_t st = m < BEFF_METHODS ? (size_t)stride_m : (size_t)stride;
      for (int p = 0; p < BEFF_RINGS; p++) fprintf(f, " %9.3f", per_proc(s, col[(size_t)(s->first_ring + p) * st]));
      double lo, hi;
      random_spread(s, col, st, &lo, &hi);
      double avg = m < BEFF_METHODS ? a->random_msg_mthd[msg][m] : a->random_msg[msg];
      fprintf(f, " %9.3f %9.3f %9.3f\n", per_proc(s, lo), per_proc(s, avg), per_proc(s, hi));
    }
    fprintf(f, "\n\n# index %d -- %s: additional\n", block, name);
    block++;
    for (int msg = 0; msg < lengths; msg++) {
      fprintf(f, "%10lld", s->len[msg]);
      for (int k = 0; k < n_extra; k++) {
        int p = extra[k];
        fprintf(f, " %9.3f", per_proc(s, m < BEFF_METHODS ? a->pat_msg_mthd[p][msg][m] : a->pat_msg[p][msg]));
      }
      fprintf(f, "\n");
    }
  }
  fprintf(f, "\n\n# index %d -- compare the methods: L, rings Sndrcv Alltoal non-blk, random Sndrcv Alltoal non-blk\n", block++);
  for (int msg = 0; msg < (s->shortened ? BEFF_MSGLENGTHS - 2 : BEFF_MSGLENGTHS); msg++) {
    fprintf(f, "%10lld", s->len[msg]);
    for (int m = 0; m < BEFF_METHODS; m++) fprintf(f, " %9.3f", per_proc(s, a->rings_msg_mthd[msg][m]));
    for (int m = 0; m < BEFF_METHODS; m++) fprintf(f, " %9.3f", per_proc(s, a->random_msg_mthd[msg][m]));
    fprintf(f, "\n");
  }
  fprintf(f, "\n\n# index %d -- compare ring & random: L, worst ring, logavg rings, best ring, worst random, logavg random, best random, logavg(ring,random)\n", block++);
  for (int msg = 0; msg < BEFF_MSGLENGTHS; msg++) {
    double rlo = INFINITY, rhi = 0;
    for (int p = 0; p < BEFF_RINGS; p++) {
      double x = a->pat_msg[s->first_ring + p][msg];
      if (x < rlo) rlo = x;
      if (x > rhi) rhi = x;
    }
    double lo, hi;
    random_spread(s, &a->pat_msg[0][msg], (size_t)stride, &lo, &hi);
    fprintf(f, "%10lld %9.3f %9.3f %9.3f %9.3f %9.3f %9.3f %9.3f\n", s->len[msg], per_proc(s, rlo),
            per_proc(s, a->rings_msg[msg]), per_proc(s, rhi), per_proc(s, lo), per_proc(s, a->random_msg[msg]),
            per_proc(s, hi), per_proc(s, a->final_msg[msg]));
  }
}

/* gnuplot script: one PNG per block of the .plot file. */
static void write_gps(const beff_t *s, FILE *f) {
  const char *base = strrchr(s->prefix, '/');
  base = base ? base + 1 : s->prefix;
  fprintf(f, "# gnuplot script for the b_eff results: gnuplot %s.gps (run it where %s.plot is)\n", base, base);
  fprintf(f, "set terminal png size 900,640\nset logscale xy\nset key right bottom\nset grid\n");
  fprintf(f, "set xlabel 'message length per process [Byte]'\nset ylabel 'bandwidth per process [MB/s]'\n");
  if (s->yrange[0]) fprintf(f, "set yrange [%s]\n", s->yrange);
  fprintf(f, "\n");
  int extra[BEFF_PLOT_EXTRA], n_extra = beff_plot_extra_patterns(s->first_extra, s->pingpong_pat, s->n_pat, extra);
  int fig = 0;
  for (int m = 0; m <= BEFF_METHODS; m++) {
    const char *name = m < BEFF_METHODS ? beff_method_name[m] : "Best transfer method";
    fprintf(f, "set output '%s_fig%d.png'\nset title '%s, ring & random patterns'\nplot", base, fig, name);
    for (int p = 0; p < BEFF_RINGS; p++)
      fprintf(f, " '%s.plot' index %d using 1:%d title '%s' with linespoints,\\\n    ", base, 2 * m, p + 2,
              s->pat[s->first_ring + p].label);
    fprintf(f, " '%s.plot' index %d using 1:8 title 'worst random' with linespoints,\\\n", base, 2 * m);
    fprintf(f, "     '%s.plot' index %d using 1:9 title 'logavg random' with linespoints,\\\n", base, 2 * m);
    fprintf(f, "     '%s.plot' index %d using 1:10 title 'best random' with linespoints\n\n", base, 2 * m);
    fig++;
    fprintf(f, "set output '%s_fig%d.png'\nset title '%s, additional patterns'\nplot", base, fig, name);
    for (int k = 0; k < n_extra; k++)
      fprintf(f, "%s '%s.plot' index %d using 1:%d title '%s' with linespoints", k ? ",\\\n    " : "", base, 2 * m + 1,
              k + 2, s->pat[extra[k]].label);
    fprintf(f, "\n\n");
    fig++;
  }
  fprintf(f, "set output '%s_fig%d.png'\nset title 'Comparing the methods'\nplot", base, fig++);
  for (int k = 0; k < 2 * BEFF_METHODS; k++)
    fprintf(f, "%s '%s.plot' index 8 using 1:%d title '%s %s' with linespoints", k ? ",\\\n    " : "", base, k + 2,
            k < BEFF_METHODS ? "rings" : "random", beff_method_name[k % BEFF_METHODS]);
  fprintf(f, "\n\nset output '%s_fig%d.png'\nset title 'Ring and random patterns'\nplot", base, fig++);
  static const char *cols[7] = {"worst ring", "logavg rings", "best ring", "worst random", "logavg random",
                                "best random", "logavg(ring,random)"};
  for (int k = 0; k < 7; k++)
    fprintf(f, "%s '%s.plot' index 9 using 1:%d title '%s' with linespoints", k ? ",\\\n    " : "", base, k + 2, cols[k]);
  fprintf(f, "\n");
}

int beff_write_files(const beff_t *s, char *err, size_t errlen) {
  static const char *ext[5] = {"prot", "short", "sum", "plot", "gps"};
  void (*writer[5])(const beff_t *, FILE *) = {write_prot, write_short, write_sum, write_plot, write_gps};
  char path[1100];
  char line[2000];
  beff_final_line(s, line, sizeof(line));
  for (int i = 0; i < 5; i++) {
    snprintf(path, sizeof(path), "%s.%s", s->prefix, ext[i]);
    FILE *f = fopen(path, "w");
    if (!f) {
      snprintf(err, errlen, "cannot write '%s': %s; give a writable -out prefix", path, strerror(errno));
      return -1;
    }
    writer[i](s, f);
    if (i <= 2) fprintf(f, "%s\n", line);
    if (fclose(f) != 0) {
      snprintf(err, errlen, "cannot write '%s': %s", path, strerror(errno));
      return -1;
    }
  }
  return 0;
}

void beff_print_summary(const beff_t *s, FILE *f) {
  char lmax[32];
  fmt_lmax(s, lmax, sizeof(lmax));
  fprintf(f, "\nmeasurement loop: %.3f s; files %s.prot .short .sum .plot .gps\n\n", s->loop_elapsed_s, s->prefix);
  write_table(s, f);
  if (s->shortened) write_caution(s, f);
}

/* What the rows of b_eff's stream are, for the benchmark facts: every one a
 * transfer in which all processes send and receive, with a bandwidth. The
 * loops are b_eff's own (beff_main.c); nothing runs these rows. */
static const bench_desc beff_rows[] = {
  {.name = "b_eff", .cls = CLASS_PARALLEL, .flags = BF_DEFAULT, .time_scale = 1, .bw_scale = 1},
  {.name = "b_eff_length", .cls = CLASS_PARALLEL, .flags = BF_DEFAULT, .time_scale = 1, .bw_scale = 1},
  {.name = "b_eff_pattern", .cls = CLASS_PARALLEL, .flags = BF_DEFAULT, .time_scale = 1, .bw_scale = 1},
};
const suite_desc suite_beff = {.name = "b_eff", .title = "b_eff", .tool = 1, .benchmarks = beff_rows,
                               .n_benchmarks = (int)(sizeof(beff_rows) / sizeof(beff_rows[0]))};

/* JSON: one "b_eff" summary row, 21 "b_eff_length" rows (the official
 * values per length), and a "b_eff_pattern" row per pattern and length. */
void beff_write_json(const beff_t *s, tool_run_t *t) {
  const beff_analysis_t *a = s->an;
  const int last = BEFF_MSGLENGTHS - 1;
  jw_t *w = tool_run_begin(t, &suite_beff);
  if (!w) return;
  jw_obj_begin(w, "options");
  jw_int(w, "mem_mb_per_process", s->mem_mb);
  jw_str(w, "mem_source", s->mem_given ? "option" : "MemTotal");
  jw_int(w, "lmax_bytes", s->lmax);
  jw_str(w, "out", s->prefix);
  jw_str(w, "mode", s->tag[0] ? s->tag : "official");
  jw_int(w, "repetitions", s->reps);
  jw_int(w, "random_patterns", s->n_random);
  jw_num(w, "time_per_loop_s", s->time_per_loop);
  jw_num(w, "max_for_last_two_s", s->max_for_last_two);
  jw_bool(w, "noshortlasttwo", s->no_short_last_two);
  jw_int(w, "seed", (int64_t)s->seed);
  jw_obj_end(w);
  jw_arr_begin(w, "benchmarks");
  jw_str(w, NULL, "b_eff");
  jw_arr_end(w);
  jw_arr_begin(w, "message_lengths");
  for (int i = 0; i < BEFF_MSGLENGTHS; i++) jw_int(w, NULL, s->len[i]);
  jw_arr_end(w);
  jw_arr_begin(w, "patterns");
  for (int p = 0; p < s->n_pat; p++) {
    jw_obj_begin(w, NULL);
    jw_int(w, "index", p);
    jw_str(w, "label", s->pat[p].label);
    jw_str(w, "class", class_name(s->pat[p].klass));
    jw_int(w, "messages_per_loop", s->pat[p].all_msg);
    jw_int(w, "sendrecv_calls", s->pat[p].sr_max);
    jw_int(w, "participants", s->pat[p].participants);
    jw_obj_end(w);
  }
  jw_arr_end(w);
  tool_record_end(t);

  /* The summary row: b_eff itself. Times are the latencies (1-byte messages). */
  char line[2000];
  beff_final_line(s, line, sizeof(line));
  double lat = lat_usec(s, a->final_msg[0]);
  w = tool_result_begin(t, "b_eff", "b_eff", s->N, s->lmax, s->lmax, "MPI_BYTE", s->reps, lat, lat, lat,
                        a->b_eff / MB, s->defects);
  jw_str(w, "record", "summary");
  jw_str(w, "mode", s->tag[0] ? s->tag : "official");
  jw_num(w, "b_eff_mbytes_per_sec", a->b_eff / MB);
  jw_num(w, "b_eff_per_process_mbytes_per_sec", per_proc(s, a->b_eff));
  jw_num(w, "b_eff_rings_mbytes_per_sec", a->rings_msg[BEFF_AVG] / MB);
  jw_num(w, "b_eff_random_mbytes_per_sec", a->random_msg[BEFF_AVG] / MB);
  jw_int(w, "lmax_bytes", s->lmax);
  jw_int(w, "mem_mb_per_process", s->mem_mb);
  jw_num(w, "b_eff_at_lmax_mbytes_per_sec", a->final_msg[last] / MB);
  jw_num(w, "b_eff_at_lmax_per_process_mbytes_per_sec", per_proc(s, a->final_msg[last]));
  jw_num(w, "b_eff_at_lmax_rings_mbytes_per_sec", a->rings_msg[last] / MB);
  jw_num(w, "b_eff_at_lmax_rings_per_process_mbytes_per_sec", per_proc(s, a->rings_msg[last]));
  jw_num(w, "latency_usec", lat);
  jw_num(w, "latency_rings_usec", lat_usec(s, a->rings_msg[0]));
  jw_num(w, "pingpong_latency_usec", s->latency_pp_s * 1e6);
  jw_num(w, "pingpong_mbytes_per_sec", s->bw_pp / MB);
  jw_num(w, "measurement_loop_s", s->loop_elapsed_s);
  jw_bool(w, "last_two_shortened", s->shortened);
  jw_str(w, "uname", s->uname_line);
  jw_str(w, "summary_line", line);
  tool_record_end(t);

  /* Per length: the official path before averaging over L. */
  for (int msg = 0; msg < BEFF_MSGLENGTHS; msg++) {
    double b = a->final_msg[msg];
    double tl = b > 0 ? s->N * (double)s->len[msg] / b * 1e6 : NAN;   /* time per message per process */
    w = tool_result_begin(t, "b_eff_length", "b_eff", s->N, s->len[msg], s->len[msg], "MPI_BYTE", s->reps, tl, tl, tl,
                          b / MB, -1);
    jw_str(w, "record", "length");
    jw_int(w, "length_index", msg);
    jw_num(w, "per_process_mbytes_per_sec", per_proc(s, b));
    jw_num(w, "rings_mbytes_per_sec", a->rings_msg[msg] / MB);
    jw_num(w, "random_mbytes_per_sec", a->random_msg[msg] / MB);
    jw_obj_begin(w, "methods_mbytes_per_sec");
    for (int m = 0; m < BEFF_METHODS; m++) jw_num(w, beff_method_name[m], a->final_msg_mthd[msg][m] / MB);
    jw_obj_end(w);
    tool_record_end(t);
  }

  /* Per pattern and length: the maximum over methods and repetitions, with
   * the loop times (per iteration of the pattern) of the winning measurement. */
  for (int p = 0; p < s->n_pat; p++)
    for (int msg = 0; msg < BEFF_MSGLENGTHS; msg++) {
      int br = 0, bm = 0;
      double best = -1;
      for (int r = 0; r < s->reps; r++)
        for (int m = 0; m < BEFF_METHODS; m++) {
          double v = s->b[beff_cell(s, r, p, msg, m)];
          if (v > best) { best = v; br = r; bm = m; }
        }
      size_t c = beff_cell(s, br, p, msg, bm);
      int loops = s->loops[c] > 0 ? s->loops[c] : 1;
      w = tool_result_begin(t, "b_eff_pattern", "b_eff", s->N, s->len[msg], s->len[msg], "MPI_BYTE", loops,
                            s->t_min[c] / loops * 1e6, s->t_max[c] / loops * 1e6, s->t_avg[c] / loops * 1e6, best / MB,
                            -1);
      jw_str(w, "record", "pattern");
      jw_int(w, "pattern_index", p);
      jw_str(w, "pattern", s->pat[p].label);
      jw_str(w, "pattern_class", class_name(s->pat[p].klass));
      jw_int(w, "length_index", msg);
      jw_num(w, "per_process_mbytes_per_sec", per_proc(s, best));
      jw_str(w, "best_method", beff_method_name[bm]);
      jw_int(w, "best_repetition", br);
      jw_obj_begin(w, "methods_mbytes_per_sec");
      for (int m = 0; m < BEFF_METHODS; m++) {
        double v = 0;
        for (int r = 0; r < s->reps; r++)
          if (s->b[beff_cell(s, r, p, msg, m)] > v) v = s->b[beff_cell(s, r, p, msg, m)];
        if (s->pat[p].sendrecv_only && m != BEFF_SNDRCV) jw_null(w, beff_method_name[m]);
        else jw_num(w, beff_method_name[m], v / MB);
      }
      jw_obj_end(w);
      tool_record_end(t);
    }
}
