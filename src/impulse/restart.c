/* The numeric restart (Benveniste et al. 2026, sections 3.3, 5.3, 6: nonsingularity is only generic, a
 * nonlinear restart system's root only locally unique): Newton on Procedure 1's restart system from the
 * left limits (LU solves, LAPACKE dgesv). The Jacobian's singular values (dgesvd) at the final iterate
 * give its rank and condition number: structurally regular but numerically singular (F.2) is diagnosed as
 * D7 rather than solved by a least-squares guess. The brute-force array is solved the same way with e as
 * one more leaf. */
#include <lapacke.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <nsdae/tolerances.h>

#include "impulse/impulse_internal.h"

enum { MAX_NEWTON = 100 };

typedef struct work {
    double *env;    /* (max_order + 1) x nleaf values, order-major as nsdae_eval_env wants */
    double *F, *J, *A, *s, *superb, *x;
    lapack_int *piv;
    int bad_eq, bad_unk; /* the first non-finite F[bad_eq] (bad_unk = -1) or J entry, or bad_eq = -1 */
    double bad_value;
    int converged;       /* Newton's last step was below its tolerance */
} work;

static void eval_system(const nsdae_impulse_system *sy, const nsdae_eval_env *env, double *F, double *J)
{
    int n = sy->n;
    for (int i = 0; i < n; i++) {
        F[i] = nsdae_expr_eval(sy->eq[i], env);
        for (int u = 0; u < n; u++) J[i + u * n] = nsdae_expr_eval(sy->jac[i * n + u], env); /* column-major */
    }
}

/* LAPACK must never see a NaN or an Inf: dgesvd scales an Inf matrix into NaNs and its scaling
 * routine then reports an illegal argument (by printing, from a library) before giving a meaningless
 * rank. 1 when F and J are finite; otherwise the first bad entry goes to w->bad_*, for the message. */
static int system_finite(int n, const double *F, const double *J, work *w)
{
    for (int i = 0; i < n; i++) {
        w->bad_eq = i, w->bad_unk = -1, w->bad_value = F[i];
        if (!isfinite(F[i])) return 0;
        for (int u = 0; u < n; u++) {
            w->bad_unk = u, w->bad_value = J[i + u * n];
            if (!isfinite(J[i + u * n])) return 0;
        }
    }
    w->bad_eq = w->bad_unk = -1;
    return 1;
}

/* Rank and condition number of J by singular values. */
static void svd_check(int n, const double *J, work *w, nsdae_impulse_numeric *num)
{
    memcpy(w->A, J, (size_t)n * n * sizeof *J);
    num->n = n;
    if (n == 0) {
        num->rank = 0, num->cond = 1, num->singular = 0;
        return;
    }
    lapack_int info = LAPACKE_dgesvd(LAPACK_COL_MAJOR, 'N', 'N', n, n, w->A, n, w->s, NULL, 1, NULL, 1, w->superb);
    if (info != 0 || !isfinite(w->s[0])) {
        num->rank = 0, num->cond = INFINITY, num->singular = 1;
        return;
    }
    int rank = 0;
    for (int i = 0; i < n; i++) rank += w->s[i] > NSDAE_TOL_RANK * w->s[0];
    num->rank = rank;
    num->singular = rank < n;
    num->cond = w->s[n - 1] > 0 ? w->s[0] / w->s[n - 1] : INFINITY;
}

/* Newton iterations; the rank decision (D7) is taken at the last iterate only, because an
 * intermediate iterate of a nonlinear system may be badly scaled without the solution being so. */
