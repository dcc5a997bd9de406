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
 * that is only a grazing contact changes nothing.
 * Cost: G in compressed rows and M's factor (the stepper's readers: diagonal, banded or CHOLMOD),
 * and each LCP split into the groups of contacts that W couples (with a diagonal M, contacts that
 * share a coordinate; otherwise all of a set): a group without an approaching contact (a
 * negative q) has the answer 0 and costs nothing, so an impact among resting contacts costs what
 * its own group costs, and W is formed over that group only. */
#include "eventdriven/contact_internal.h"
#include "stepping/delassus.h"

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

static double row_dot(const contact_rows *G, int c, const double *v)
{
    double s = 0;
    for (int e = G->rowptr[c]; e < G->rowptr[c + 1]; e++) s += G->val[e] * v[G->cols[e]];
    return s;
}

static int diagonal_mass(const contact_problem *cp)
{
    return cp->Mf.kd == 0 && !cp->Mf.sparse_used;
}

int contact_state(contact_problem *cp, double t, const double *q, const double *v)
{
    const nsdae_lagrangian *s = cp->sys;
    if (s->forces(t, q, v, cp->F, s->ctx)) return 1;
    if (cp->nc && (s->gaps(q, cp->g, s->ctx) || contact_rows_evaluate(&cp->Gr, s, q))) return 1;
    if (cp->mass_factored && s->mass_constant) return 0;
    nsdae_error e2;
    if (mass_columns_evaluate(&cp->Mc, s, q) ||
        mass_factor_compute(&cp->Mf, cp->nd, cp->Mc.colptr, cp->Mc.rows, cp->Mc.val, &e2) != NSDAE_OK)
        return 1;
    cp->mass_factored = 1;
    return 0;
}

/* W (m x m) and, for a non-diagonal factor f, X = f^-1 G_K^T (nd x m) over the contacts K. */
static nsdae_status form_w(contact_problem *cp, const mass_factor *f, const int *K, int m, nsdae_error *err)
{
    const size_t wneed = (size_t)m * (size_t)m + 1,
                 xneed = f->kd == 0 && !f->sparse_used ? 1 : (size_t)cp->nd * (size_t)m + 1;
    if (wneed > cp->wcap) {
        double *w = realloc(cp->W, wneed * sizeof *w);
        if (!w) return nsdae_error_set(err, NSDAE_NOMEM, "contact event: out of memory (%d contacts coupled)", m);
        cp->W = w, cp->wcap = wneed;
    }
    if (xneed > cp->xcap) {
        double *x = realloc(cp->X, xneed * sizeof *x);
        if (!x) return nsdae_error_set(err, NSDAE_NOMEM, "contact event: out of memory (%d contacts coupled)", m);
        cp->X = x, cp->xcap = xneed;
    }
    for (int a = 0; a < m; a++) cp->pos[K[a]] = a;
    delassus_form(&cp->Gr, f, K, cp->pos, m, cp->X, cp->W);
    for (int a = 0; a < m; a++) cp->pos[K[a]] = -1;
    return NSDAE_OK;
}

static int by_index(const void *a, const void *b)
{
    int x = *(const int *)a, y = *(const int *)b;
    return (x > y) - (x < y);
}

/* The contacts S[0 .. ns) in groups that W couples: cp->idx holds them group by group (each
 * increasing), start[k] .. start[k+1] group k; returns the number of groups. With a diagonal M
 * (or coupled = 0: W = G G^T) two contacts are coupled when they share a coordinate (a walk over
 * G's column index); otherwise M^-1 couples everything and S is one group. */
static int groups(contact_problem *cp, const int *S, int ns, int through_mass, int *start)
{
    const contact_rows *G = &cp->Gr;
    int ng = 0, m = 0;
    if (ns == 0) return start[0] = 0, 0;
    if (through_mass && !diagonal_mass(cp)) {
        memcpy(cp->idx, S, (size_t)ns * sizeof *S);
        start[0] = 0, start[1] = ns;
        return 1;
    }
    for (int a = 0; a < ns; a++) cp->mark[S[a]] = 1;
    for (int a = 0; a < ns; a++) {
        if (cp->mark[S[a]] != 1) continue;
        start[ng++] = m;
        int head = m;
        cp->idx[m++] = S[a];
        cp->mark[S[a]] = 2;
        while (head < m) {
            const int c = cp->idx[head++];
            for (int e = G->rowptr[c]; e < G->rowptr[c + 1]; e++) {
                const int j = G->cols[e];
                for (int k = G->colptr[j]; k < G->colptr[j + 1]; k++)
                    if (cp->mark[G->crow[k]] == 1) {
                        cp->mark[G->crow[k]] = 2;
                        cp->idx[m++] = G->crow[k];
                    }
            }
        }
        qsort(cp->idx + start[ng - 1], (size_t)(m - start[ng - 1]), sizeof *cp->idx, by_index);
    }
    start[ng] = m;
    for (int a = 0; a < ns; a++) cp->mark[S[a]] = 0;
    return ng;
}

