/* Moreau-Jean time stepping for the Lagrangian contact form, as Siconos' MoreauJeanOSI with a
 * NewtonImpactNSL and one LCP per step (Acary & Brogliato 2008, ch. 11):
 *
 *   M(q_k) (v_{k+1} - v_k) = h F_theta + G(q_k)^T P
 *   q_{k+1} = q_k + h [(1 - theta) v_k + theta v_{k+1}]
 *   for the active contacts a:  0 <= (G v_{k+1})_a + e_a (G v_k)_a  _|_  P_a >= 0,  P = 0 elsewhere.
 *
 * Activation: MoreauJeanOSI::addInteractionInIndexSet with its default gamma = 1/2 and threshold 0:
 * contact c is active for the step when the position predicted half a step ahead,
 * g_c(q_k) + (h/2) (G(q_k) v_k)_c, is <= 0.
 *
 * Linearisation: M, G and the state arguments of F are taken at the start of the step (q_k, v_k),
 * which is Siconos' first Newton iterate; F_theta = (1 - theta) F(t_k, q_k, v_k) + theta
 * F(t_{k+1}, q_k, v_k), exactly Siconos' theta-weighting of the external forces. The scheme stays
 * of order 1 across impacts, the order it has anyway. When the system gives dF/dq and dF/dv
 * (force_jacobian: forces that read the state, springs and dampers), the theta-part of F is taken
 * at (q_{k+1}, v_{k+1}) linearised about (q_k, v_k), as Siconos' MoreauJeanOSI does (one Newton
 * iteration, exact for linear forces: its LagrangianLinearTIDS): M becomes the iteration matrix
 *   W = M - h theta dF/dv - h^2 theta^2 dF/dq,  and h^2 theta (dF/dq) v_k joins the right-hand side
 * (q_{k+1} - q_k = h v_k + h theta (v_{k+1} - v_k)). W is factored by LU: dF/dv need not be
 * symmetric.
 *
 * With W = G_a M^-1 G_a^T (banded Cholesky factor of M, never an explicit inverse; G in compressed
 * rows, so that a step costs what the nonzeros of G and the band of M cost) and
 * v_free = v_k + h M^-1 F_theta, the step's LCP is 0 <= W P_a + G_a v_free + e_a G_a v_k _|_ P_a >= 0.
 * Option `dissipative` (lagrangian.h) takes e = 1 on active contacts that are separating.
 *
 * Coulomb friction (lagrangian.h; Siconos' NewtonImpactFrictionNSL with MoreauJeanOSI and a
 * FrictionContact(2) problem): an active contact with mu_c > 0 adds the row T_c(q_k) of the
 * tangential Jacobian to G_a, the same W and v_free are built over these rows, and the Newton law
 * on the normal rows meets Coulomb's law on the tangential velocity (T v_{k+1})_c, with no
 * tangential restitution; friction_lcp.c solves that LCP. Activation stays normal only.
 */
#include <nsdae/lcp.h>
#include <nsdae/moreau.h>
#include <nsdae/time_grid.h>
#include <nsdae/tolerances.h>

#include "stepping/contact_lcp.h"
#include "stepping/contact_rows.h"
#include "stepping/delassus.h"
#include "stepping/mass_columns.h"
#include "stepping/mass_factor.h"
#include "stepping/friction_lcp.h"

#include <lapacke.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

void nsdae_moreau_defaults(nsdae_moreau_options *o)
{
    memset(o, 0, sizeof *o);
    o->theta = 0.5;
    o->stop = 1.0;
    o->step = 0.01;
}

void nsdae_moreau_options_for(const nsdae_lagrangian *s, nsdae_moreau_options *o)
{
    nsdae_moreau_defaults(o);
    if (s->stop_time > 0) o->stop = s->stop_time;
    if (s->step > 0) o->step = s->step;
    if (s->theta > 0) o->theta = s->theta;
}