static int newton(const nsdae_impulse_system *sy, nsdae_eval_env *env, work *w, nsdae_impulse_numeric *num)
{
    int n = sy->n, converged = 0;
    for (int it = 0; it <= MAX_NEWTON && !converged; it++) {
        for (int u = 0; u < n; u++) w->env[IMP_LEAF_SYS(sy, sy->unk[u])] = w->x[u];
        eval_system(sy, env, w->F, w->J);
        num->iterations = it;
        if (!system_finite(n, w->F, w->J, w)) break;
        memcpy(w->A, w->J, (size_t)n * n * sizeof *w->J);
        for (int i = 0; i < n; i++) w->F[i] = -w->F[i];
        if (LAPACKE_dgesv(LAPACK_COL_MAJOR, n, 1, w->A, n, w->piv, w->F, n) != 0) break;
        double dmax = 0, xmax = 0;
        int finite = 1;
        for (int u = 0; u < n; u++) finite &= isfinite(w->F[u]);
        if (!finite) break;
        for (int u = 0; u < n; u++) {
            w->x[u] += w->F[u];
            dmax = fabs(w->F[u]) > dmax ? fabs(w->F[u]) : dmax;
            xmax = fabs(w->x[u]) > xmax ? fabs(w->x[u]) : xmax;
        }
        converged = dmax <= 1e-14 * (1 + xmax);
    }
    w->converged = converged;
    /* residual and singular values at the final point */
    for (int u = 0; u < n; u++) w->env[IMP_LEAF_SYS(sy, sy->unk[u])] = w->x[u];
    eval_system(sy, env, w->F, w->J);
    num->residual = 0;
    for (int i = 0; i < n; i++) num->residual = fabs(w->F[i]) > num->residual ? fabs(w->F[i]) : num->residual;
    if (!system_finite(n, w->F, w->J, w)) {
        num->residual = INFINITY, num->n = n, num->rank = 0, num->cond = NAN;
        return 0;
    }
    svd_check(n, w->J, w, num);
    return converged && !num->singular && isfinite(num->residual);
}

static void work_free(work *w)
{
    free(w->env);
    free(w->F);
    free(w->J);
    free(w->A);
    free(w->s);
    free(w->superb);
    free(w->x);
    free(w->piv);
}

/* A continuous state's value: the left limit, or for the brute force the previous mode's Taylor
 * polynomial at t* + K eps. */
static double continuous_value(const nsdae_impulse_system *sy, const double *left, int max_order, double eps,
                               const nsdae_impulse_state *s)
{
    double v = left[s->order * sy->nvars + s->var];
    if (sy->eps_var < 0) return v;
    double pw = 1, fact = 1;
    for (int i = 1; s->order + i <= sy->prev_d[s->var] - 1 && s->order + i <= max_order; i++) {
        pw *= sy->K * eps;
        fact *= i;
        v += pw / fact * left[(s->order + i) * sy->nvars + s->var];
    }
    return v;
}

/* Digest 1.4 Step D [IMPL] item 3: the analysis removed its facts (the guard's root fact, equations the
 * previous mode entailed) as holding at the left limits; a restart from left limits that violate one
 * answers a question the model never asks (the previous mode does not reach this change there), so it
 * is refused, naming the fact. The scale s = max(1, |time|, |left|) makes the test relative for the
 * quadratic facts of mechanics (L^2 - (x^2 + y^2): |g| <= tol s^2). fact_residual: the largest. */
static nsdae_status check_facts(const nsdae_impulse_system *sy, const nsdae_eval_env *env, const double *left,
                                int max_order, double time, nsdae_impulse_numeric *num, nsdae_error *err)
{
    double scale = fmax(1, fabs(time)), worst = 0;
    for (int i = 0; i < (max_order + 1) * sy->nvars; i++) scale = fmax(scale, fabs(left[i]));
    int bad = -1;
    num->fact_residual = sy->guard ? fabs(nsdae_expr_eval(sy->guard, env)) : NAN;
    for (int f = 0; f < sy->nfacts; f++) {
        double r = fabs(nsdae_expr_eval(sy->fact[f], env));
        if (!(r <= worst)) worst = r, bad = f; /* NaN counts as the worst */
    }
    if (bad >= 0) num->fact_residual = isnan(num->fact_residual) ? worst : fmax(worst, num->fact_residual);
    double tol = NSDAE_TOL_FACT * scale * scale;
    if (bad < 0 || worst <= tol) return NSDAE_OK;
    num->fact_violated = 1;
    return nsdae_error_set(err, NSDAE_INVALID_INPUT, "impulse: the left limits violate the fact %s that the analysis "
                           "assumed (it holds where the previous mode reaches this mode change): residual %.6g "
                           "> %.3g; give a left-limit state on the guard and consistent with the previous mode",
                           sy->fact_name[bad], worst, tol);
}