/* Solves the LCP W z + qv >= 0 _|_ z >= 0 over the contacts S (qv indexed by contact) group by
 * group; z by contact in cp->zc (0 outside S). A group whose qv are all >= 0 has z = 0 and is not
 * formed. On return cp->X, cp->W hold the last group formed; apply(group) is called after each
 * solved group with its contacts K[0 .. m) and their z in zK. */
typedef nsdae_status (*group_done)(contact_problem *cp, const int *K, int m, const double *zK, double *v,
                                   nsdae_error *err);
static nsdae_status grouped_lcp(contact_problem *cp, const int *S, int ns, double *v, group_done done, nsdae_error *err)
{
    for (int a = 0; a < ns; a++) cp->zc[S[a]] = 0;
    const int ng = groups(cp, S, ns, 1, cp->gstart);
    nsdae_status res = NSDAE_OK;
    for (int k = 0; !res && k < ng; k++) {
        const int *K = cp->idx + cp->gstart[k], m = cp->gstart[k + 1] - cp->gstart[k];
        int need = 0;
        for (int a = 0; a < m; a++) need |= cp->qv[K[a]] < 0;
        if (!need) continue;
        res = form_w(cp, &cp->Mf, K, m, err);
        for (int a = 0; !res && a < m; a++) cp->qK[a] = cp->qv[K[a]];
        if (!res) res = small_lcp(m, cp->W, cp->qK, cp->zK, err);
        for (int a = 0; !res && a < m; a++) cp->zc[K[a]] = cp->zK[a];
        if (!res) res = done(cp, K, m, cp->zK, v, err);
    }
    return res;
}

/* dG/dt v for every contact: central difference of G along v (exact for gaps quadratic in q; 0
 * for affine gaps). */
