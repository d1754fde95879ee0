// N-API addon: the native linear-algebra backend, a thin layer over OpenBLAS (BLAS and LAPACK).
//
// Every routine works in place on the caller's Float64Arrays (typed-array views with a byte
// offset included: N-API hands us the pointer to the view's first element) and makes exactly
// one BLAS/LAPACK call, but for three element-wise kernels BLAS lacks (scaleRows,
// rowSumsOfSquares, logisticWeightRoots), written out here in the order of the js backend's loops,
// and crossWeightedSquares (two dgemv with an element-wise step between them in one call), so
// that both give the same bits (no FMA contraction: binding.gyp builds with
// -ffp-contract=off; and logisticWeightRoots' exp is fdlibm's, which is V8's Math.exp). Arguments are checked before the call, cheaply (O(1)): BLAS trusts its
// caller, so an array that is too short for the stated shape would be read or written out of
// bounds; here it is a DimensionError instead. The checks and their messages mirror
// src/linalg/checks.ts, so both backends fail the same way.
//
// The BLAS/LAPACK symbols are declared here rather than taken from cblas.h/lapacke.h: only
// libopenblas itself is then needed at build time, whatever headers the distribution ships.

#include <napi.h>

#include <climits>
#include <cmath>
#include <cstdint>
#include <cstring>
#include <string>

extern "C" {
// Fortran calling convention: everything by pointer; the trailing size_t are the hidden
// character-length arguments gfortran passes (OpenBLAS ignores them; declaring them keeps the
// calls correct against a gfortran-built reference LAPACK too).
void dpotrf_(const char* uplo, const int* n, double* a, const int* lda, int* info, size_t);
void dtrtri_(const char* uplo, const char* diag, const int* n, double* a, const int* lda, int* info, size_t, size_t);
void dtrsm_(const char* side, const char* uplo, const char* transa, const char* diag, const int* m,
            const int* n, const double* alpha, const double* a, const int* lda, double* b, const int* ldb,
            size_t, size_t, size_t, size_t);
void dtrsv_(const char* uplo, const char* trans, const char* diag, const int* n, const double* a,
            const int* lda, double* x, const int* incx, size_t, size_t, size_t);
void dsyrk_(const char* uplo, const char* trans, const int* n, const int* k, const double* alpha,
            const double* a, const int* lda, const double* beta, double* c, const int* ldc, size_t, size_t);
void dgemm_(const char* transa, const char* transb, const int* m, const int* n, const int* k,
            const double* alpha, const double* a, const int* lda, const double* b, const int* ldb,
            const double* beta, double* c, const int* ldc, size_t, size_t);
void dgemv_(const char* trans, const int* m, const int* n, const double* alpha, const double* a,
            const int* lda, const double* x, const int* incx, const double* beta, double* y,
            const int* incy, size_t);
void dsymv_(const char* uplo, const int* n, const double* alpha, const double* a, const int* lda,
            const double* x, const int* incx, const double* beta, double* y, const int* incy, size_t);

void openblas_set_num_threads(int);
int openblas_get_num_threads(void);
int openblas_get_num_procs(void);
char* openblas_get_config(void);
char* openblas_get_corename(void);
}