/* The restart system is not finite where Newton stopped (system_finite): names the equation (A_*'s
 * printed form for Procedure 1's system), the unknown and the value. */
static nsdae_status nonfinite_error(const nsdae_impulse_result *r, const nsdae_impulse_system *sy, const work *w,
                                    int iteration, nsdae_error *err)
{
    int printed = sy == r->system && w->bad_eq < r->nrestart_equations;
    char what[256];
    if (w->bad_unk < 0) snprintf(what, sizeof what, "its residual is %g", w->bad_value);
    else if (sy->unk[w->bad_unk] < r->navars)
        snprintf(what, sizeof what, "its derivative by %s is %g", r->avars[sy->unk[w->bad_unk]].name, w->bad_value);
    else snprintf(what, sizeof what, "its derivative by unknown %d is %g", w->bad_unk + 1, w->bad_value);
    return nsdae_error_set(err, NSDAE_NUMERICAL, "impulse: equation %d%s%s of the %s system is not finite at Newton "
                           "iterate %d: %s; the left limits put it outside its domain or overflow it",
                           w->bad_eq + 1, printed ? ", " : "", printed ? r->restart_equations[w->bad_eq] : "",
                           sy->eps_var >= 0 ? "brute-force" : "restart", iteration, what);
}

static nsdae_status solve(const nsdae_impulse_result *r, const nsdae_impulse_system *sy, const double *left,
                          int max_order, double eps, double time, double *state_plus, double *aux,
                          nsdae_impulse_numeric *num, nsdae_error *err)
{
    int n = sy->n, nl = sy->nleaf;
    size_t m = (size_t)(n ? n : 1);
    work w = {calloc((size_t)(max_order + 1) * (size_t)nl, sizeof(double)), malloc(m * sizeof(double)),
              malloc(m * m * sizeof(double)), malloc(m * m * sizeof(double)), malloc(m * sizeof(double)),
              malloc(m * sizeof(double)), malloc(m * sizeof(double)), malloc(m * sizeof(lapack_int)), -1, -1, 0, 0};
    double *x0 = malloc(m * sizeof(double));
    if (!w.env || !w.F || !w.J || !w.A || !w.s || !w.superb || !w.x || !w.piv || !x0) {
        work_free(&w);
        free(x0);
        return nsdae_error_set(err, NSDAE_NOMEM, "impulse: out of memory for the numeric restart");
    }
    /* 1. left limits into the model leaves; unknowns start at the left limits (restart values) or 0 */
    for (int o = 0; o <= max_order; o++)
        for (int j = 0; j < sy->nvars; j++) w.env[(size_t)o * nl + j] = left[o * sy->nvars + j];
    if (sy->eps_var >= 0) w.env[sy->eps_var] = eps;
    for (int u = 0; u < n; u++)
        w.x[u] = !sy->unk_head[u] && sy->unk_order[u] <= max_order ? left[sy->unk_order[u] * sy->nvars + sy->unk_var[u]] : 0;
    memcpy(x0, w.x, m * sizeof(double));
    nsdae_eval_env env = {sy->params, sy->nparams, w.env, nl, max_order, time}; /* every block is at t* */
    nsdae_status fst = check_facts(sy, &env, left, max_order, time, num, err);
    if (fst != NSDAE_OK) {
        for (int k = 0; k < r->nstates && state_plus; k++) state_plus[k] = NAN;
        for (int a = 0; a < r->navars && aux; a++) aux[a] = NAN;
        work_free(&w);
        free(x0);
        return fst;
    }
    /* 2. Newton with the rank check at every iterate */
    int ok = newton(sy, &env, &w, num);
    num->nonlinear = sy->nonlinear;
    for (int u = 0; u < n; u++) num->step = fmax(num->step, fabs(w.x[u] - x0[u]));
    free(x0);
    nsdae_status st = NSDAE_OK;
    if (w.bad_eq >= 0) st = nonfinite_error(r, sy, &w, num->iterations, err);
    else if (num->singular && sy->nonlinear && !w.converged) /* a runaway iterate, not a D7 solution */
        st = nsdae_error_set(err, NSDAE_NUMERICAL, "impulse: Newton on the nonlinear restart system did not "
                             "converge: after %d iterations it is %g from the left limits, where its Jacobian is "
                             "singular (rank %d of %d, condition %g); the restart system may have no finite "
                             "solution from these left limits", num->iterations, num->step, num->rank, n, num->cond);
    else if (num->singular)
        st = nsdae_error_set(err, NSDAE_NUMERICAL, "impulse: D7: the restart system is structurally regular but "
                             "numerically singular (rank %d of %d, condition %g): the state basis is unsuitable "
                             "for the structural method", num->rank, n, num->cond);
    else if (!ok)
        st = nsdae_error_set(err, NSDAE_NUMERICAL, "impulse: Newton on the restart system did not converge in %d "
                             "iterations (residual %g)", MAX_NEWTON, num->residual);
    /* 3. restart values of the states, rescaled auxiliaries */
    for (int k = 0; k < r->nstates && state_plus; k++) {
        const nsdae_impulse_state *s = &r->states[k];
        double v = NAN;
        if (s->continuous && s->order <= max_order) v = continuous_value(sy, left, max_order, eps, s);
        else if (st == NSDAE_OK)
            for (int u = 0; u < n; u++)
                if (sy->unk[u] == r->states[k].tail_var) v = w.x[u];
        state_plus[k] = v;
    }
    if (aux) {
        for (int a = 0; a < r->navars; a++) aux[a] = NAN;
        for (int u = 0; u < n && st == NSDAE_OK; u++) {
            if (!sy->unk_head[u]) continue;
            aux[sy->unk[u]] = w.x[u];
            if (sy->eps_var >= 0 && sy->unk_mu[u] > 0) aux[sy->unk[u]] *= pow(eps, sy->unk_mu[u]);
        }
    }
    work_free(&w);
    return st;
}

