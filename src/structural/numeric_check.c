/* Numeric check of a structural result at one point (Pryce's system Jacobian; Benveniste et al. 2013,
 * section II-D): the system Jacobian J_ij = df_i/dx_j^(d_j - c_i) on leading entries must be nonsingular
 * for the Sigma-method to succeed; structurally fine but numerically singular is reported as such. The
 * state selection's pivot blocks are checked too (the pendulum's x-pivot vanishes at x = 0). */
#include "structural/structural_internal.h"

#include <lapacke.h>
#include <math.h>
#include <stdlib.h>

#include <nsdae/tolerances.h>

/* Singular values of the m x m column-major matrix a (overwritten): rank, smax, smin. */
static int svd_rank(int m, double *a, int *rank, double *smax, double *smin)
{
    *rank = 0;
    *smax = *smin = 0.0;
    if (m == 0) return 0;
    double *s = malloc((size_t)m * sizeof *s);
    double *superb = malloc((size_t)m * sizeof *superb);
    if (!s || !superb) { free(s); free(superb); return -1; }
    lapack_int info = LAPACKE_dgesvd(LAPACK_COL_MAJOR, 'N', 'N', m, m, a, m, s, NULL, 1, NULL, 1, superb);
    if (info != 0) { free(s); free(superb); return -2; }
    *smax = s[0];
    *smin = s[m - 1];
    for (int k = 0; k < m; k++) if (s[k] > NSDAE_TOL_RANK * s[0]) (*rank)++;
    free(s); free(superb);
    return 0;
}

static double cond_of(double smax, double smin)
{
    if (smax == 0.0) return INFINITY;
    return smin > 0.0 ? smax / smin : INFINITY;
}

/* The selection's pivot blocks: the first singular level and the worst condition number. */
static int check_selection(const nsdae_structural_result *r, const nsdae_sigma *sg, const double *jac, int *singular,
                           int *first_level, double *worst)
{
    *singular = 0;
    *first_level = 0;
    *worst = 1.0;
    int *rows = malloc(((size_t)r->neq + 1) * sizeof *rows);
    int *cols = malloc(((size_t)r->nvar + 1) * sizeof *cols);
    double *a = malloc(((size_t)r->neq * r->neq + 1) * sizeof *a);
    if (!rows || !cols || !a) { free(rows); free(cols); free(a); return -1; }
    for (int level = 1; level <= r->max_c; level++) {
        int m = 0, mc = 0;
        for (int i = 0; i < r->neq; i++) if (r->c[i] >= level) rows[m++] = i;
        for (int k = 0; k < r->ndummies; k++) if (r->dummy_level[k] == level) cols[mc++] = r->dummies[k].var;
        if (m != mc) { free(rows); free(cols); free(a); return -2; }
        for (int q = 0; q < mc; q++)
            for (int p = 0; p < m; p++)
                a[p + (size_t)q * m] = nsdae_structural_is_leading(r, sg, rows[p], cols[q])
                                           ? jac[rows[p] + (size_t)cols[q] * r->neq] : 0.0;
        int rank;
        double smax, smin;
        int rc = svd_rank(m, a, &rank, &smax, &smin);
        if (rc < 0) { free(rows); free(cols); free(a); return rc; }
        double cnd = cond_of(smax, smin);
        if (rank < m && !*singular) { *singular = 1; *first_level = level; }
        if (cnd > *worst || isinf(cnd)) *worst = cnd;
    }
    free(rows); free(cols); free(a);
    return 0;
}

