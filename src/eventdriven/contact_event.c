/* What happens at a contact event (Glocker, Pfeiffer; Acary-Brogliato ch. 7 for the two LCPs):
 *   1. Newton's impact law over the contacts at gap 0 (the set A), as an LCP in the percussions:
 *        0 <= u+ + e min(u-, 0)  _|_  P >= 0,   u = G_A v,  M (v+ - v-) = G_A^T P,
 *      i.e. W P + (1 + e) min(u-, 0) + max(u-, 0) with W = G_A M^-1 G_A^T (positions continuous);
 *   2. the contact-force LCP over the contacts of A whose normal velocity is now 0 (the set B):
 *        0 <= G_B a + dG_B/dt v  _|_  lambda >= 0,   M a = F + G_B^T lambda,
 *      whose positive lambda_c are the contacts that stay closed (the new mode);
 *   3. accumulation: impact times whose intervals shrink geometrically are summed in closed form
 *      (the series t_k + d r / (1 - r)); once what remains is below the window, the impacts are
 *      made plastic (e = 0 in 1.) and time moves to the accumulation point: the limit mode.
 * A contact at gap 0 whose normal velocity is already >= 0 gets no percussion from 1., so a root
 * that is only a grazing contact changes nothing. */
#include "eventdriven/contact_internal.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* Solves the LCP W z + q >= 0 _|_ z >= 0 of size m (closed form for one contact, else Lemke). */
static nsdae_status small_lcp(int m, const double *W, const double *q, double *z, nsdae_error *err)
{
    int need = 0;
    for (int i = 0; i < m; i++) {
        z[i] = 0;
        need |= q[i] < 0;
    }
    if (!need) return NSDAE_OK;
    if (m == 1) {
        if (!(W[0] > 0)) return nsdae_error_set(err, NSDAE_NUMERICAL, "contact LCP: W = %g is not positive", W[0]);
        z[0] = -q[0] / W[0];
        return NSDAE_OK;
    }
    double *w = malloc((size_t)m * sizeof *w);
    if (!w) return nsdae_error_set(err, NSDAE_NOMEM, "contact LCP: out of memory");
    nsdae_mlcp p = {m, W, q, NULL, NULL, NULL};
    nsdae_status st = nsdae_lcp_solve_siconos(&p, "lemke", z, w, err);
    free(w);
    return st;
}

/* X = M^-1 G_S^T (nd x ns) for the contacts listed in S. */
static int minv_gt(contact_problem *cp, const int *S, int ns, double *X)
{
    const int nd = cp->nd, nc = cp->nc;
    for (int k = 0; k < ns; k++)
        for (int j = 0; j < nd; j++) X[j + k * nd] = cp->G[S[k] + j * nc];
    memcpy(cp->Mf, cp->M, (size_t)nd * nd * sizeof *cp->M);
    return ns ? ed_dense_solve(nd, cp->Mf, X, ns) : 0;
}

/* W = G_S X (ns x ns). */
static void delassus(const contact_problem *cp, const int *S, int ns, const double *X, double *W)
{
    for (int a = 0; a < ns; a++)
        for (int b = 0; b < ns; b++) {
            double s = 0;
            for (int j = 0; j < cp->nd; j++) s += cp->G[S[a] + j * cp->nc] * X[j + b * cp->nd];
            W[a + b * ns] = s;
        }
}

/* dG/dt v for contact c: central difference of G along v (exact for gaps quadratic in q). */
static int gdot_v(contact_problem *cp, const double *q, const double *v, double *out)
{
    const int nd = cp->nd, nc = cp->nc;
    double vmax = 0, qmax = 1;
    for (int j = 0; j < nd; j++) {
        vmax = fmax(vmax, fabs(v[j]));
        qmax = fmax(qmax, fabs(q[j]));
    }
    memset(out, 0, (size_t)nc * sizeof *out);
    if (vmax == 0) return 0;
    double eps = 1e-5 * qmax / vmax;
    double *qs = malloc((size_t)nd * sizeof *qs), *Gp = malloc((size_t)nc * nd * sizeof *Gp),
           *Gm = malloc((size_t)nc * nd * sizeof *Gm);
    int rc = !qs || !Gp || !Gm;
    for (int sgn = 0; !rc && sgn < 2; sgn++) {
        for (int j = 0; j < nd; j++) qs[j] = q[j] + (sgn ? -eps : eps) * v[j];
        rc = cp->s->gap_jacobian(qs, sgn ? Gm : Gp, cp->s->ctx);
    }
    for (int c = 0; !rc && c < nc; c++)
        for (int j = 0; j < nd; j++) out[c] += (Gp[c + j * nc] - Gm[c + j * nc]) / (2 * eps) * v[j];
    free(qs);
    free(Gp);
    free(Gm);
    return rc;
}