/* Every array a run needs, allocated once: a step allocates nothing in the scheme itself. */
typedef struct mj_work {
    int n, nc;
    double *q, *v, *q1, *v1;     /* n */
    mass_columns Mc;             /* M's lower triangle, compressed (the translation's pattern) */
    mass_factor Mf;              /* its banded Cholesky factor */
    double *F0, *F1, *rhs;       /* n */
    double *g, *Gv;              /* nc */
    contact_rows G;              /* G in compressed rows */
    double *X, *W;               /* X: n x r (M^-1 Ga^T; banded M or dense path only, else NULL); W: r x r */
    double *qa, *Pa, *wa;        /* r */
    double *P;                   /* nc percussions of the step */
    int *active, *idx, *pos;     /* nc flags, m indices, nc positions in idx (-1: inactive) */
    /* The dense path (friction or implicit forces): the r rows of the step's problem are the m
     * active normal rows G_c, then the tangential rows T_c of the frictional ones, gathered dense
     * in Ga (r x n), and W = Ga W_it^-1 Ga^T is a dense product. Without friction and implicit
     * forces the sparse path (compressed G, banded M) is taken and these stay NULL. */
    int dense;
    double *Ga;                  /* dense path: r x n */
    int rows;                    /* bound on r: nc, or 2 nc with friction */
    double *T, *Pt, *mu;         /* friction: nc x n tangents, nc tangential percussions, r coefficients */
    int *normal_of;              /* friction: tangential row k belongs to normal row normal_of[k] */
    double *J;                   /* implicit forces: n x 2n, [dF/dq | dF/dv] */
    double *M;                   /* implicit forces: n x n, the iteration matrix W, then its LU */
    lapack_int *ipiv;            /* implicit forces: n, the LU pivots of W */
    nsdae_lcp_pivot_ws *pivot;   /* the contact LCP solver's workspace, of capacity rows */
    friction_lcp_ws fric;        /* friction: the facet LCP's workspace, for rows reaction components */
    double *chk;                 /* the per-row check's scratch, NSDAE_MLCP_CHECK_SCRATCH(rows) */
} mj_work;

static void work_free(mj_work *w)
{
    free(w->q); free(w->v); free(w->q1); free(w->v1); free(w->M); free(w->F0); free(w->F1); free(w->rhs);
    free(w->g); free(w->Gv); free(w->X); free(w->W); free(w->qa); free(w->Pa);
    free(w->wa); free(w->P); free(w->active); free(w->idx); free(w->pos);
    free(w->Ga); free(w->T); free(w->Pt); free(w->mu); free(w->normal_of); free(w->J); free(w->ipiv);
    free(w->chk);
    nsdae_lcp_pivot_ws_destroy(w->pivot);
    friction_lcp_ws_free(&w->fric);
    mass_factor_free(&w->Mf);
    mass_columns_free(&w->Mc);
    contact_rows_free(&w->G);
}