nsdae_status nsdae_structural_check_numeric(nsdae_structural_result *r, const nsdae_sigma *sg, const double *jac,
                                            nsdae_error *err)
{
    if (!r || !sg || !jac || sg->neq != r->neq || sg->nvar != r->nvar)
        return nsdae_error_set(err, NSDAE_INVALID_INPUT, "structural: numeric check needs the result, its matrix and a Jacobian");
    for (size_t k = 0; k < (size_t)r->neq * r->nvar; k++)
        if (!isfinite(jac[k])) {
            int i = (int)(k % (size_t)(r->neq ? r->neq : 1)), j = (int)(k / (size_t)(r->neq ? r->neq : 1));
            if (nsdae_structural_is_leading(r, sg, i, j))
                return nsdae_error_set(err, NSDAE_INVALID_INPUT,
                                       "structural: Jacobian entry d %s / d %s is not finite at this point",
                                       r->eq_names[i], r->var_names[j]);
        }
    nsdae_structural_numeric *nm = &r->numeric;
    int n = r->n_well;
    int *rinv = malloc(((size_t)r->neq + 1) * sizeof *rinv);
    int *cinv = malloc(((size_t)r->nvar + 1) * sizeof *cinv);
    double *a = malloc(((size_t)n * n + 1) * sizeof *a);
    double *w = malloc(((size_t)r->neq * r->nvar + 1) * sizeof *w);
    if (!rinv || !cinv || !a || !w) {
        free(rinv); free(cinv); free(a); free(w);
        return nsdae_error_set(err, NSDAE_NOMEM, "structural: out of memory");
    }
    int m = 0, mc = 0;
    for (int i = 0; i < r->neq; i++) if (r->c[i] >= 0) rinv[m++] = i;
    for (int j = 0; j < r->nvar; j++) if (r->d[j] >= 0) cinv[mc++] = j;
    for (int q = 0; q < n; q++)
        for (int p = 0; p < n; p++)
            a[p + (size_t)q * n] = nsdae_structural_is_leading(r, sg, rinv[p], cinv[q])
                                       ? jac[rinv[p] + (size_t)cinv[q] * r->neq] : 0.0;
    nsdae_status st = NSDAE_OK;
    int rc = svd_rank(n, a, &nm->rank, &nm->smax, &nm->smin);
    if (rc == -1) { st = nsdae_error_set(err, NSDAE_NOMEM, "structural: out of memory"); goto done; }
    if (rc < 0) { st = nsdae_error_set(err, NSDAE_NUMERICAL, "structural: SVD of the system Jacobian failed"); goto done; }
    nm->n = n;
    nm->cond = n > 0 ? cond_of(nm->smax, nm->smin) : 1.0;
    nm->singular = nm->rank < n;

    /* The structural selection at this point, then the one preferring the largest pivots. */
    rc = check_selection(r, sg, jac, &nm->static_singular, &nm->static_level, &nm->static_cond);
    if (rc < 0) { st = nsdae_error_set(err, NSDAE_NUMERICAL, "structural: pivot check failed"); goto done; }
    int old_n = r->ndummies;
    nsdae_structural_deriv *old = malloc(((size_t)old_n + 1) * sizeof *old);
    if (!old) { st = nsdae_error_set(err, NSDAE_NOMEM, "structural: out of memory"); goto done; }
    for (int k = 0; k < old_n; k++) old[k] = r->dummies[k];
    for (size_t k = 0; k < (size_t)r->neq * r->nvar; k++) w[k] = fabs(jac[k]);
    st = nsdae_structural_select_states(r, sg, w, err);
    if (st != NSDAE_OK) { free(old); goto done; }
    nm->reselected = r->ndummies != old_n;
    for (int k = 0; k < old_n && !nm->reselected; k++)
        nm->reselected = old[k].var != r->dummies[k].var || old[k].order != r->dummies[k].order;
    free(old);
    int lvl;
    rc = check_selection(r, sg, jac, &nm->selection_singular, &lvl, &nm->selection_cond);
    if (rc < 0) { st = nsdae_error_set(err, NSDAE_NUMERICAL, "structural: pivot check failed"); goto done; }
    nm->done = 1;
done:
    free(rinv); free(cinv); free(a); free(w);
    return st;
}

nsdae_status nsdae_structural_check_numeric_cb(nsdae_structural_result *r, const nsdae_sigma *sg,
                                               nsdae_structural_partial_fn partial, void *ctx, nsdae_error *err)
{
    if (!r || !sg || !partial)
        return nsdae_error_set(err, NSDAE_INVALID_INPUT, "structural: numeric check needs a result and a callback");
    double *jac = calloc((size_t)r->neq * r->nvar + 1, sizeof *jac);
    if (!jac) return nsdae_error_set(err, NSDAE_NOMEM, "structural: out of memory");
    for (int i = 0; i < r->neq; i++)
        for (int j = 0; j < r->nvar; j++)
            if (nsdae_structural_is_leading(r, sg, i, j))
                jac[i + (size_t)j * r->neq] = partial(i, j, r->d[j] - r->c[i], ctx);
    nsdae_status st = nsdae_structural_check_numeric(r, sg, jac, err);
    free(jac);
    return st;
}