/* Step 3: a new impact at t; returns 1 with *t_acc when the impacts accumulate. */
static int accumulation(contact_problem *cp, double t, double *t_acc)
{
    if (cp->nimpacts == 4) memmove(cp->impact_t, cp->impact_t + 1, 3 * sizeof *cp->impact_t);
    else cp->nimpacts++;
    cp->impact_t[cp->nimpacts - 1] = t;
    if (cp->nimpacts < 4) return 0;
    const double *ti = cp->impact_t;
    double d1 = ti[1] - ti[0], d2 = ti[2] - ti[1], d3 = ti[3] - ti[2];
    if (!(d1 > 0 && d2 > 0 && d3 > 0)) return 0;
    double r1 = d2 / d1, r2 = d3 / d2;
    if (!(r2 < 1) || fabs(r1 - r2) > NSDAE_EVENTS_ZENO_RATIO_TOL * r2) return 0;
    double rest = d3 * r2 / (1 - r2);
    if (rest > NSDAE_EVENTS_ZENO_WINDOW * (cp->o.stop - cp->o.t0)) return 0;
    *t_acc = t + rest;
    return 1;
}

typedef struct contact_work {
    int *S;          /* contact indices */
    double *X, *W, *qv, *u, *z, *gd, *acc;
} contact_work;

static void work_free(contact_work *w)
{
    free(w->S);
    free(w->X);
    free(w->W);
    free(w->qv);
    free(w->u);
    free(w->z);
    free(w->gd);
    free(w->acc);
}

static int work_alloc(contact_work *w, int nd, int nc)
{
    size_t m = (size_t)nc + 1;
    w->S = malloc(m * sizeof *w->S);
    w->X = malloc((size_t)nd * m * sizeof *w->X);
    w->W = malloc(m * m * sizeof *w->W);
    w->qv = malloc(m * sizeof *w->qv);
    w->u = malloc(m * sizeof *w->u);
    w->z = malloc(m * sizeof *w->z);
    w->gd = malloc(m * sizeof *w->gd);
    w->acc = malloc((size_t)nd * sizeof *w->acc + sizeof(double));
    return w->S && w->X && w->W && w->qv && w->u && w->z && w->gd && w->acc;
}

/* Step 1 over the contacts at gap 0 (plastic: e = 0 for all). Updates v, writes cp->P. */
static nsdae_status impact_law(contact_problem *cp, contact_work *w, double *v, int plastic, int *impact,
                               nsdae_error *err)
{
    const int nd = cp->nd, nc = cp->nc;
    double gtol = fmax(1e3 * cp->o.atol, 1e-9);
    int ns = 0;
    for (int c = 0; c < nc; c++) {
        cp->P[c] = 0;
        if (cp->closed[c] || cp->g[c] <= gtol) w->S[ns++] = c;
    }
    *impact = 0;
    if (!ns) return NSDAE_OK;
    if (minv_gt(cp, w->S, ns, w->X)) return nsdae_error_set(err, NSDAE_NUMERICAL, "impact: the mass matrix is singular");
    delassus(cp, w->S, ns, w->X, w->W);
    for (int a = 0; a < ns; a++) {
        double u = 0;
        for (int j = 0; j < nd; j++) u += cp->G[w->S[a] + j * nc] * v[j];
        double e = plastic ? 0 : cp->s->restitution[w->S[a]];
        w->qv[a] = u + e * fmin(u, 0);
    }
    nsdae_status st = small_lcp(ns, w->W, w->qv, w->z, err);
    if (st) return st;
    for (int a = 0; a < ns; a++) {
        cp->P[w->S[a]] = w->z[a];
        *impact |= w->z[a] > 0;
        for (int j = 0; j < nd; j++) v[j] += w->X[j + a * nd] * w->z[a];
    }
    return NSDAE_OK;
}