static int work_init(mj_work *w, const nsdae_lagrangian *s)
{
    memset(w, 0, sizeof *w);
    const int n = s->ndof, nc = s->ncontacts, implicit = s->force_jacobian != NULL;
    int frictional = 0;
    for (int c = 0; c < nc; c++) frictional |= s->friction[c] > 0.0;
    w->n = n;
    w->nc = nc;
    w->rows = frictional ? 2 * nc : nc;
    w->dense = frictional || implicit;
    size_t N = (size_t)n, K = (size_t)nc + 1, C = (size_t)w->rows + 1; /* +1: valid pointers when there is no contact */
    w->q = malloc(N * sizeof(double)); w->v = malloc(N * sizeof(double));
    w->q1 = malloc(N * sizeof(double)); w->v1 = malloc(N * sizeof(double));
    w->F0 = malloc(N * sizeof(double)); w->F1 = malloc(N * sizeof(double)); w->rhs = malloc(N * sizeof(double));
    w->g = malloc(K * sizeof(double)); w->Gv = malloc(K * sizeof(double));
    /* X only for the dense path and a banded M: a diagonal M of a translated system (its pattern
     * says so before any evaluation) needs none, which keeps the run's memory O(n + nnz) */
    const int banded = !s->mass_colptr || mass_factor_bandwidth(n, s->mass_colptr, s->mass_rows) > 0;
    if (w->dense || banded) w->X = malloc(C * N * sizeof(double));
    w->W = malloc(C * C * sizeof(double));
    w->qa = malloc(C * sizeof(double)); w->Pa = malloc(C * sizeof(double)); w->wa = malloc(C * sizeof(double));
    w->P = calloc(K, sizeof(double)); w->Pt = calloc(K, sizeof(double));
    w->active = calloc(K, sizeof(int)); w->idx = malloc(K * sizeof(int)); w->pos = malloc(K * sizeof(int));
    if (w->dense) w->Ga = malloc(C * N * sizeof(double));
    if (frictional) {
        w->T = malloc(K * N * sizeof(double));
        w->mu = malloc(K * sizeof(double)); w->normal_of = malloc(K * sizeof(int));
    }
    if (implicit) {
        w->M = malloc(N * N * sizeof(double));
        w->J = malloc(2 * N * N * sizeof(double));
        w->ipiv = malloc(N * sizeof(lapack_int));
    }
    w->chk = malloc(NSDAE_MLCP_CHECK_SCRATCH(C) * sizeof(double));
    nsdae_error e2;
    int pivot = nsdae_lcp_pivot_ws_create((int)C, &w->pivot, &e2) == NSDAE_OK;
    int fric = !frictional || friction_lcp_ws_init(&w->fric, w->rows, &e2) == 0;
    int rows = nc > 0 ? contact_rows_init(&w->G, s, &e2) == NSDAE_OK : 1;
    int mass = mass_columns_init(&w->Mc, s, &e2) == NSDAE_OK;
    for (int c = 0; w->pos && c < nc; c++) w->pos[c] = -1;
    return pivot && fric && rows && mass && w->chk && w->q && w->v && w->q1 && w->v1 && w->F0 && w->F1 && w->rhs && w->g && w->Gv &&
           (w->X || !(w->dense || banded)) && w->W && w->qa && w->Pa && w->wa && w->P && w->Pt && w->active && w->idx && w->pos &&
           (!w->dense || w->Ga) && (!frictional || (w->T && w->mu && w->normal_of)) &&
           (!implicit || (w->M && w->J && w->ipiv));
}

static nsdae_status evaluate_mass(const nsdae_lagrangian *s, mj_work *w, nsdae_error *err)
{
    if (mass_columns_evaluate(&w->Mc, s, w->q) != 0)
        return nsdae_error_set(err, NSDAE_NUMERICAL, "the mass matrix callback failed");
    return mass_factor_compute(&w->Mf, w->n, w->Mc.colptr, w->Mc.rows, w->Mc.val, err);
}

/* Solves W x = b for nrhs columns: W = M (Cholesky) or the iteration matrix of implicit forces (LU). */
static void iteration_solve(const mj_work *w, int nrhs, double *b)
{
    if (w->ipiv) LAPACKE_dgetrs_work(LAPACK_COL_MAJOR, 'N', w->n, nrhs, w->M, w->n, w->ipiv, b, w->n);
    else
        for (int k = 0; k < nrhs; k++) mass_factor_solve(&w->Mf, b + (size_t)k * w->n);
}

/* Implicit forces (see the top): W = M - h theta dF/dv - h^2 theta^2 dF/dq at (t1, q_k, v_k), LU
 * factored in place of M, and the extra right-hand side h^2 theta (dF/dq) v_k added to rhs. */