static int gdot_v(contact_problem *cp, const double *q, const double *v, double *out)
{
    const int nd = cp->nd, nc = cp->nc;
    double vmax = 0, qmax = 1;
    for (int j = 0; j < nd; j++) {
        vmax = fmax(vmax, fabs(v[j]));
        qmax = fmax(qmax, fabs(q[j]));
    }
    memset(out, 0, (size_t)nc * sizeof *out);
    if (vmax == 0 || cp->sys->gaps_linear) return 0;
    double eps = 1e-5 * qmax / vmax;
    const contact_rows *G = &cp->Gs;
    for (int sgn = 0; sgn < 2; sgn++) {
        for (int j = 0; j < nd; j++) cp->qs[j] = q[j] + (sgn ? -eps : eps) * v[j];
        if (contact_rows_evaluate(&cp->Gs, cp->sys, cp->qs)) return 1;
        if (G->dense) {   /* a pattern per evaluation: the rows' products */
            for (int c = 0; c < nc; c++) out[c] += (sgn ? -1 : 1) * row_dot(G, c, v) / (2 * eps);
        } else if (!sgn) {
            memcpy(cp->gplus, G->val, (size_t)G->rowptr[nc] * sizeof *G->val);
        } else {   /* one pattern: the difference entry by entry, as the dense path took it */
            for (int c = 0; c < nc; c++)
                for (int e = G->rowptr[c]; e < G->rowptr[c + 1]; e++)
                    out[c] += (cp->gplus[e] - G->val[e]) / (2 * eps) * v[G->cols[e]];
        }
    }
    return 0;
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

/* v += M^-1 G_K^T P_K. */
static nsdae_status apply_impulse(contact_problem *cp, const int *K, int m, const double *zK, double *v,
                                  nsdae_error *err)
{
    (void)err;
    delassus_apply(&cp->Gr, &cp->Mf, K, m, cp->X, zK, v);
    return NSDAE_OK;
}

/* Step 1 over the contacts at gap 0 (plastic: e = 0 for all). Updates v, writes cp->P. */
static nsdae_status impact_law(contact_problem *cp, double *v, int plastic, int *impact, nsdae_error *err)
{
    const int nc = cp->nc;
    double gtol = fmax(1e3 * cp->o.atol, 1e-9);
    int ns = 0;
    for (int c = 0; c < nc; c++) {
        cp->P[c] = 0;
        if (!(cp->closed[c] || cp->g[c] <= gtol)) continue;
        cp->S[ns++] = c;
        double u = row_dot(&cp->Gr, c, v), e = plastic ? 0 : cp->s->restitution[c];
        cp->qv[c] = u + e * fmin(u, 0);
    }
    *impact = 0;
    nsdae_status st = grouped_lcp(cp, cp->S, ns, v, apply_impulse, err);
    for (int a = 0; !st && a < ns; a++) {
        cp->P[cp->S[a]] = cp->zc[cp->S[a]];
        *impact |= cp->zc[cp->S[a]] > 0;
    }
    return st;
}

/* A contact that stays closed: its normal velocity (below the tolerance) made 0 exactly,
 * v -= M^-1 G_c^T u_c / W_cc, with W_cc from its group's W and X. */
static nsdae_status close_contacts(contact_problem *cp, const int *K, int m, const double *zK, double *v,
                                   nsdae_error *err)
{
    (void)err;
    double fscale = 0;
    for (int j = 0; j < cp->nd; j++) fscale = fmax(fscale, fabs(cp->F[j]));
    for (int a = 0; a < m; a++) {
        if (!(zK[a] > 1e-9 * (1 + fscale))) continue;
        const int c = K[a];
        cp->closed[c] = 1;
        double coef = -row_dot(&cp->Gr, c, v) / cp->W[a + (size_t)a * m];
        const double *Xa = cp->X + (diagonal_mass(cp) ? 0 : (size_t)a * cp->nd);
        delassus_apply(&cp->Gr, &cp->Mf, &K[a], 1, Xa, &coef, v);
    }
    return NSDAE_OK;
}

/* Step 2 over the contacts at gap 0 with normal velocity 0: the new mode and its forces. */
static nsdae_status contact_forces(contact_problem *cp, const double *q, double *v, double *lam, nsdae_error *err)
{
    const int nd = cp->nd, nc = cp->nc;
    double gtol = fmax(1e3 * cp->o.atol, 1e-9), vscale = 0;
    for (int j = 0; j < nd; j++) vscale = fmax(vscale, fabs(v[j]));
    if (gdot_v(cp, q, v, cp->gd))
        return nsdae_error_set(err, NSDAE_NUMERICAL, "contact forces: the gap Jacobian failed");
    memcpy(cp->acc, cp->F, (size_t)nd * sizeof *cp->acc);
    mass_factor_solve(&cp->Mf, cp->acc);
    int ns = 0;
    for (int c = 0; c < nc; c++) {
        lam[c] = 0;
        cp->closed[c] = 0;
        if (cp->g[c] > gtol) continue;
        if (fabs(row_dot(&cp->Gr, c, v)) > 1e-9 * (1 + vscale)) continue;
        cp->S[ns++] = c;
        cp->qv[c] = cp->gd[c] + row_dot(&cp->Gr, c, cp->acc);
    }
    nsdae_status st = grouped_lcp(cp, cp->S, ns, v, close_contacts, err);
    for (int a = 0; !st && a < ns; a++)
        if (cp->closed[cp->S[a]]) lam[cp->S[a]] = cp->zc[cp->S[a]];
    return st;
}

/* The closed contacts' positions projected on g = 0 (Gauss-Newton along G^T, the minimal
 * displacement): the root is located to IDA's tolerance only, and in the closed mode the constraint
 * row g = 0 at IDA's first, small step h would otherwise ask for a multiplier mu ~ g / h. Each
 * group of contacts sharing coordinates is its own system W = G_K G_K^T. */
static nsdae_status project_closed(contact_problem *cp, double t, double *z, nsdae_error *err)
{
    const int nc = cp->nc;
    int ns = 0;
    for (int c = 0; c < nc; c++)
        if (cp->closed[c]) cp->S[ns++] = c;
    nsdae_status res = NSDAE_OK;
    for (int it = 0; !res && ns && it < 4; it++) {
        if (contact_state(cp, t, z, z + cp->nd))
            return nsdae_error_set(err, NSDAE_NUMERICAL, "contact: a model callback failed at t = %.17g", t);
        const int ng = groups(cp, cp->S, ns, 0, cp->gstart);
        for (int k = 0; !res && k < ng; k++) {
            const int *K = cp->idx + cp->gstart[k], m = cp->gstart[k + 1] - cp->gstart[k];
            res = form_w(cp, &cp->unit, K, m, err);
            for (int a = 0; !res && a < m; a++) cp->qK[a] = -cp->g[K[a]];
            if (!res && ed_dense_solve(m, cp->W, cp->qK, 1))
                res = nsdae_error_set(err, NSDAE_NUMERICAL,
                                      "contact: the closed contacts' constraints are dependent at t = %.17g", t);
            if (!res) delassus_apply(&cp->Gr, &cp->unit, K, m, NULL, cp->qK, z);
        }
    }
    return res;
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
    if (contact_state(cp, t, z, z + nd))
        return nsdae_error_set(err, NSDAE_NUMERICAL, "contact: a model callback failed at t = %.17g", t);
    const contact_rows *G = &cp->Gr;
    for (int c = 0; c < nc; c++) {
        if (!cp->closed[c]) continue;
        double xmax = 0, gmax = 0;
        for (int e = G->rowptr[c]; e < G->rowptr[c + 1]; e++) gmax = fmax(gmax, fabs(G->val[e]));
        if (diagonal_mass(cp)) {   /* M^-1 G_c^T lives on G_c's columns */
            for (int e = G->rowptr[c]; e < G->rowptr[c + 1]; e++)
                xmax = fmax(xmax, fabs(G->val[e] / cp->Mf.band[G->cols[e]]));
        } else {
            nsdae_status st = form_w(cp, &cp->Mf, &c, 1, err);
            if (st) return st;
            for (int j = 0; j < nd; j++) xmax = fmax(xmax, fabs(cp->X[j]));
        }
        if (xmax > 0) cp->mult_atol[c] = fmax(atol, atol / (h_min * xmax));
        if (gmax > 0) cp->mult_atol[nc + c] = fmax(atol, atol / (h_min * gmax));
    }
    return NSDAE_OK;
}

/* The consistent derivatives of the new mode: q' = v, M v' = F + G^T lambda. */
static nsdae_status restart_derivatives(contact_problem *cp, double t, const double *z, double *zp, nsdae_error *err)
{
    const int nd = cp->nd, nc = cp->nc;
    if (contact_state(cp, t, z, z + nd))
        return nsdae_error_set(err, NSDAE_NUMERICAL, "contact: a model callback failed at t = %.17g", t);
    memset(zp, 0, (size_t)cp->n * sizeof *zp);
    memcpy(zp, z + nd, (size_t)nd * sizeof *zp);
    memcpy(zp + nd, cp->F, (size_t)nd * sizeof *zp);
    for (int c = 0; c < nc; c++)
        for (int e = cp->Gr.rowptr[c]; e < cp->Gr.rowptr[c + 1]; e++)
            zp[nd + cp->Gr.cols[e]] += cp->Gr.val[e] * z[2 * nd + c];
    mass_factor_solve(&cp->Mf, zp + nd);
    for (int j = 0; j < nd; j++)
        if (!isfinite(zp[nd + j]))
            return nsdae_error_set(err, NSDAE_NUMERICAL, "contact: singular mass matrix at t = %.17g", t);
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
    nsdae_status st = NSDAE_OK;
    if (contact_state(cp, *t, z, z + nd))
        st = nsdae_error_set(err, NSDAE_NUMERICAL, "contact: a model callback failed at t = %.17g", *t);
    int impact = 0, acc = 0;
    double t_acc = *t;
    if (!st) st = impact_law(cp, z + nd, 0, &impact, err);
    if (!st && impact) acc = accumulation(cp, *t, &t_acc);
    if (!st && acc) {   /* the limit mode: the impact redone plastically from the left limits, so the
                           normal velocity ends at 0 as it does at the end of the series */
        memcpy(z + nd, cp->pre + nd, (size_t)nd * sizeof *z);
        int again = 0;
        st = impact_law(cp, z + nd, 1, &again, err);
    }
    if (!st) st = contact_forces(cp, z, z + nd, z + 2 * nd, err);
    for (int c = 0; c < nc; c++) {
        z[2 * nd + nc + c] = 0;
        now_closed += cp->closed[c];
    }
    if (!st) st = project_closed(cp, *t, z, err);
    if (!st) st = restart_derivatives(cp, *t, z, zp, err);
    if (!st) st = contact_multiplier_tolerances(cp, *t, z, err);
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
