/* Siconos numerics 4.4 behind guards: every call runs under setjmp(*sn_get_jmp_buf()) so a
 * numerics_error returns here instead of aborting; only solver ids known to work on dense
 * storage are ever passed (an unknown id exits the process); SolverOptions are created per
 * call because Siconos never resizes their work arrays; the block description is always set
 * so that MLCP ENUM takes its silent path; every answer is checked against the caller's MLCP. */
#include "internal.h"

#include <siconos/numerics/LCP_Solvers.h>
#include <siconos/numerics/LinearComplementarityProblem.h>
#include <siconos/numerics/MLCP_Solvers.h>
#include <siconos/numerics/MixedLinearComplementarityProblem.h>
#include <siconos/numerics/NonSmoothDrivers.h>
#include <siconos/numerics/NumericsMatrix.h>
#include <siconos/numerics/NumericsVerbose.h>
#include <siconos/numerics/SolverOptions.h>
#include <siconos/numerics/lcp_cst.h>
#include <siconos/numerics/mlcp_cst.h>
#include <siconos/numerics/sn_error_handling.h>

#include <lapacke.h>
#include <math.h>
#include <setjmp.h>
#include <signal.h>
#include <stdlib.h>
#include <string.h>

/* The guarded calls live in their own small functions so that no local variable is modified
 * between setjmp and a possible longjmp (nothing to clobber). Return -1 after a longjmp. */
static int guarded_mlcp_driver(MixedLinearComplementarityProblem *p, double *z, double *w, SolverOptions *o,
                               int *info)
{
    if (setjmp(*sn_get_jmp_buf())) {
        sn_release_jmp_buf();
        return -1;
    }
    *info = mlcp_driver(p, z, w, o);
    sn_release_jmp_buf();
    return 0;
}

/* Lemke and LCP ENUM are called directly rather than through linearComplementarity_driver: the
 * driver's post-check divides the error by ||q|| and compares it with the tolerance, which
 * rejects valid answers when q is tiny (a resting stack: 1.15e-12 against 1e-12 at step 1791 of a
 * 50-bead column; Siconos' lcp_tobenna: 3.5e-12). Our per-row check (check.c) decides instead. */
/* Siconos' Lemke asserts where its ratio test finds no blocking row (lcp_lexicolemke.c:316,
 * "block <0": a ray it does not report), and Debian builds it with assertions on, so that
 * assert() ends the process. Fuzzing reached it (crash-bd5a...) through the second route of a
 * node QP (qp.c). The call runs with SIGABRT caught and taken back here by siglongjmp, as
 * Siconos' own fatal errors are by its jump buffer (a global too: one thread at a time). What
 * is lost: glibc's assertion line on stderr, printed before the signal, and what Siconos had
 * allocated for that call. */
static sigjmp_buf abort_jump;
static volatile sig_atomic_t abort_armed;

static void on_abort(int sig)
{
    (void)sig;
    if (abort_armed)
        siglongjmp(abort_jump, 1);
}

static int guarded_lcp_lemke(LinearComplementarityProblem *p, double *z, double *w, SolverOptions *o, int *info)
{
    struct sigaction catch_abort = {0}, previous;
    catch_abort.sa_handler = on_abort;
    sigemptyset(&catch_abort.sa_mask);
    if (sigaction(SIGABRT, &catch_abort, &previous) != 0)
        return -1;
    if (sigsetjmp(abort_jump, 1)) {
        abort_armed = 0;
        sigaction(SIGABRT, &previous, NULL);
        return -1;
    }
    if (setjmp(*sn_get_jmp_buf())) {
        sn_release_jmp_buf();
        abort_armed = 0;
        sigaction(SIGABRT, &previous, NULL);
        return -1;
    }
    abort_armed = 1;
    lcp_lexicolemke(p, z, w, info, o);
    abort_armed = 0;
    sn_release_jmp_buf();
    sigaction(SIGABRT, &previous, NULL);
    return 0;
}

static int entries_span_ok(int N, const double *M);
static int entries_span_ok_raw(int N, const double *M)
{
    return entries_span_ok(N, M);
}