static nsdae_status iteration_matrix(const nsdae_lagrangian *s, mj_work *w, double t1, double h, double theta,
                                     nsdae_error *err)
{
    const int n = w->n;
    if (mass_columns_evaluate(&w->Mc, s, w->q) != 0)
        return nsdae_error_set(err, NSDAE_NUMERICAL, "the mass matrix callback failed");
    mass_columns_scatter(&w->Mc, w->M);
    if (s->force_jacobian(t1, w->q, w->v, w->J, s->ctx) != 0)
        return nsdae_error_set(err, NSDAE_NUMERICAL, "the force Jacobian callback failed");
    const double *Jq = w->J, *Jv = w->J + (size_t)n * n;
    for (int k = 0; k < n * n; k++) w->M[k] -= h * theta * Jv[k] + h * h * theta * theta * Jq[k];
    for (int i = 0; i < n; i++) {
        double sum = 0.0;
        for (int j = 0; j < n; j++) sum += Jq[i + (size_t)j * n] * w->v[j];
        w->rhs[i] += h * h * theta * sum;
    }
    lapack_int info = LAPACKE_dgetrf_work(LAPACK_COL_MAJOR, n, n, w->M, n, w->ipiv);
    if (info != 0)
        return nsdae_error_set(err, NSDAE_NUMERICAL, "the iteration matrix M - h theta dF/dv - h^2 theta^2 dF/dq is "
                                                     "singular (LAPACK dgetrf: %d)", (int)info);
    return NSDAE_OK;
}

/* Which contacts are active for the step (Siconos' rule, see the top), and G v_k for all. */
static int select_active(mj_work *w, double h)
{
    const contact_rows *G = &w->G;
    int m = 0;
    for (int c = 0; c < w->nc; c++) {
        double gv = 0.0;
        for (int e = G->rowptr[c]; e < G->rowptr[c + 1]; e++) gv += G->val[e] * w->v[G->cols[e]];
        w->Gv[c] = gv;
        w->active[c] = w->g[c] + 0.5 * h * gv <= NSDAE_MJ_ACTIVATION_THRESHOLD;
        if (w->active[c]) {
            w->Pa[m] = w->P[c]; /* the last step's percussion: the LCP solver's starting guess */
            w->pos[c] = m;
            w->idx[m++] = c;
        }
        w->P[c] = 0.0;
        w->Pt[c] = 0.0;
    }
    return m;
}

/* The rows of the step's problem: the m active normal rows G_c, then the tangential rows T_c of
 * the active contacts with friction. Returns their number r. */
static int gather_rows(const nsdae_lagrangian *s, mj_work *w, int m)
{
    const int n = w->n, nc = w->nc;
    int f = 0;
    for (int a = 0; w->T && a < m; a++)
        if (s->friction[w->idx[a]] > 0.0) {
            w->normal_of[f] = a;
            w->mu[f++] = s->friction[w->idx[a]];
        }
    const int r = m + f;
    for (int i = 0; i < r; i++) {
        const int c = w->idx[i < m ? i : w->normal_of[i - m]];
        for (int j = 0; j < n; j++) w->Ga[i + (size_t)j * r] = i < m ? 0.0 : w->T[c + (size_t)j * nc];
        if (i < m)
            for (int e = w->G.rowptr[c]; e < w->G.rowptr[c + 1]; e++) w->Ga[i + (size_t)w->G.cols[e] * r] = w->G.val[e];
        for (int j = 0; j < n; j++) w->X[j + (size_t)i * n] = w->Ga[i + (size_t)j * r]; /* G_a^T, then W_it^-1 G_a^T */
    }
    return r;
}

/* The dense path's LCP (friction, implicit forces: see mj_work) of the m active contacts and their
 * friction; on return v1 = v_free + W_it^-1 G_a^T P_a. Friction's rows T_c are dense callbacks
 * anyway, and the problems with friction are a few contacts: the dense product is the simplest
 * correct choice, and the sparse path below stays as it was for the large frictionless systems. */