static nsdae_status check_call(const nsdae_impulse_result *r, const nsdae_impulse_system *sy, const double *left,
                               int max_order, nsdae_impulse_numeric *num, nsdae_error *err)
{
    memset(num, 0, sizeof *num);
    if (!r || !sy)
        return nsdae_error_set(err, NSDAE_INVALID_INPUT, "impulse: no %s system (verdict %s)",
                               r && sy == r->brute ? "brute-force" : "restart",
                               r ? nsdae_impulse_verdict_name(r->verdict) : "none");
    if (!left || max_order < 0) return nsdae_error_set(err, NSDAE_INVALID_INPUT, "impulse: no left limits given");
    return NSDAE_OK;
}

nsdae_status nsdae_impulse_restart_at(const nsdae_impulse_result *r, const double *left, int max_order, double time,
                                      double *state_plus, double *aux, nsdae_impulse_numeric *num, nsdae_error *err)
{
    nsdae_impulse_numeric dummy;
    if (!num) num = &dummy;
    nsdae_status st = check_call(r, r ? r->system : NULL, left, max_order, num, err);
    return st != NSDAE_OK ? st : solve(r, r->system, left, max_order, 0.0, time, state_plus, aux, num, err);
}

nsdae_status nsdae_impulse_restart(const nsdae_impulse_result *r, const double *left, int max_order,
                                   double *state_plus, double *aux, nsdae_impulse_numeric *num, nsdae_error *err)
{
    return nsdae_impulse_restart_at(r, left, max_order, 0.0, state_plus, aux, num, err);
}

nsdae_status nsdae_impulse_brute_force(const nsdae_impulse_result *r, const double *left, int max_order, double eps,
                                       double *state_plus, double *aux, nsdae_impulse_numeric *num,
                                       nsdae_error *err)
{
    nsdae_impulse_numeric dummy;
    if (!num) num = &dummy;
    nsdae_status st = check_call(r, r ? r->brute : NULL, left, max_order, num, err);
    if (st == NSDAE_OK && !(eps > 0 && eps < 1))
        st = nsdae_error_set(err, NSDAE_INVALID_INPUT, "impulse: brute force needs 0 < eps < 1, got %g", eps);
    return st != NSDAE_OK ? st : solve(r, r->brute, left, max_order, eps, 0.0, state_plus, aux, num, err);
}