/* Step 2 over the contacts at gap 0 with normal velocity 0: the new mode and its forces. */
static nsdae_status contact_forces(contact_problem *cp, contact_work *w, const double *q, double *v, double *lam,
                                   nsdae_error *err)
{
    const int nd = cp->nd, nc = cp->nc;
    double gtol = fmax(1e3 * cp->o.atol, 1e-9), vscale = 0, fscale = 0;
    for (int j = 0; j < nd; j++) {
        vscale = fmax(vscale, fabs(v[j]));
        fscale = fmax(fscale, fabs(cp->F[j]));
    }
    if (gdot_v(cp, q, v, w->gd)) return nsdae_error_set(err, NSDAE_NUMERICAL, "contact forces: the gap Jacobian failed");
    int ns = 0;
    for (int c = 0; c < nc; c++) {
        lam[c] = 0;
        cp->closed[c] = 0;
        if (cp->g[c] > gtol) continue;
        double u = 0;
        for (int j = 0; j < nd; j++) u += cp->G[c + j * nc] * v[j];
        if (fabs(u) <= 1e-9 * (1 + vscale)) w->S[ns++] = c;
    }
    if (!ns) return NSDAE_OK;
    if (minv_gt(cp, w->S, ns, w->X)) return nsdae_error_set(err, NSDAE_NUMERICAL, "contact forces: the mass matrix is singular");
    delassus(cp, w->S, ns, w->X, w->W);
    memcpy(w->acc, cp->F, (size_t)nd * sizeof *w->acc);
    memcpy(cp->Mf, cp->M, (size_t)nd * nd * sizeof *cp->M);
    if (ed_dense_solve(nd, cp->Mf, w->acc, 1)) return nsdae_error_set(err, NSDAE_NUMERICAL, "contact forces: singular mass matrix");
    for (int a = 0; a < ns; a++) {
        double s = w->gd[w->S[a]];
        for (int j = 0; j < nd; j++) s += cp->G[w->S[a] + j * nc] * w->acc[j];
        w->qv[a] = s;
    }
    nsdae_status st = small_lcp(ns, w->W, w->qv, w->z, err);
    if (st) return st;
    for (int a = 0; a < ns; a++) {
        if (!(w->z[a] > 1e-9 * (1 + fscale))) continue;
        int c = w->S[a];
        cp->closed[c] = 1;
        lam[c] = w->z[a];
        /* the closed contact's normal velocity is 0 exactly (it was below the tolerance) */
        double u = 0;
        for (int j = 0; j < nd; j++) u += cp->G[c + j * nc] * v[j];
        double Wcc = w->W[a + a * ns];
        for (int j = 0; j < nd; j++) v[j] -= w->X[j + a * nd] * u / Wcc;
    }
    return NSDAE_OK;
}

/* The closed contacts' positions projected on g = 0 (Gauss-Newton along G^T, the minimal
 * displacement): the root is located to IDA's tolerance only, and in the closed mode the constraint
 * row g = 0 at IDA's first, small step h would otherwise ask for a multiplier mu ~ g / h. */
static nsdae_status project_closed(contact_problem *cp, contact_work *w, double t, double *z, nsdae_error *err)
{
    const int nd = cp->nd, nc = cp->nc;
    int ns = 0;
    for (int c = 0; c < nc; c++)
        if (cp->closed[c]) w->S[ns++] = c;
    for (int it = 0; ns && it < 4; it++) {
        if (contact_eval(cp, t, z, z + nd)) return nsdae_error_set(err, NSDAE_NUMERICAL, "contact: a model callback failed at t = %.17g", t);
        for (int a = 0; a < ns; a++) {
            for (int b = 0; b < ns; b++) {
                double s = 0;
                for (int j = 0; j < nd; j++) s += cp->G[w->S[a] + j * nc] * cp->G[w->S[b] + j * nc];
                w->W[a + b * ns] = s;
            }
            w->qv[a] = cp->g[w->S[a]];
        }
        if (ed_dense_solve(ns, w->W, w->qv, 1)) return nsdae_error_set(err, NSDAE_NUMERICAL, "contact: the closed contacts' constraints are dependent at t = %.17g", t);
        for (int a = 0; a < ns; a++)
            for (int j = 0; j < nd; j++) z[j] -= cp->G[w->S[a] + j * nc] * w->qv[a];
    }
    return NSDAE_OK;
}