static nsdae_status impact_step_dense(const nsdae_lagrangian *s, mj_work *w, int m, int dissipative,
                                      double *residual, nsdae_error *err)
{
    const int n = w->n;
    const int r = gather_rows(s, w, m);
    for (int a = 0; a < m; a++) w->pos[w->idx[a]] = -1; /* ready for the next step (not read here) */
    iteration_solve(w, r, w->X);
    for (int a = 0; a < r; a++) {
        for (int b = 0; b < r; b++) {
            double sum = 0.0;
            for (int j = 0; j < n; j++) sum += w->Ga[a + (size_t)j * r] * w->X[j + (size_t)b * n];
            w->W[a + (size_t)b * r] = sum;
        }
        double gvf = 0.0;
        for (int j = 0; j < n; j++) gvf += w->Ga[a + (size_t)j * r] * w->v1[j];
        w->qa[a] = gvf; /* tangential rows: no restitution (Siconos' e_t = 0) */
        if (a >= m) continue;
        const int c = w->idx[a];
        const double e = dissipative && w->Gv[c] > 0.0 ? 1.0 : s->restitution[c];
        w->qa[a] += e * w->Gv[c];
    }
    double res = 0.0;
    nsdae_status st;
    if (r > m) {
        /* checked there on the Newton and Coulomb laws, in the data's scale */
        st = friction_lcp_solve_ws(&w->fric, m, r - m, w->normal_of, w->mu, w->W, w->qa, w->Pa, w->wa, &res, err);
    } else {
        st = contact_lcp_solve(w->pivot, m, w->W, w->qa, w->Pa, w->wa, err);
        /* accepted row by row, whichever way it was solved, before the step is written */
        double viol = st == NSDAE_OK ? nsdae_mlcp_row_violation_scratch(&(nsdae_mlcp){m, w->W, w->qa, NULL, NULL, NULL},
                                                                        w->Pa, w->chk)
                                     : 0.0;
        if (!(viol <= NSDAE_TOL_RESIDUAL))
            return nsdae_error_set(err, NSDAE_NUMERICAL,
                                   "the contact LCP's answer violates a row by %.3g of that row's terms (tolerance %g): "
                                   "not written", viol, NSDAE_TOL_RESIDUAL);
    }
    if (st != NSDAE_OK) return st;
    for (int a = 0; a < r; a++) {
        if (r == m) {
            double u = w->qa[a];
            for (int b = 0; b < m; b++) u += w->W[a + (size_t)b * m] * w->Pa[b];
            /* complementarity residual: |min(w, P)| with w recomputed from P */
            res = fmax(res, fabs(fmin(u, w->Pa[a])));
        }
        if (a < m) w->P[w->idx[a]] = w->Pa[a];
        else w->Pt[w->idx[w->normal_of[a - m]]] = w->Pa[a];
        for (int j = 0; j < n; j++) w->v1[j] += w->X[j + (size_t)a * n] * w->Pa[a];
    }
    *residual = res;
    return NSDAE_OK;
}