static int guarded_lcp_enum(LinearComplementarityProblem *p, double *z, double *w, SolverOptions *o, int *info)
{
    if (setjmp(*sn_get_jmp_buf())) {
        sn_release_jmp_buf();
        return -1;
    }
    lcp_enum(p, z, w, info, o);
    sn_release_jmp_buf();
    return 0;
}

int lcp_siconos_lemke_raw(int N, const double *M, const double *q, double *z)
{
    double *Mc = malloc(sizeof(double) * (size_t)N * N), *qc = malloc(sizeof(double) * (size_t)N);
    double *w = malloc(sizeof(double) * (size_t)N);
    SolverOptions *o = solver_options_create(SICONOS_LCP_LEMKE);
    LinearComplementarityProblem lp;
    lp.size = N;
    lp.M = Mc ? NM_create_from_data(NM_DENSE, N, N, Mc) : NULL;
    lp.q = qc;
    int info = 1, aborted = 0;
    if (Mc && qc && w && o && lp.M && entries_span_ok_raw(N, M)) {
        memcpy(Mc, M, sizeof(double) * (size_t)N * N);
        memcpy(qc, q, sizeof(double) * (size_t)N);
        numerics_set_verbose(0);
        if (guarded_lcp_lemke(&lp, z, w, o, &info))
            info = 1, aborted = 1;
    }
    if (o) {
        solver_options_delete(o);
        free(o);
    }
    if (lp.M)
        NM_free_not_dense(lp.M);
    free(Mc);
    free(qc);
    free(w);
    return info == 0 ? 0 : aborted ? 3 : 2;
}

static const char *fatal_msg(void)
{
    const char *m = sn_fatal_error_msg();
    return m ? m : "(no message)";
}

static int is_pure_lcp(const nsdae_mlcp *p)
{
    for (int i = 0; p->kind && i < p->size; i++)
        if (p->kind[i] != NSDAE_ROW_COMPLEMENTARITY)
            return 0;
    return 1;
}

/* Accept a returned point only if it solves the caller's problem, as returned or once re-solved
 * on its own pattern (lcp_accept_or_polish). Why the repair: a pivoting solver returns its
 * nonbasic variables as exact zeros, and the check gives a component exactly at its end no
 * rounding allowance (check.c), so a row whose only term is a rounding residue fails as a
 * violation of size one. The bead column (N = 100, step 1542): row 6 of a contact LCP, m = 33,
 * has q6 = -8.4e-16 and every z_j entering it at 0; Lemke leaves z6 = 0 nonbasic, w6 = q6 < 0.
 * lcp_active_side reads that row as w6 = 0 with z6 free (z6 >= 0 and w6 < 0 break w6's law, not
 * z6's), and the pattern's solve gives z6 = -q6 / M66 = 4.2e-16, w6 = 0: the exact solution. */
static nsdae_status check_answer(const nsdae_mlcp *p, const char *solver, double *z, double *w, nsdae_error *err)
{
    lcp_caller_w(p, z, w);
    double viol = lcp_caller_violation(p, z, w);
    if (!(viol <= NSDAE_TOL_RESIDUAL) && lcp_accept_or_polish(p, NULL, z, w)) {
        lcp_caller_w(p, z, w);
        viol = lcp_caller_violation(p, z, w);
    }
    if (!(viol <= NSDAE_TOL_RESIDUAL))
        return nsdae_error_set(err, NSDAE_NO_SOLUTION,
                               "siconos %s: returned point violates the MLCP by %.3g (relative)", solver, viol);
    return NSDAE_OK;
}

