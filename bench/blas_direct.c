/*
 * The yardstick for the native backend: the same OpenBLAS calls bench/linalg.ts times through
 * the addon (dpotrf L; dtrsm L,L,N,N with n right-hand sides; dsyrk L,T), made directly from C,
 * timed the same way (fresh input copied in before each repetition, outside the timer; one
 * untimed warm-up call; at least 3 repetitions, more until `budget` seconds are spent, unless
 * one call alone exceeds it; the fastest and the median repetition reported).
 *
 * Usage: blas_direct N THREADS BUDGET_SECONDS
 * Prints one line per operation: "<op> <fastest seconds> <median seconds> <repetitions>".
 * Built by scripts/run-bench.mjs: cc -O2 bench/blas_direct.c -o bench/blas_direct -lopenblas
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

static int cmp(const void* a, const void* b) {
  double x = *(const double*)a, y = *(const double*)b;
  return x < y ? -1 : x > y;
}

#define MAX_REPS 200
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
        fprintf(stderr, "blas_direct: dpotrf failed (info %d)\n", info);
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

static void time_op(const char* name, int op, double budget) {
  double times[MAX_REPS];
  int reps = 0;
  double spent = 0;
  prepare(op); /* warm-up */
  compute(op);
  while (reps < MAX_REPS && (reps < 3 || spent < budget)) {
    prepare(op);
    double t0 = now();
    compute(op);
    double t = now() - t0;
    times[reps++] = t;
    spent += t;
    if (reps == 1 && t > budget) break;
  }
  qsort(times, reps, sizeof(double), cmp);
  double median = reps % 2 ? times[reps / 2] : 0.5 * (times[reps / 2 - 1] + times[reps / 2]);
  printf("%s %.9f %.9f %d\n", name, times[0], median, reps);
}

int main(int argc, char** argv) {
  if (argc != 4) {
    fprintf(stderr, "usage: blas_direct N THREADS BUDGET_SECONDS\n");
    return 2;
  }
  n = atoi(argv[1]);
  int threads = atoi(argv[2]);
  double budget = atof(argv[3]);
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
  time_op("potrf", POTRF, budget);
  time_op("trsm", TRSM, budget);
  time_op("syrk", SYRK, budget);
  return 0;
}