/* The LCP of the m active contacts (sparse path); on return v1 = v_free + M^-1 G_a^T P_a. */
static nsdae_status impact_step(const nsdae_lagrangian *s, mj_work *w, int m, int dissipative, double *residual,
                                nsdae_error *err)
{
    if (w->dense) return impact_step_dense(s, w, m, dissipative, residual, err);
    const contact_rows *G = &w->G;
    delassus_form(G, &w->Mf, w->idx, w->pos, m, w->X, w->W);
    for (int a = 0; a < m; a++) {
        const int c = w->idx[a];
        double gvf = 0.0;
        for (int e = G->rowptr[c]; e < G->rowptr[c + 1]; e++) gvf += G->val[e] * w->v1[G->cols[e]];
        const double rest = dissipative && w->Gv[c] > 0.0 ? 1.0 : s->restitution[c];
        w->qa[a] = gvf + rest * w->Gv[c];
    }
    nsdae_status st = contact_lcp_solve(w->pivot, m, w->W, w->qa, w->Pa, w->wa, err);
    for (int a = 0; a < m; a++) w->pos[w->idx[a]] = -1; /* ready for the next step */
    if (st != NSDAE_OK) return st;
    /* accepted row by row, whichever way it was solved, before the step is written */
    double viol = nsdae_mlcp_row_violation_scratch(&(nsdae_mlcp){m, w->W, w->qa, NULL, NULL, NULL}, w->Pa, w->chk);
    if (!(viol <= NSDAE_TOL_RESIDUAL))
        return nsdae_error_set(err, NSDAE_NUMERICAL,
                               "the contact LCP's answer violates a row by %.3g of that row's terms (tolerance %g): "
                               "not written", viol, NSDAE_TOL_RESIDUAL);
    double res = 0.0;
    for (int a = 0; a < m; a++) {
        double r = 0.0;
        for (int b = 0; b < m; b++) r += w->W[a + (size_t)b * m] * w->Pa[b];
        r += w->qa[a];
        /* complementarity residual: |min(w, P)| with w recomputed from P */
        double c = fabs(fmin(r, w->Pa[a]));
        if (c > res) res = c;
    }
    for (int a = 0; a < m; a++) w->P[w->idx[a]] = w->Pa[a];
    delassus_apply(G, &w->Mf, w->idx, m, w->X, w->Pa, w->v1);
    *residual = res;
    return NSDAE_OK;
}

/* One step from (q, v) at t0 to (q1, v1) at t0 + h; fills P and active. */
static nsdae_status one_step(const nsdae_lagrangian *s, mj_work *w, double t0, double h, double theta,
                             int dissipative, int *nactive, double *residual, nsdae_error *err)
{
    const int n = w->n;
    nsdae_status st = NSDAE_OK;
    if (!s->mass_constant && !w->ipiv && (st = evaluate_mass(s, w, err)) != NSDAE_OK) return st;
    if (s->forces(t0, w->q, w->v, w->F0, s->ctx) != 0 || s->forces(t0 + h, w->q, w->v, w->F1, s->ctx) != 0)
        return nsdae_error_set(err, NSDAE_NUMERICAL, "the forces callback failed");
    for (int j = 0; j < n; j++) w->rhs[j] = h * ((1.0 - theta) * w->F0[j] + theta * w->F1[j]);
    if (w->ipiv && (st = iteration_matrix(s, w, t0 + h, h, theta, err)) != NSDAE_OK) return st;
    iteration_solve(w, 1, w->rhs);
    for (int j = 0; j < n; j++) w->v1[j] = w->v[j] + w->rhs[j]; /* v_free */

    *nactive = 0;
    *residual = 0.0;
    if (w->nc > 0) {
        if (s->gaps(w->q, w->g, s->ctx) != 0 || contact_rows_evaluate(&w->G, s, w->q) != 0 ||
            (w->T && s->tangent_jacobian(w->q, w->T, s->ctx) != 0))
            return nsdae_error_set(err, NSDAE_NUMERICAL, "the gap callbacks failed");
        int m = select_active(w, h);
        *nactive = m;
        if (m > 0 && (st = impact_step(s, w, m, dissipative, residual, err)) != NSDAE_OK) return st;
    }
    for (int j = 0; j < n; j++) w->q1[j] = w->q[j] + h * ((1.0 - theta) * w->v[j] + theta * w->v1[j]);
    return NSDAE_OK;
}

static void format_state(char *buf, size_t size, const nsdae_lagrangian *s, const mj_work *w)
{
    size_t used = 0;
    buf[0] = '\0';
    for (int j = 0; j < s->ndof && used + 1 < size; j++) {
        const char *name = s->q_names[j] ? s->q_names[j] : "q";
        int k = snprintf(buf + used, size - used, "%s%s=%.17g, %s'=%.17g", j ? ", " : "", name, w->q[j], name,
                         w->v[j]);
        if (k < 0) break;
        used += (size_t)k;
    }
}