static nsdae_status solve_mlcp_enum(const nsdae_mlcp *p, double *z, double *w, lcp_arena *ar, nsdae_error *err)
{
    lcp_std s;
    nsdae_status st = lcp_std_build(p, ar, &s, err);
    if (st)
        return st;
    int nx = s.nx;
    double *x = lcp_arena_doubles(ar, (size_t)nx + 1), *wx = lcp_arena_doubles(ar, (size_t)nx + 1);
    if (!x || !wx)
        return nsdae_error_set(err, NSDAE_NOMEM, "siconos enum: out of memory");
    if (nx == 0) {   /* every caller row was a fixed box */
        lcp_std_to_caller(&s, x, z);
        return check_answer(p, "enum", z, w, err);
    }
    int rows[3], comp[2];
    if (s.n > 0 && s.m > 0) {
        rows[0] = 0, rows[1] = s.n, rows[2] = nx;
        comp[0] = 0, comp[1] = 1;
    } else {
        rows[0] = 0, rows[1] = nx;
        comp[0] = s.m > 0;
    }
    MixedLinearComplementarityProblem mp;
    memset(&mp, 0, sizeof mp);
    mp.isStorageType1 = 1;
    mp.n = s.n;
    mp.m = s.m;
    mp.blocksRows = rows;
    mp.blocksIsComp = comp;
    mp.M = NM_create_from_data(NM_DENSE, nx, nx, s.A);
    mp.q = s.c;
    SolverOptions *o = solver_options_create(SICONOS_MLCP_ENUM);
    if (!mp.M || !o) {
        if (o) {
            solver_options_delete(o);
            free(o);
        }
        if (mp.M)
            NM_free_not_dense(mp.M);
        return nsdae_error_set(err, NSDAE_NOMEM, "siconos enum: out of memory");
    }
    numerics_set_verbose(0);
    int info = 1;
    int g = guarded_mlcp_driver(&mp, x, wx, o, &info);
    solver_options_delete(o);
    free(o);
    NM_free_not_dense(mp.M);
    if (g)
        return nsdae_error_set(err, NSDAE_NUMERICAL, "siconos enum: numerics error: %s", fatal_msg());
    if (info != 0)
        return nsdae_error_set(err, NSDAE_NO_SOLUTION, "siconos enum: no solution found (info %d)", info);
    lcp_std_to_caller(&s, x, z);
    return check_answer(p, "enum", z, w, err);
}

/* Siconos' pivoting divides by entries of M and compares ratios with fixed constants (Lemke
 * ignores ratios above 1e20 and asserts when one equals it: lcp_lexicolemke.c:316, an abort of
 * the process seen with M = diag(-6, 3e-312)). So Siconos only sees matrices whose nonzero
 * entries span at most 2^200: the caller's first, and when that is refused or fails, the
 * equilibrated one (scale.c: rows, columns and q of size one; powers of two, exact). Not the
 * equilibrated one always: Siconos Lemke fails on the equilibrated lcp_tobenna of its own test
 * data (info 1 after 64 ms) and solves the original in 0.3 ms. */
static int entries_span_ok(int N, const double *M)
{
    double lo = INFINITY, hi = 0;
    for (size_t i = 0; i < (size_t)N * N; i++)
        if (M[i] != 0) {
            lo = fmin(lo, fabs(M[i]));
            hi = fmax(hi, fabs(M[i]));
        }
    return hi == 0 || hi <= 0x1p200 * lo;
}