/* IDA's absolute tolerances on a closed contact's multipliers. They are index-2 unknowns: a Newton
 * correction of lambda_c moves v by h M^-1 G_c^T dlambda_c and one of mu_c moves q by h G_c^T dmu_c,
 * so at the step h their roundoff floor is eps |r| / (h |G_c|^2 / m), 2.5e-17 / h for the rope:
 * 7e-6 at IDA's first step after the impact (h = 3.7e-12). IDA's Newton test weighs every unknown
 * (suppressalg leaves them out of the error test only), so with atol = 1e-12 on them it failed at
 * every step size and IDA cut h to 1e-18 (the cup-and-ball stopped there). Their tolerance is
 * instead the differential tolerance seen through the smallest step that still advances t,
 * h_min = eps max(|t0|, |stop|): a correction below it moves q and v by less than atol at any
 * step IDA can take, and the Newton tests on q and v bound the multipliers as tightly as the
 * arithmetic allows. An open contact's rows are lambda_c = mu_c = 0, solved exactly: atol. */
nsdae_status contact_multiplier_tolerances(contact_problem *cp, double t, const double *z, nsdae_error *err)
{
    const int nd = cp->nd, nc = cp->nc;
    const double atol = cp->o.atol, h_min = 2.220446049250313e-16 * fmax(1.0, fmax(fabs(cp->o.t0), fabs(cp->o.stop)));
    for (int c = 0; c < 2 * nc; c++) cp->mult_atol[c] = atol;
    if (contact_eval(cp, t, z, z + nd)) return nsdae_error_set(err, NSDAE_NUMERICAL, "contact: a model callback failed at t = %.17g", t);
    double *X = malloc((size_t)nd * sizeof *X);
    if (!X) return nsdae_error_set(err, NSDAE_NOMEM, "contact: out of memory");
    for (int c = 0; c < nc; c++) {
        if (!cp->closed[c]) continue;
        if (minv_gt(cp, &c, 1, X)) {
            free(X);
            return nsdae_error_set(err, NSDAE_NUMERICAL, "contact: singular mass matrix at t = %.17g", t);
        }
        double xmax = 0, gmax = 0;
        for (int j = 0; j < nd; j++) {
            xmax = fmax(xmax, fabs(X[j]));
            gmax = fmax(gmax, fabs(cp->G[c + j * nc]));
        }
        if (xmax > 0) cp->mult_atol[c] = fmax(atol, atol / (h_min * xmax));
        if (gmax > 0) cp->mult_atol[nc + c] = fmax(atol, atol / (h_min * gmax));
    }
    free(X);
    return NSDAE_OK;
}

/* The consistent derivatives of the new mode: q' = v, M v' = F + G^T lambda. */
static nsdae_status restart_derivatives(contact_problem *cp, double t, const double *z, double *zp, nsdae_error *err)
{
    const int nd = cp->nd, nc = cp->nc;
    if (contact_eval(cp, t, z, z + nd)) return nsdae_error_set(err, NSDAE_NUMERICAL, "contact: a model callback failed at t = %.17g", t);
    memset(zp, 0, (size_t)cp->n * sizeof *zp);
    for (int j = 0; j < nd; j++) {
        zp[j] = z[nd + j];
        double f = cp->F[j];
        for (int c = 0; c < nc; c++) f += cp->G[c + j * nc] * z[2 * nd + c];
        zp[nd + j] = f;
    }
    memcpy(cp->Mf, cp->M, (size_t)nd * nd * sizeof *cp->M);
    if (ed_dense_solve(nd, cp->Mf, zp + nd, 1)) return nsdae_error_set(err, NSDAE_NUMERICAL, "contact: singular mass matrix at t = %.17g", t);
    return NSDAE_OK;
}