static nsdae_status check_options(const nsdae_lagrangian *s, double theta, nsdae_error *err)
{
    if (!(theta >= 0.5 && theta <= 1.0))
        return nsdae_error_set(err, NSDAE_INVALID_INPUT, "moreau: theta %g is outside [1/2, 1]", theta);
    return nsdae_lagrangian_validate(s, err);
}

nsdae_status nsdae_moreau_run(const nsdae_lagrangian *s, const nsdae_moreau_options *o,
                              nsdae_contact_callback cb, void *ctx, double *q_end, double *v_end,
                              nsdae_moreau_summary *summary, nsdae_error *err)
{
    nsdae_moreau_summary sum = {0};
    if (summary) *summary = sum;
    const double theta = o->theta > 0.0 ? o->theta : 0.5;
    /* the step grid is every engine's one (time_grid.h) */
    nsdae_time_grid grid;
    nsdae_status st = nsdae_time_grid_make(o->t0, o->stop, o->nsteps, o->step, &grid, err);
    if (st == NSDAE_OK) st = check_options(s, theta, err);
    if (st != NSDAE_OK) return st;
    const long n = grid.n;
    sum.h = grid.h;
    sum.t_end = o->t0;

    mj_work w;
    if (!work_init(&w, s)) {
        work_free(&w);
        return nsdae_error_set(err, NSDAE_NOMEM, "moreau: out of memory");
    }
    memcpy(w.q, s->q0, (size_t)s->ndof * sizeof(double));
    memcpy(w.v, s->v0, (size_t)s->ndof * sizeof(double));
    if (s->mass_constant && !s->force_jacobian) st = evaluate_mass(s, &w, err);

    nsdae_contact_record rec = {0, o->t0, w.q, w.v, w.P, w.active, 0, 0.0, w.Pt};
    if (st != NSDAE_OK || (cb && cb(&rec, ctx))) goto done;

    for (long k = 0; k < n; k++) {
        const double t0 = nsdae_time_grid_time(&grid, k), t1 = nsdae_time_grid_time(&grid, k + 1);
        int nactive;
        double residual;
        st = one_step(s, &w, t0, nsdae_time_grid_step(&grid, k), theta, o->dissipative != 0, &nactive, &residual, err);
        if (st != NSDAE_OK) {
            char state[400], cause[NSDAE_ERROR_MESSAGE_SIZE];
            format_state(state, sizeof state, s, &w);
            snprintf(cause, sizeof cause, "%s", err ? err->message : "");
            nsdae_error_set(err, st, "moreau: step %ld from t = %.17g to %.17g failed (%s); state at t: %s", k + 1,
                            t0, t1, cause, state);
            goto done;
        }
        /* swap: the new state becomes the current one */
        double *tq = w.q, *tv = w.v;
        w.q = w.q1; w.v = w.v1; w.q1 = tq; w.v1 = tv;
        sum.steps = k + 1;
        sum.t_end = t1;
        if (nactive > 0) sum.lcp_steps++;
        rec = (nsdae_contact_record){k + 1, t1, w.q, w.v, w.P, w.active, nactive, residual, w.Pt};
        if (cb && cb(&rec, ctx)) break;
    }
done:;
    const nsdae_lcp_pivot_stats ps = nsdae_lcp_pivot_ws_stats(w.pivot);
    sum.lcp_solves = ps.calls;
    sum.lcp_pivots = ps.iterations;
    sum.lcp_fallbacks = ps.fallbacks;
    sum.lcp_siconos = ps.siconos;
    sum.friction_solves = w.fric.solves;
    sum.friction_fallbacks = w.fric.fallbacks;
    if (q_end) memcpy(q_end, w.q, (size_t)s->ndof * sizeof(double));
    if (v_end) memcpy(v_end, w.v, (size_t)s->ndof * sizeof(double));
    if (summary) *summary = sum;
    work_free(&w);
    return st;
}