static nsdae_status lcp_attempt(const nsdae_mlcp *p, const char *name, int id, int scaled, double *z, double *w,
                                lcp_arena *ar, nsdae_error *err)
{
    int N = p->size;
    double *M = lcp_arena_doubles(ar, (size_t)N * N), *q = lcp_arena_doubles(ar, (size_t)N);
    double *dr = lcp_arena_doubles(ar, (size_t)N), *dc = lcp_arena_doubles(ar, (size_t)N), alpha = 1;
    if (ar->failed)
        return nsdae_error_set(err, NSDAE_NOMEM, "siconos %s: out of memory", name);
    for (int i = 0; i < N; i++)
        dr[i] = dc[i] = 1;
    if (scaled)
        lcp_scale_factors(N, p->M, dr, dc);
    lcp_scale_matrix(N, p->M, dr, dc, M);
    if (scaled)
        alpha = lcp_scale_rhs(p, dr, dc, q, NULL, NULL);
    else
        memcpy(q, p->q, sizeof(double) * (size_t)N);
    if (!entries_span_ok(N, M))
        return nsdae_error_set(err, NSDAE_NUMERICAL, "siconos %s: the entries of M span more than 2^200%s", name,
                               scaled ? " after equilibration" : "");
    LinearComplementarityProblem lp;
    lp.size = N;
    lp.M = NM_create_from_data(NM_DENSE, N, N, M);
    lp.q = q;
    SolverOptions *o = solver_options_create(id);
    if (!lp.M || !o) {
        if (o) {
            solver_options_delete(o);
            free(o);
        }
        if (lp.M)
            NM_free_not_dense(lp.M);
        return nsdae_error_set(err, NSDAE_NOMEM, "siconos %s: out of memory", name);
    }
    /* ENUM's tolerance is its sign test; Lemke's is unused without the driver's post-check */
    o->dparam[SICONOS_DPARAM_TOL] = NSDAE_TOL_SIGN;
    numerics_set_verbose(0);
    int info = 1;
    int g = id == SICONOS_LCP_LEMKE ? guarded_lcp_lemke(&lp, z, w, o, &info) : guarded_lcp_enum(&lp, z, w, o, &info);
    solver_options_delete(o);
    free(o);
    NM_free_not_dense(lp.M);
    if (g)
        return nsdae_error_set(err, NSDAE_NUMERICAL, "siconos %s: numerics error: %s", name, fatal_msg());
    if (info != 0)
        return nsdae_error_set(err, NSDAE_NO_SOLUTION, "siconos %s: no solution found (info %d)", name, info);
    lcp_scale_z_to_caller(N, dc, alpha, z, z);
    return check_answer(p, name, z, w, err);
}

static nsdae_status solve_lcp(const nsdae_mlcp *p, const char *name, int id, double *z, double *w, lcp_arena *ar,
                              nsdae_error *err)
{
    if (!is_pure_lcp(p))
        return nsdae_error_set(err, NSDAE_INVALID_INPUT,
                               "siconos %s: only pure LCPs (every row a complementarity row) are accepted", name);
    nsdae_status st = lcp_attempt(p, name, id, 0, z, w, ar, err);
    if (st == NSDAE_NO_SOLUTION || st == NSDAE_NUMERICAL)
        st = lcp_attempt(p, name, id, 1, z, w, ar, err);
    return st;
}

nsdae_status nsdae_lcp_solve_siconos(const nsdae_mlcp *p, const char *solver, double *z, double *w,
                                     nsdae_error *err)
{
    nsdae_status st = nsdae_mlcp_validate(p, err);
    if (st)
        return st;
    if (!solver)
        return nsdae_error_set(err, NSDAE_INVALID_INPUT, "siconos: solver name is NULL");
    if (!z || !w)
        return nsdae_error_set(err, NSDAE_INVALID_INPUT, "siconos: z or w is NULL");
    lcp_arena ar = {0};
    if (!strcmp(solver, "enum"))
        st = solve_mlcp_enum(p, z, w, &ar, err);
    else if (!strcmp(solver, "lemke"))
        st = solve_lcp(p, "lemke", SICONOS_LCP_LEMKE, z, w, &ar, err);
    else if (!strcmp(solver, "lcp-enum"))
        st = solve_lcp(p, "lcp-enum", SICONOS_LCP_ENUM, z, w, &ar, err);
    else
        st = nsdae_error_set(err, NSDAE_INVALID_INPUT,
                             "siconos: unknown solver \"%s\" (known: enum, lemke, lcp-enum)", solver);
    lcp_arena_free(&ar);
    return st;
}

/* ---- all basic solutions: Schur complement + lcp_enum with SEED restarts ---------------- */

typedef struct restart_ctx {
    const nsdae_mlcp *p;
    lcp_std s;
    double *Auu_lu;   /* LU of the equality block, for u = -A^{-1}(C v + a) */
    int *ipiv;
    lcp_piece_list list;
    lcp_arena *ar;
    double *dr, *dc;  /* equilibration of the caller's M: the residual check is scale invariant */
} restart_ctx;

