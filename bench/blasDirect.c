/*
 * The yardstick for the native backend: the same OpenBLAS calls bench/linalg.ts times through
 * the addon (dpotrf L; dtrsm L,L,N,N with n right-hand sides; dsyrk L,T), made directly from C
 * on the same matrices, timed the same way (fresh input copied in before each call, outside
 * the timer).
 *
 * Usage: blasDirect N THREADS, then one operation name per line on stdin (potrf, trsm or
 * syrk); each is run once and its time in seconds printed on a line of its own. The benchmark
 * alternates single calls here with single calls through the addon, so that load from other
 * processes on a shared machine falls on both alike.
 * Built by scripts/runBench.mjs: cc -O2 bench/blasDirect.c -o bench/blasDirect -lopenblas -lm
 */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

void dpotrf_(const char* uplo, const int* n, double* a, const int* lda, int* info, size_t);
void dtrsm_(const char* side, const char* uplo, const char* transa, const char* diag, const int* m,
            const int* n, const double* alpha, const double* a, const int* lda, double* b, const int* ldb,
            size_t, size_t, size_t, size_t);
void dsyrk_(const char* uplo, const char* trans, const int* n, const int* k, const double* alpha,
            const double* a, const int* lda, const double* beta, double* c, const int* ldc, size_t, size_t);
void openblas_set_num_threads(int);

static double now(void) {
  struct timespec t;
  clock_gettime(CLOCK_MONOTONIC, &t);
  return t.tv_sec + 1e-9 * t.tv_nsec;
}

enum { POTRF, TRSM, SYRK };

static int n;
static double *spd, *lower, *rhs, *x, *work, *work2;

/* Fresh input for an in-place operation (outside the timer). */
static void prepare(int op) {
  if (op == POTRF) memcpy(work, spd, sizeof(double) * n * n);
  if (op == TRSM) memcpy(work, rhs, sizeof(double) * n * n);
}

static void compute(int op) {
  const int ld = n;
  const double one = 1.0, zero = 0.0;
  int info = 0;
  switch (op) {
    case POTRF:
      dpotrf_("L", &n, work, &ld, &info, 1);
      if (info != 0) {
        fprintf(stderr, "blasDirect: dpotrf failed (info %d)\n", info);
        exit(1);
      }
      break;
    case TRSM:
      dtrsm_("L", "L", "N", "N", &n, &n, &one, lower, &ld, work, &ld, 1, 1, 1, 1);
      break;
    case SYRK:
      dsyrk_("L", "T", &n, &n, &one, x, &ld, &zero, work2, &ld, 1, 1);
      break;
  }
}

int main(int argc, char** argv) {
  if (argc != 3) {
    fprintf(stderr, "usage: blasDirect N THREADS  (then potrf, trsm or syrk, one per line, on stdin)\n");
    return 2;
  }
  n = atoi(argv[1]);
  int threads = atoi(argv[2]);
  openblas_set_num_threads(threads);
  size_t nn = (size_t)n * n;
  spd = malloc(sizeof(double) * nn);
  lower = malloc(sizeof(double) * nn);
  rhs = malloc(sizeof(double) * nn);
  x = malloc(sizeof(double) * nn);
  work = malloc(sizeof(double) * nn);
  work2 = malloc(sizeof(double) * nn);
  /* Same matrices as bench/linalg.ts: a squared-exponential kernel plus 0.1 I (SPD), its factor,
     and deterministic "random" entries in [-0.5, 0.5). */
  unsigned s = 12345;
  for (int j = 0; j < n; j++) {
    for (int i = 0; i < n; i++) {
      double d = (i - j) / (0.1 * n);
      spd[i + j * n] = exp(-0.5 * d * d) + (i == j ? 0.1 : 0);
      s = s * 1664525u + 1013904223u;
      rhs[i + j * n] = s / 4294967296.0 - 0.5;
      s = s * 1664525u + 1013904223u;
      x[i + j * n] = s / 4294967296.0 - 0.5;
    }
  }
  memcpy(lower, spd, sizeof(double) * nn);
  int info = 0;
  dpotrf_("L", &n, lower, &n, &info, 1);
  for (int j = 0; j < n; j++)
    for (int i = 0; i < j; i++) lower[i + j * n] = 0;
  char line[64];
  while (fgets(line, sizeof line, stdin)) {
    int op = strncmp(line, "potrf", 5) == 0 ? POTRF : strncmp(line, "trsm", 4) == 0 ? TRSM
           : strncmp(line, "syrk", 4) == 0 ? SYRK : -1;
    if (op < 0) {
      fprintf(stderr, "blasDirect: unknown operation %s", line);
      return 2;
    }
    prepare(op);
    double t0 = now();
    compute(op);
    printf("%.9f\n", now() - t0);
    fflush(stdout);
  }
  return 0;
}