namespace {

// The DimensionError class of the TypeScript side, handed to createBackend(), so that size
// errors have the same type on both backends. One per Node environment (main thread, each
// worker), hence instance data.
struct AddonData {
  Napi::FunctionReference dimensionError;
};

// The boundary between JS and this addon. Everything here reports failure by throwing a C++
// exception (NAPI_CPP_EXCEPTIONS: node-addon-api throws Napi::Error too, when a Node-API call
// fails), and every entry point (the functions of createBackend's object, and the module's
// init) catches all of them in Guard, which is noexcept, and turns them into a JS exception.
//
// Why not node-addon-api's own boundary (Napi::Function::New, NODE_API_MODULE): it rethrows
// as a C++ exception when napi_throw itself fails, and that exception then unwinds into V8's
// frames: std::terminate, "terminate called after throwing an instance of 'Napi::Error'",
// the whole process aborted. napi_throw fails when the environment can no longer run JS: a
// worker thread being terminated (Worker.terminate(), which gpmcmc's pool calls while tasks
// are running, or process exit) while it is inside one of our calls. From the moment the
// main thread asks a worker to stop, every Node-API call there that could run JS (napi_throw,
// napi_set_named_property, napi_new_instance, ...) returns napi_pending_exception, so any of
// our calls can then fail: createBackend's b.Set, describe's d.Set, a DimensionError's
// construction. The exception cannot be thrown and nothing is left to catch it (the thread's
// JS is being stopped), so Guard drops it and returns.
//
// binding.gyp also defines NODE_API_SWALLOW_UNTHROWABLE_EXCEPTIONS. Without it, building the
// Napi::Error is itself a fatal error ("FATAL ERROR: Error::Error napi_define_properties")
// when the pending exception it wraps is V8's termination (a DimensionError constructor
// stopped half-way): node-addon-api wraps that non-object value in a new object, and setting
// the property fails like any other JS-running call in a terminating environment.
void ThrowHere(napi_env env, const Napi::Error& e) noexcept {
  try {
    napi_value v = e.Value();
    // napi_throw fails only if the environment is shutting down (or an exception is already
    // pending, which then propagates): nothing to do in either case.
    if (v != nullptr) napi_throw(env, v);
  } catch (...) {
    // e.Value() failed: the environment is shutting down
  }
}

template <typename Body>
napi_value Guard(napi_env env, Body&& body) noexcept {
  try {
    return body();
  } catch (const Napi::Error& e) {
    ThrowHere(env, e);
  } catch (...) {
    // std::bad_alloc from building a message, say: a plain Error where it can be thrown
    napi_value message = nullptr;
    napi_value error = nullptr;
    static const char kWhat[] = "gpmcmc native: unexpected C++ exception";
    if (napi_create_string_utf8(env, kWhat, sizeof kWhat - 1, &message) == napi_ok &&
        napi_create_error(env, nullptr, message, &error) == napi_ok) {
      napi_throw(env, error);
    }
  }
  return nullptr;
}

using Method = Napi::Value (*)(const Napi::CallbackInfo&);

template <Method F>
napi_value Entry(napi_env env, napi_callback_info cbinfo) noexcept {
  return Guard(env, [&]() -> napi_value {
    Napi::CallbackInfo info(env, cbinfo);
    return F(info);
  });
}

// target[name] = a JS function calling F through Entry.
template <Method F>
void SetMethod(Napi::Env env, Napi::Object target, const char* name) {
  napi_value fn;
  napi_status status = napi_create_function(env, name, NAPI_AUTO_LENGTH, Entry<F>, nullptr, &fn);
  NAPI_THROW_IF_FAILED_VOID(env, status);
  target.Set(name, Napi::Value(env, fn));
}

// Reads and checks the arguments of one call. Any failure throws a JS exception (as a C++
// exception that Guard turns into a JS one at the boundary).
class Args {
 public:
  Args(const Napi::CallbackInfo& info, const char* routine, size_t count)
      : info_(info), env_(info.Env()), routine_(routine) {
    if (info.Length() != count) {
      throw Napi::TypeError::New(env_, std::string(routine_) + ": expected " + std::to_string(count) +
                                           " arguments, got " + std::to_string(info.Length()));
    }
  }

  // A one-letter option such as uplo = "L" | "U".
  char Flag(size_t i, const char* name, const char* allowed) {
    napi_value v = info_[i];
    char buf[4] = {0};
    size_t len = 0;
    napi_valuetype t;
    napi_typeof(env_, v, &t);
    if (t == napi_string) napi_get_value_string_utf8(env_, v, buf, sizeof buf, &len);
    if (t != napi_string || len != 1 || std::string(allowed).find(buf[0]) == std::string::npos) {
      std::string opts;
      for (const char* p = allowed; *p; ++p) opts += std::string(opts.empty() ? "" : " or ") + "\"" + *p + "\"";
      throw Napi::TypeError::New(env_, std::string(routine_) + ": " + name + " must be " + opts);
    }
    return buf[0];
  }

  // A dimension: an integer in [0, INT_MAX] (BLAS integers are 32-bit here).
  int Dim(size_t i, const char* name) {
    double d = Number(i, name);
    if (!(d >= 0 && d <= INT_MAX && std::floor(d) == d)) {
      DimensionFail(std::string(name) + " must be an integer between 0 and " + std::to_string(INT_MAX) +
                    ", got " + Napi::Value(env_, info_[i]).ToString().Utf8Value());
    }
    return static_cast<int>(d);
  }