static int add_point(restart_ctx *c, const double *v)
{
    lcp_std *s = &c->s;
    int n = s->n, nx = s->nx, N = c->p->size;
    double *x = lcp_arena_doubles(c->ar, (size_t)nx + 1), *z = lcp_arena_doubles(c->ar, (size_t)N);
    double *w = lcp_arena_doubles(c->ar, (size_t)N);
    if (!x || !z || !w)
        return -1;
    memcpy(x + n, v, sizeof(double) * (size_t)s->m);
    for (int i = 0; i < n; i++) {
        double r = -s->c[i];
        for (int j = 0; j < s->m; j++)
            r -= s->A[i + (size_t)(n + j) * nx] * v[j];
        x[i] = r;
    }
    if (n > 0 && LAPACKE_dgetrs(LAPACK_COL_MAJOR, 'N', n, 1, c->Auu_lu, n, c->ipiv, x, nx) != 0)
        return -1;
    lcp_std_to_caller(s, x, z);
    lcp_caller_w(c->p, z, w);
    if (!(lcp_scaled_violation(c->p, c->dr, c->dc, z, w) <= NSDAE_TOL_RESIDUAL))
        return 0;   /* lcp_enum has no residual check: a near-singular pattern can return junk */
    for (int i = 0; i < c->list.n; i++) {
        double d = 0, sc = 0;
        for (int j = 0; j < N; j++) {
            d = fmax(d, fabs(c->list.v[i].z[j] - z[j]));
            sc = fmax(sc, fabs(z[j]));
        }
        if (d <= NSDAE_TOL_SAME_SOLUTION * (1 + sc))
            return 0;
    }
    lcp_piece pc = {0};
    pc.z = z;
    return lcp_piece_list_push(&c->list, &pc);
}