static nsdae_status emit(contact_problem *cp, double t, nsdae_event_kind kind, const char *from, const double *z,
                         int *stop)
{
    nsdae_event_record ev = {t, kind, from, cp->label, 2 * cp->nd, (const char *const *)cp->state_names, cp->pre, z,
                             cp->nc, (const char *const *)cp->impulse_names, cp->P};
    cp->sum->events++;
    if (cp->on_event && cp->on_event(&ev, cp->ctx)) *stop = 1;
    return NSDAE_OK;
}

nsdae_status contact_event(double *t, const int *roots, int exogenous, double *z, double *zp, int *stop, void *self,
                           nsdae_error *err)
{
    (void)exogenous;
    contact_problem *cp = self;
    const int nd = cp->nd, nc = cp->nc, initial = !roots && !exogenous;
    if (initial) {
        memcpy(z, cp->s->q0, (size_t)nd * sizeof *z);
        memcpy(z + nd, cp->s->v0, (size_t)nd * sizeof *z);
    }
    char from[512];
    snprintf(from, sizeof from, "%s", contact_label_of(cp));
    int was_closed = 0, now_closed = 0;
    for (int c = 0; c < nc; c++) was_closed += cp->closed[c];
    memcpy(cp->pre, z, (size_t)2 * nd * sizeof *z);
    contact_work w = {0};
    if (!work_alloc(&w, nd, nc)) {
        work_free(&w);
        return nsdae_error_set(err, NSDAE_NOMEM, "contact event: out of memory");
    }
    nsdae_status st = NSDAE_OK;
    if (contact_eval(cp, *t, z, z + nd)) st = nsdae_error_set(err, NSDAE_NUMERICAL, "contact: a model callback failed at t = %.17g", *t);
    int impact = 0, acc = 0;
    double t_acc = *t;
    if (!st) st = impact_law(cp, &w, z + nd, 0, &impact, err);
    if (!st && impact) acc = accumulation(cp, *t, &t_acc);
    if (!st && acc) {   /* the limit mode: the impact redone plastically from the left limits, so the
                           normal velocity ends at 0 as it does at the end of the series */
        memcpy(z + nd, cp->pre + nd, (size_t)nd * sizeof *z);
        int again = 0;
        st = impact_law(cp, &w, z + nd, 1, &again, err);
    }
    if (!st) st = contact_forces(cp, &w, z, z + nd, z + 2 * nd, err);
    for (int c = 0; c < nc; c++) {
        z[2 * nd + nc + c] = 0;
        now_closed += cp->closed[c];
    }
    if (!st) st = project_closed(cp, &w, *t, z, err);
    if (!st) st = restart_derivatives(cp, *t, z, zp, err);
    if (!st) st = contact_multiplier_tolerances(cp, *t, z, err);
    work_free(&w);
    if (st) return st;
    const char *to = contact_label_of(cp);
    if (ed_mode_set_add(&cp->modes, to)) cp->sum->modes_visited = cp->modes.n;
    if (acc) {
        cp->sum->accumulations++;
        if (isnan(cp->sum->first_accumulation)) cp->sum->first_accumulation = t_acc;
        cp->nimpacts = 0;
        if (cp->o.stop_at_accumulation) {
            emit(cp, t_acc, NSDAE_EVENT_ACCUMULATION, from, z, stop);
            return nsdae_error_set(err, NSDAE_LIMIT,
                                   "impacts accumulate at t = %.10g (geometric intervals): the run stops there as asked",
                                   t_acc);
        }
        *t = t_acc;
        return emit(cp, t_acc, NSDAE_EVENT_ACCUMULATION, from, z, stop);
    }
    if (initial && !impact && now_closed == 0) return NSDAE_OK;
    nsdae_event_kind kind = impact ? NSDAE_EVENT_IMPACT : now_closed < was_closed ? NSDAE_EVENT_RELEASE : NSDAE_EVENT_SWITCH;
    return emit(cp, *t, kind, from, z, stop);
}