  // A leading dimension: an integer >= max(1, rows), as BLAS requires.
  int Ld(size_t i, const char* name, int rows) {
    double d = Number(i, name);
    double lo = rows > 1 ? rows : 1;
    if (!(d >= lo && d <= INT_MAX && std::floor(d) == d)) {
      DimensionFail(std::string(name) + " must be an integer >= " + std::to_string(static_cast<int>(lo)) +
                    ", got " + Napi::Value(env_, info_[i]).ToString().Utf8Value());
    }
    return static_cast<int>(d);
  }

  double Number(size_t i, const char* name) {
    napi_value v = info_[i];
    double d;
    if (napi_get_value_double(env_, v, &d) != napi_ok) {
      throw Napi::TypeError::New(env_, std::string(routine_) + ": " + name + " must be a number");
    }
    return d;
  }

  // A rows x cols column-major matrix with leading dimension ld: needs ld*(cols-1)+rows entries.
  double* Matrix(size_t i, const char* name, int rows, int cols, int ld) {
    size_t length;
    double* p = Float64(i, name, &length);
    int64_t need = (rows == 0 || cols == 0) ? 0 : static_cast<int64_t>(ld) * (cols - 1) + rows;
    if (static_cast<int64_t>(length) < need) {
      DimensionFail(std::string(name) + " has " + std::to_string(length) + " entries, needs at least " +
                    std::to_string(need) + " (" + std::to_string(rows) + " x " + std::to_string(cols) +
                    " with leading dimension " + std::to_string(ld) + ")");
    }
    return p;
  }

  // A vector of n entries, unit stride.
  double* Vector(size_t i, const char* name, int n) {
    size_t length;
    double* p = Float64(i, name, &length);
    if (static_cast<int64_t>(length) < n) {
      DimensionFail(std::string(name) + " has " + std::to_string(length) + " entries, needs at least " +
                    std::to_string(n));
    }
    return p;
  }

 private:
  double* Float64(size_t i, const char* name, size_t* length) {
    napi_value v = info_[i];
    bool is = false;
    napi_is_typedarray(env_, v, &is);
    napi_typedarray_type type;
    void* data = nullptr;
    if (is) napi_get_typedarray_info(env_, v, &type, length, &data, nullptr, nullptr);
    if (!is || type != napi_float64_array) {
      throw Napi::TypeError::New(env_, std::string(routine_) + ": " + name + " must be a Float64Array");
    }
    return static_cast<double*>(data);
  }

  [[noreturn]] void DimensionFail(const std::string& what) {
    std::string msg = std::string(routine_) + ": " + what;
    AddonData* d = env_.GetInstanceData<AddonData>();
    if (d != nullptr && !d->dimensionError.IsEmpty()) {
      throw Napi::Error(env_, d->dimensionError.New({Napi::String::New(env_, msg)}));
    }
    throw Napi::RangeError::New(env_, msg);
  }