nsdae_status nsdae_lcp_enumerate_siconos_restart(const nsdae_mlcp *p, nsdae_lcp_solution_set **out,
                                                 nsdae_error *err)
{
    if (!out)
        return nsdae_error_set(err, NSDAE_INVALID_INPUT, "siconos restart: out is NULL");
    *out = NULL;
    nsdae_status st = nsdae_mlcp_validate(p, err);
    if (st)
        return st;
    lcp_arena ar = {0};
    restart_ctx c = {0};
    c.p = p;
    c.ar = &ar;
    long visited = 0;
    LinearComplementarityProblem *lp = NULL;
    SolverOptions *o = NULL;
    c.dr = lcp_arena_doubles(&ar, 2 * (size_t)p->size);
    if (!c.dr) {
        st = nsdae_error_set(err, NSDAE_NOMEM, "siconos restart: out of memory");
        goto done;
    }
    c.dc = c.dr + p->size;
    lcp_scale_factors(p->size, p->M, c.dr, c.dc);
    if ((st = lcp_std_build(p, &ar, &c.s, err)))
        goto done;
    int n = c.s.n, m = c.s.m, nx = c.s.nx;
    if (m > NSDAE_LCP_ENUM_MAX_M) {
        st = nsdae_error_set(err, NSDAE_LIMIT, "siconos restart: %d complementarity rows exceed the limit %d", m,
                             NSDAE_LCP_ENUM_MAX_M);
        goto done;
    }
    /* The Schur complement needs an invertible equality block; check it here, where a
     * singular one is a status, rather than inside Siconos. */
    double *Auu = lcp_arena_doubles(&ar, (size_t)n * n + 1), *tmp = lcp_arena_doubles(&ar, (size_t)n + 1);
    c.Auu_lu = lcp_arena_doubles(&ar, (size_t)n * n + 1);
    c.ipiv = lcp_arena_alloc(&ar, sizeof(int) * ((size_t)n + 1));
    double *v = lcp_arena_doubles(&ar, (size_t)m + 1), *wv = lcp_arena_doubles(&ar, (size_t)m + 1);
    if (ar.failed) {
        st = nsdae_error_set(err, NSDAE_NOMEM, "siconos restart: out of memory");
        goto done;
    }
    for (int j = 0; j < n; j++)
        for (int i = 0; i < n; i++)
            Auu[i + (size_t)j * n] = c.s.A[i + (size_t)j * nx];
    if (n > 0 && lcp_solve_square(n, Auu, c.s.c, tmp, c.Auu_lu, c.ipiv) != 0) {
        st = nsdae_error_set(err, NSDAE_NUMERICAL,
                             "siconos restart: the %d x %d equality block is singular or ill conditioned", n, n);
        goto done;
    }
    if (m == 0) {
        if (add_point(&c, v) < 0)
            st = nsdae_error_set(err, NSDAE_NOMEM, "siconos restart: out of memory");
        visited = 1;
        goto build;
    }
    /* Schur complement by hand: M_lcp = B - D A^{-1} C, q_lcp = b - D A^{-1} a. Siconos
     * mlcp_to_lcp is not used: with (M,q) storage it mis-indexes C and D when n != m (notes
     * 4.3), and even on ABCD storage filled by hand it leaks three NumericsMatrix temporaries
     * and a work array per call (seen under LeakSanitizer). */
    {
        lp = newLCP();
        double *M = malloc(sizeof(double) * (size_t)m * m), *q = malloc(sizeof(double) * (size_t)m);
        double *AinvC = lcp_arena_doubles(&ar, (size_t)n * (m + 1) + 1);
        if (!lp || !M || !q || !AinvC) {
            free(M);
            free(q);
            st = nsdae_error_set(err, NSDAE_NOMEM, "siconos restart: out of memory");
            goto done;
        }
        lp->size = m;
        lp->M = NM_create_from_data(NM_DENSE, m, m, M);   /* lp owns M and q from here */
        lp->q = q;
        /* columns 0..m-1: A^{-1} C; column m: A^{-1} a */
        for (int j = 0; j <= m; j++)
            for (int i = 0; i < n; i++)
                AinvC[i + (size_t)j * n] = j < m ? c.s.A[i + (size_t)(n + j) * nx] : c.s.c[i];
        if (n > 0 && LAPACKE_dgetrs(LAPACK_COL_MAJOR, 'N', n, m + 1, c.Auu_lu, n, c.ipiv, AinvC, n) != 0) {
            st = nsdae_error_set(err, NSDAE_NUMERICAL, "siconos restart: back substitution failed");
            goto done;
        }
        for (int i = 0; i < m; i++) {
            for (int j = 0; j <= m; j++) {
                double val = j < m ? c.s.A[n + i + (size_t)(n + j) * nx] : c.s.c[n + i];
                for (int l = 0; l < n; l++)
                    val -= c.s.A[n + i + (size_t)l * nx] * AinvC[l + (size_t)j * n];
                if (j < m)
                    M[i + (size_t)j * m] = val;
                else
                    q[i] = val;
            }
        }
    }
    o = solver_options_create(SICONOS_LCP_ENUM);
    if (!o) {
        st = nsdae_error_set(err, NSDAE_NOMEM, "siconos restart: out of memory");
        goto done;
    }
    o->dparam[SICONOS_DPARAM_TOL] = NSDAE_TOL_SIGN;
    unsigned long long npat = 1ULL << m, seed = 0;
    while (seed < npat) {
        int info = 1;
        o->iparam[SICONOS_LCP_IPARAM_ENUM_SEED] = (int)seed;
        if (guarded_lcp_enum(lp, v, wv, o, &info)) {
            st = nsdae_error_set(err, NSDAE_NUMERICAL, "siconos restart: lcp_enum failed: %s", fatal_msg());
            goto done;
        }
        if (info != 0)
            break;
        unsigned long long found = (unsigned long long)o->iparam[SICONOS_LCP_IPARAM_ENUM_CURRENT_ENUM];
        if (found < seed)   /* wrapped past 2^m: every pattern has been seen */
            break;
        visited = (long)found + 1;
        if (add_point(&c, v) < 0) {
            st = nsdae_error_set(err, NSDAE_NOMEM, "siconos restart: out of memory");
            goto done;
        }
        seed = found + 1;
    }
    if (visited < (long)npat)
        visited = (long)npat;
build:
    if (!st)
        st = lcp_set_from_pieces(p->size, &c.list, visited, out, err);
done:
    if (o) {
        solver_options_delete(o);
        free(o);
    }
    if (lp)
        freeLinearComplementarityProblem(lp);
    lcp_piece_list_free(&c.list);
    lcp_arena_free(&ar);
    return st;
}