  const Napi::CallbackInfo& info_;
  Napi::Env env_;
  const char* routine_;
};

const int kOne = 1;

// potrf(uplo, n, a, lda) -> info (0, or the 1-based failing pivot).
Napi::Value Potrf(const Napi::CallbackInfo& info) {
  Args args(info, "potrf", 4);
  char uplo = args.Flag(0, "uplo", "LU");
  int n = args.Dim(1, "n");
  int lda = args.Ld(3, "lda", n);
  double* a = args.Matrix(2, "a", n, n, lda);
  int result = 0;
  if (n > 0) dpotrf_(&uplo, &n, a, &lda, &result, 1);
  return Napi::Number::New(info.Env(), result);
}

// trtri(uplo, diag, n, a, lda) -> info (0, or the 1-based index of a zero diagonal entry).
Napi::Value Trtri(const Napi::CallbackInfo& info) {
  Args args(info, "trtri", 5);
  char uplo = args.Flag(0, "uplo", "LU");
  char diag = args.Flag(1, "diag", "NU");
  int n = args.Dim(2, "n");
  int lda = args.Ld(4, "lda", n);
  double* a = args.Matrix(3, "a", n, n, lda);
  int result = 0;
  if (n > 0) dtrtri_(&uplo, &diag, &n, a, &lda, &result, 1, 1);
  return Napi::Number::New(info.Env(), result);
}

// trsm(side, uplo, transA, diag, m, n, alpha, a, lda, b, ldb)
Napi::Value Trsm(const Napi::CallbackInfo& info) {
  Args args(info, "trsm", 11);
  char side = args.Flag(0, "side", "LR");
  char uplo = args.Flag(1, "uplo", "LU");
  char trans = args.Flag(2, "transA", "NT");
  char diag = args.Flag(3, "diag", "NU");
  int m = args.Dim(4, "m");
  int n = args.Dim(5, "n");
  double alpha = args.Number(6, "alpha");
  int k = side == 'L' ? m : n;
  int lda = args.Ld(8, "lda", k);
  int ldb = args.Ld(10, "ldb", m);
  double* a = args.Matrix(7, "a", k, k, lda);
  double* b = args.Matrix(9, "b", m, n, ldb);
  if (m > 0 && n > 0) dtrsm_(&side, &uplo, &trans, &diag, &m, &n, &alpha, a, &lda, b, &ldb, 1, 1, 1, 1);
  return info.Env().Undefined();
}

// trsv(uplo, trans, diag, n, a, lda, x)
Napi::Value Trsv(const Napi::CallbackInfo& info) {
  Args args(info, "trsv", 7);
  char uplo = args.Flag(0, "uplo", "LU");
  char trans = args.Flag(1, "trans", "NT");
  char diag = args.Flag(2, "diag", "NU");
  int n = args.Dim(3, "n");
  int lda = args.Ld(5, "lda", n);
  double* a = args.Matrix(4, "a", n, n, lda);
  double* x = args.Vector(6, "x", n);
  if (n > 0) dtrsv_(&uplo, &trans, &diag, &n, a, &lda, x, &kOne, 1, 1, 1);
  return info.Env().Undefined();
}

// syrk(uplo, trans, n, k, alpha, a, lda, beta, c, ldc)
Napi::Value Syrk(const Napi::CallbackInfo& info) {
  Args args(info, "syrk", 10);
  char uplo = args.Flag(0, "uplo", "LU");
  char trans = args.Flag(1, "trans", "NT");
  int n = args.Dim(2, "n");
  int k = args.Dim(3, "k");
  double alpha = args.Number(4, "alpha");
  double beta = args.Number(7, "beta");
  int rows = trans == 'N' ? n : k;
  int cols = trans == 'N' ? k : n;
  int lda = args.Ld(6, "lda", rows);
  int ldc = args.Ld(9, "ldc", n);
  double* a = args.Matrix(5, "a", rows, cols, lda);
  double* c = args.Matrix(8, "c", n, n, ldc);
  if (n > 0) dsyrk_(&uplo, &trans, &n, &k, &alpha, a, &lda, &beta, c, &ldc, 1, 1);
  return info.Env().Undefined();
}

// gemm(transA, transB, m, n, k, alpha, a, lda, b, ldb, beta, c, ldc)
Napi::Value Gemm(const Napi::CallbackInfo& info) {
  Args args(info, "gemm", 13);
  char ta = args.Flag(0, "transA", "NT");
  char tb = args.Flag(1, "transB", "NT");
  int m = args.Dim(2, "m");
  int n = args.Dim(3, "n");
  int k = args.Dim(4, "k");
  double alpha = args.Number(5, "alpha");
  double beta = args.Number(10, "beta");
  int arows = ta == 'N' ? m : k, acols = ta == 'N' ? k : m;
  int brows = tb == 'N' ? k : n, bcols = tb == 'N' ? n : k;
  int lda = args.Ld(7, "lda", arows);
  int ldb = args.Ld(9, "ldb", brows);
  int ldc = args.Ld(12, "ldc", m);
  double* a = args.Matrix(6, "a", arows, acols, lda);
  double* b = args.Matrix(8, "b", brows, bcols, ldb);
  double* c = args.Matrix(11, "c", m, n, ldc);
  if (m > 0 && n > 0) dgemm_(&ta, &tb, &m, &n, &k, &alpha, a, &lda, b, &ldb, &beta, c, &ldc, 1, 1);
  return info.Env().Undefined();
}

// gemv(trans, m, n, alpha, a, lda, x, beta, y)
Napi::Value Gemv(const Napi::CallbackInfo& info) {
  Args args(info, "gemv", 9);
  char trans = args.Flag(0, "trans", "NT");
  int m = args.Dim(1, "m");
  int n = args.Dim(2, "n");
  double alpha = args.Number(3, "alpha");
  double beta = args.Number(7, "beta");
  int lda = args.Ld(5, "lda", m);
  double* a = args.Matrix(4, "a", m, n, lda);
  double* x = args.Vector(6, "x", trans == 'N' ? n : m);
  double* y = args.Vector(8, "y", trans == 'N' ? m : n);
  if (m > 0 && n > 0) {
    dgemv_(&trans, &m, &n, &alpha, a, &lda, x, &kOne, &beta, y, &kOne, 1);
  } else {
    // BLAS returns at once for an empty A, leaving y untouched; the definition
    // y <- alpha op(A) x + beta y still scales y by beta, and the js backend does so.
    int len = trans == 'N' ? m : n;
    for (int i = 0; i < len; i++) y[i] = beta == 0 ? 0 : beta * y[i];
  }
  return info.Env().Undefined();
}

// symv(uplo, n, alpha, a, lda, x, beta, y)
Napi::Value Symv(const Napi::CallbackInfo& info) {
  Args args(info, "symv", 8);
  char uplo = args.Flag(0, "uplo", "LU");
  int n = args.Dim(1, "n");
  double alpha = args.Number(2, "alpha");
  double beta = args.Number(6, "beta");
  int lda = args.Ld(4, "lda", n);
  double* a = args.Matrix(3, "a", n, n, lda);
  double* x = args.Vector(5, "x", n);
  double* y = args.Vector(7, "y", n);
  if (n > 0) dsymv_(&uplo, &n, &alpha, a, &lda, x, &kOne, &beta, y, &kOne, 1);
  return info.Env().Undefined();
}

// exp(x) by the algorithm of fdlibm's e_exp.c, the one V8's Math.exp runs, operation for
// operation, so that the two agree bit for bit (test/linalg/elementwise.test.ts compares them):
// x = k ln2 + r with |r| <= ln2 / 2 (ln2 split into a head whose products with k are exact and a
// tail), exp(r) = 1 + 2r / (2 - R(r)) with R's minimax polynomial in r^2, then 2^k.
//
// fdlibm: Copyright (C) 1993 by Sun Microsystems, Inc. All rights reserved. Developed at
// SunSoft, a Sun Microsystems, Inc. business. Permission to use, copy, modify, and distribute
// this software is freely granted, provided that this notice is preserved.
inline uint32_t HighWord(double x) {
  uint64_t b;
  std::memcpy(&b, &x, 8);
  return static_cast<uint32_t>(b >> 32);
}

inline uint32_t LowWord(double x) {
  uint64_t b;
  std::memcpy(&b, &x, 8);
  return static_cast<uint32_t>(b);
}

inline double FromHighWord(uint32_t high) {
  uint64_t b = static_cast<uint64_t>(high) << 32;
  double x;
  std::memcpy(&x, &b, 8);
  return x;
}

double FdlibmExp(double x) {
  static const double kHalf[2] = {0.5, -0.5};
  static const double kLn2Hi[2] = {6.93147180369123816490e-01, -6.93147180369123816490e-01};
  static const double kLn2Lo[2] = {1.90821492927058770002e-10, -1.90821492927058770002e-10};
  const double kHuge = 1.0e+300;
  const double kTwoM1000 = 9.33263618503218878990e-302;
  const double kTwo1023 = 8.988465674311579539e307;
  const double kOverflow = 7.09782712893383973096e+02;
  const double kUnderflow = -7.45133219101941108420e+02;
  const double kInvLn2 = 1.44269504088896338700e+00;
  const double kP1 = 1.66666666666666019037e-01;
  const double kP2 = -2.77777777770155933842e-03;
  const double kP3 = 6.61375632143793436117e-05;
  const double kP4 = -1.65339022054652515390e-06;
  const double kP5 = 4.13813679705723846039e-08;
  uint32_t hx = HighWord(x);
  int sign = static_cast<int>((hx >> 31) & 1);
  hx &= 0x7fffffff;
  double hi = 0, lo = 0;
  int k = 0;
  if (hx >= 0x40862E42) {  // |x| >= 709.78...
    if (hx >= 0x7ff00000) {
      if (((hx & 0xfffff) | LowWord(x)) != 0) return x + x;  // NaN
      return sign == 0 ? x : 0.0;                              // exp(+-inf)
    }
    if (x > kOverflow) return kHuge * kHuge;
    if (x < kUnderflow) return kTwoM1000 * kTwoM1000;
  }
  if (hx > 0x3fd62e42) {    // |x| > ln2 / 2
    if (hx < 0x3FF0A2B2) {  // and |x| < 3 ln2 / 2
      hi = x - kLn2Hi[sign];
      lo = kLn2Lo[sign];
      k = 1 - sign - sign;
    } else {
      k = static_cast<int>(kInvLn2 * x + kHalf[sign]);
      double t = k;
      hi = x - t * kLn2Hi[0];
      lo = t * kLn2Lo[0];
    }
    x = hi - lo;
  } else if (hx < 0x3e300000) {  // |x| < 2^-28
    if (kHuge + x > 1.0) return 1.0 + x;
  } else {
    k = 0;
  }
  double t = x * x;
  double twopk = k >= -1021 ? FromHighWord(static_cast<uint32_t>(0x3ff00000 + k * (1 << 20)))
                            : FromHighWord(static_cast<uint32_t>(0x3ff00000 + (k + 1000) * (1 << 20)));
  double c = x - t * (kP1 + t * (kP2 + t * (kP3 + t * (kP4 + t * kP5))));
  if (k == 0) return 1.0 - ((x * c) / (c - 2.0) - x);
  double y = 1.0 - ((lo - (x * c) / (2.0 - c)) - hi);
  if (k >= -1021) {
    if (k == 1024) return y * 2.0 * kTwo1023;
    return y * twopk;
  }
  return y * twopk * kTwoM1000;
}

// scaleRows(m, n, w, a, lda, b, ldb): B <- diag(w) A, A and B m x n (B may be A).
Napi::Value ScaleRows(const Napi::CallbackInfo& info) {
  Args args(info, "scaleRows", 7);
  int m = args.Dim(0, "m");
  int n = args.Dim(1, "n");
  double* w = args.Vector(2, "w", m);
  int lda = args.Ld(4, "lda", m);
  double* a = args.Matrix(3, "a", m, n, lda);
  int ldb = args.Ld(6, "ldb", m);
  double* b = args.Matrix(5, "b", m, n, ldb);
  for (int j = 0; j < n; j++) {
    const double* aj = a + static_cast<size_t>(j) * lda;
    double* bj = b + static_cast<size_t>(j) * ldb;
    for (int i = 0; i < m; i++) bj[i] = aj[i] * w[i];
  }
  return info.Env().Undefined();
}

// rowSumsOfSquares(m, n, a, lda, out): out_i <- sum_j a_ij^2, j = 0..n-1 in that order.
Napi::Value RowSumsOfSquares(const Napi::CallbackInfo& info) {
  Args args(info, "rowSumsOfSquares", 5);
  int m = args.Dim(0, "m");
  int n = args.Dim(1, "n");
  int lda = args.Ld(3, "lda", m);
  double* a = args.Matrix(2, "a", m, n, lda);
  double* out = args.Vector(4, "out", m);
  for (int i = 0; i < m; i++) out[i] = 0;
  for (int j = 0; j < n; j++) {
    const double* aj = a + static_cast<size_t>(j) * lda;
    for (int i = 0; i < m; i++) out[i] += aj[i] * aj[i];
  }
  return info.Env().Undefined();
}

// logisticWeightRoots(n, e, out): out_i <- sqrt(s_i (1 - s_i)) for s_i = 1 / (1 + exp(-e_i)),
// computed as sqrt(z w w) with z = exp(-|e_i|) and w = 1 / (1 + z).
Napi::Value LogisticWeightRoots(const Napi::CallbackInfo& info) {
  Args args(info, "logisticWeightRoots", 3);
  int n = args.Dim(0, "n");
  double* e = args.Vector(1, "e", n);
  double* out = args.Vector(2, "out", n);
  for (int i = 0; i < n; i++) {
    double z = FdlibmExp(-std::fabs(e[i]));
    double w = 1.0 / (1.0 + z);
    out[i] = std::sqrt(z * w * w);
  }
  return info.Env().Undefined();
}

// crossWeightedSquares(m, n, a, lda, v, w, u, out): u <- A v, u_i <- w_i u_i u_i, out <- A' u
// (A m x n): the two dgemv of gemv() with the step between them, in one call.
Napi::Value CrossWeightedSquares(const Napi::CallbackInfo& info) {
  Args args(info, "crossWeightedSquares", 8);
  int m = args.Dim(0, "m");
  int n = args.Dim(1, "n");
  int lda = args.Ld(3, "lda", m);
  double* a = args.Matrix(2, "a", m, n, lda);
  double* v = args.Vector(4, "v", n);
  double* w = args.Vector(5, "w", m);
  double* u = args.Vector(6, "u", m);
  double* out = args.Vector(7, "out", n);
  const double one = 1.0;
  const double zero = 0.0;
  const char no = 'N';
  const char tr = 'T';
  // BLAS returns at once for an empty A, leaving its output untouched: zero it as gemv() does
  bool empty = m == 0 || n == 0;
  if (empty) {
    for (int i = 0; i < m; i++) u[i] = 0;
  } else {
    dgemv_(&no, &m, &n, &one, a, &lda, v, &kOne, &zero, u, &kOne, 1);
  }
  for (int i = 0; i < m; i++) u[i] = w[i] * u[i] * u[i];
  if (empty) {
    for (int j = 0; j < n; j++) out[j] = 0;
    return info.Env().Undefined();
  }
  dgemv_(&tr, &m, &n, &one, a, &lda, u, &kOne, &zero, out, &kOne, 1);
  return info.Env().Undefined();
}

Napi::Value GetThreads(const Napi::CallbackInfo& info) {
  return Napi::Number::New(info.Env(), openblas_get_num_threads());
}

// The thread count is process-wide in OpenBLAS: it applies to every caller, workers included.
Napi::Value SetThreads(const Napi::CallbackInfo& info) {
  Napi::Env env = info.Env();
  double d = info.Length() == 1 && info[0].IsNumber() ? info[0].As<Napi::Number>().DoubleValue() : NAN;
  if (!(d >= 1 && d <= 1024 && std::floor(d) == d)) {
    throw Napi::RangeError::New(env, "setThreads: the thread count must be an integer between 1 and 1024");
  }
  openblas_set_num_threads(static_cast<int>(d));
  return env.Undefined();
}

Napi::Value Describe(const Napi::CallbackInfo& info) {
  Napi::Env env = info.Env();
  Napi::Object d = Napi::Object::New(env);
  std::string config = openblas_get_config();
  // The config string starts "OpenBLAS 0.3.21 ...": the library and its version.
  size_t sp = config.find(' ', config.find(' ') + 1);
  d.Set("backend", "native");
  d.Set("library", config.substr(0, sp));
  d.Set("core", openblas_get_corename());
  d.Set("threads", openblas_get_num_threads());
  d.Set("cores", openblas_get_num_procs());
  d.Set("config", config);
  return d;
}

// createBackend(DimensionError) -> an object implementing LinalgBackend (src/linalg/types.ts).
Napi::Value CreateBackend(const Napi::CallbackInfo& info) {
  Napi::Env env = info.Env();
  AddonData* data = env.GetInstanceData<AddonData>();
  if (data == nullptr) {
    data = new AddonData();
    env.SetInstanceData(data);
  }
  if (info.Length() >= 1 && info[0].IsFunction()) {
    data->dimensionError = Napi::Persistent(info[0].As<Napi::Function>());
  }
  Napi::Object b = Napi::Object::New(env);
  b.Set("name", "native");
  SetMethod<Potrf>(env, b, "potrf");
  SetMethod<Trtri>(env, b, "trtri");
  SetMethod<Trsm>(env, b, "trsm");
  SetMethod<Trsv>(env, b, "trsv");
  SetMethod<Syrk>(env, b, "syrk");
  SetMethod<Gemm>(env, b, "gemm");
  SetMethod<Gemv>(env, b, "gemv");
  SetMethod<Symv>(env, b, "symv");
  SetMethod<ScaleRows>(env, b, "scaleRows");
  SetMethod<RowSumsOfSquares>(env, b, "rowSumsOfSquares");
  SetMethod<CrossWeightedSquares>(env, b, "crossWeightedSquares");
  SetMethod<LogisticWeightRoots>(env, b, "logisticWeightRoots");
  SetMethod<GetThreads>(env, b, "getThreads");
  SetMethod<SetThreads>(env, b, "setThreads");
  SetMethod<Describe>(env, b, "describe");
  b.Freeze();
  return b;
}

// The module's init, behind Guard too: a worker can be terminated while it loads the addon.
napi_value Init(napi_env env, napi_value exports) noexcept {
  return Guard(env, [&]() -> napi_value {
    Napi::Object e(env, exports);
    SetMethod<CreateBackend>(env, e, "createBackend");
    return e;
  });
}

}  // namespace

NAPI_MODULE(NODE_GYP_MODULE_NAME, Init)
