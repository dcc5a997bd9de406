/* The fixed-step loop shared by every MLCS scheme: one MLCP per step, then either the
 * minimal-norm selection (Rocca et al., (15)) or Siconos' first solution (plain implicit Euler). */
#include <nsdae/lcp.h>
#include <nsdae/stepper.h>
#include <nsdae/time_grid.h>
#include <nsdae/tolerances.h>

#include "stepping/sparse_step.h"
#include "stepping/step_mlcp.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

void nsdae_stepper_defaults(nsdae_stepper_options *o)
{
    memset(o, 0, sizeof *o);
    o->scheme = NSDAE_SCHEME_MINNORM;
    o->stop = 1.0;
    o->step = 0.01;
    o->count_solutions = 1;
}

static const char *const scheme_names[] = {"minnorm", "euler", "theta", "moreau"};

const char *nsdae_scheme_name(nsdae_scheme scheme)
{
    return (unsigned)scheme < sizeof scheme_names / sizeof *scheme_names ? scheme_names[scheme] : "unknown";
}

nsdae_status nsdae_scheme_from_name(const char *name, nsdae_scheme *out, nsdae_error *err)
{
    for (size_t i = 0; name && i < sizeof scheme_names / sizeof *scheme_names; i++)
        if (strcmp(name, scheme_names[i]) == 0) {
            *out = (nsdae_scheme)i;
            return NSDAE_OK;
        }
    return nsdae_error_set(err, NSDAE_INVALID_INPUT, "scheme '%s' is not one of minnorm, euler, theta, moreau",
                           name ? name : "(null)");
}

nsdae_status nsdae_stepper_options_for(const nsdae_mlcs *s, nsdae_stepper_options *o, nsdae_error *err)
{
    nsdae_stepper_defaults(o);
    if (s->stop_time > 0) o->stop = s->stop_time;
    if (s->step > 0) o->step = s->step;
    if (s->scheme[0]) {
        nsdae_error e;
        if (nsdae_scheme_from_name(s->scheme, &o->scheme, &e) != NSDAE_OK)
            return nsdae_error_set(err, NSDAE_INVALID_INPUT, "experiment %s", e.message);
        if (o->scheme == NSDAE_SCHEME_MOREAU)
            return nsdae_error_set(err, NSDAE_UNSUPPORTED, "experiment scheme 'moreau' runs the contact form "
                                                           "(Moreau-Jean), not an MLCS stepper");
    }
    if (o->scheme != NSDAE_SCHEME_EULER) {
        if (s->theta > 0) o->theta = s->theta;
        if (s->gamma > 0) o->gamma = s->gamma;
    }
    return NSDAE_OK;
}

static double scheme_theta(const nsdae_stepper_options *o)
{
    if (o->theta > 0.0) return o->theta;
    return o->scheme == NSDAE_SCHEME_THETA ? 0.5 : 1.0;
}

/* gamma = 1 (the multipliers at t_{k+1} only) unless set, for every scheme. */
static double scheme_gamma(const nsdae_stepper_options *o)
{
    return o->gamma > 0.0 ? o->gamma : 1.0;
}

static nsdae_status check_options(const nsdae_mlcs *s, const nsdae_stepper_options *o, double theta,
                                  nsdae_error *err)
{
    if (!(theta >= 0.5 && theta <= 1.0))
        return nsdae_error_set(err, NSDAE_INVALID_INPUT, "stepper: theta %g is outside [1/2, 1]", theta);
    if (!(o->gamma <= 0.0 || (o->gamma >= 0.5 && o->gamma <= 1.0)))
        return nsdae_error_set(err, NSDAE_INVALID_INPUT, "stepper: gamma %g is outside [1/2, 1]", o->gamma);
    if (o->scheme == NSDAE_SCHEME_EULER && o->gamma > 0.0 && o->gamma != 1.0)
        return nsdae_error_set(err, NSDAE_INVALID_INPUT, "stepper: the plain Euler scheme has gamma = 1, not %g",
                               o->gamma);
    if (o->scheme == NSDAE_SCHEME_EULER && theta != 1.0)
        return nsdae_error_set(err, NSDAE_INVALID_INPUT, "stepper: the plain Euler scheme has theta = 1, not %g",
                               theta);
    if (o->scheme == NSDAE_SCHEME_MOREAU)
        return nsdae_error_set(err, NSDAE_INVALID_INPUT, "stepper: the moreau scheme runs the contact form "
                                                         "(nsdae_moreau_run), not an MLCS");
    if (o->scheme != NSDAE_SCHEME_MINNORM && o->scheme != NSDAE_SCHEME_EULER && o->scheme != NSDAE_SCHEME_THETA)
        return nsdae_error_set(err, NSDAE_INVALID_INPUT, "stepper: unknown scheme %d", (int)o->scheme);
    return nsdae_mlcs_validate(s, err);
}

long nsdae_stepper_steps(const nsdae_stepper_options *o, double *h)
{
    nsdae_time_grid g;
    *h = o->nsteps > 0 ? (o->stop - o->t0) / (double)o->nsteps : o->step;
    if (nsdae_time_grid_make(o->t0, o->stop, o->nsteps, o->step, &g, NULL) != NSDAE_OK) return 0;
    *h = g.h;
    return g.n;
}

typedef struct selection {
    int *select;
    int k;
    double *z_ref;
} selection;

static nsdae_status selection_init(selection *sel, const nsdae_mlcs *s, const nsdae_stepper_options *o,
                                   nsdae_error *err)
{
    int *flags = calloc((size_t)s->ny, sizeof *flags);
    sel->select = calloc((size_t)s->ny, sizeof *sel->select);
    sel->z_ref = calloc((size_t)(s->ny + s->nl), sizeof *sel->z_ref);
    if (!flags || !sel->select || !sel->z_ref) {
        free(flags);
        return nsdae_error_set(err, NSDAE_NOMEM, "stepper: out of memory");
    }
    nsdae_mlcs_differential(s, flags);
    sel->k = 0;
    for (int j = 0; j < s->ny; j++)
        if (flags[j] || o->select_algebraic) sel->select[sel->k++] = j;
    free(flags);
    if (sel->k == 0) /* a purely algebraic system: nothing to be near but the whole y */
        for (int j = 0; j < s->ny; j++) sel->select[sel->k++] = j;
    return NSDAE_OK;
}

static void selection_free(selection *sel)
{
    free(sel->select);
    free(sel->z_ref);
}

/* Complementarity rows after box conversion: what counting by enumeration is exponential in. */
static int complementarity_rows(const nsdae_mlcp *p)
{
    int m = 0;
    for (int i = 0; i < p->size; i++) {
        nsdae_row_kind k = p->kind ? p->kind[i] : NSDAE_ROW_COMPLEMENTARITY;
        if (k == NSDAE_ROW_COMPLEMENTARITY)
            m++;
        else if (k == NSDAE_ROW_BOX && p->lo[i] != p->hi[i])
            m += isfinite(p->lo[i]) + isfinite(p->hi[i]);
    }
    return m;
}

static nsdae_status solve_step(const step_mlcp *sm, const nsdae_stepper_options *o, selection *sel,
                               nsdae_lcp_workspace *lws, const double *y0, double *z, double *w, long *nsol,
                               nsdae_error *err)
{
    if (o->scheme == NSDAE_SCHEME_EULER) {
        nsdae_status st = nsdae_lcp_solve_siconos(&sm->problem, "enum", z, w, err);
        /* counting enumerates 2^m patterns: bounded as minnorm's counting is (nsol 0: not counted) */
        if (st != NSDAE_OK || !o->count_solutions || complementarity_rows(&sm->problem) > NSDAE_LCP_COUNT_MAX_M) {
            *nsol = 0;
            return st;
        }
        nsdae_lcp_solution_set *set = NULL;
        st = nsdae_lcp_enumerate(&sm->problem, &set, err);
        if (st == NSDAE_OK) *nsol = set->has_continuum ? -1 : set->count;
        nsdae_lcp_solution_set_free(set);
        return st;
    }
    memcpy(sel->z_ref, y0, (size_t)sm->ny * sizeof *y0);
    nsdae_minnorm_spec spec = {sel->z_ref, sel->select, sel->k, o->weight, o->count_solutions};
    nsdae_minnorm_result res;
    /* the workspace keeps the step matrix's equilibration and factors: with a fixed h only q
     * changes from one step to the next */
    nsdae_status st = nsdae_lcp_minnorm_ws(lws, &sm->problem, &spec, z, w, &res, err);
    *nsol = res.nsol;
    return st;
}

/* Whatever solver answered, the step is written only when its answer solves the step MLCP row by
 * row (nsdae_mlcp_row_violation; minimal norm applies it itself): a solver whose own acceptance is looser (relative to the largest
 * term of the whole problem) would otherwise hand on rows with residual 8 or a Heaviside
 * multiplier at 1.5, outside its box [0, 1]. */
static nsdae_status accept_step(const step_mlcp *sm, const double *z, nsdae_error *err)
{
    double v = nsdae_mlcp_row_violation(&sm->problem, z);
    if (v <= NSDAE_TOL_RESIDUAL) return NSDAE_OK;
    return nsdae_error_set(err, NSDAE_NUMERICAL,
                           "the answer violates a row of the step's MLCP by %.3g of that row's terms (tolerance %g): "
                           "not written", v, NSDAE_TOL_RESIDUAL);
}

static void format_state(char *buf, size_t size, const nsdae_mlcs *s, const double *y)
{
    size_t used = 0;
    buf[0] = '\0';
    for (int j = 0; j < s->ny && used + 1 < size; j++) {
        int n = snprintf(buf + used, size - used, "%s%s=%.17g", j ? ", " : "",
                         s->y_names && s->y_names[j] ? s->y_names[j] : "y", y[j]);
        if (n < 0) break;
        used += (size_t)n;
    }
}

/* The two ways of solving a step: the dense step MLCP (allocated on first use: (ny + nl)^2
 * doubles) and the sparse path (sparse_step.h), tried first unless the options say dense. A
 * system stored compressed (a translated one) gets its dense matrices only with the dense path's
 * first use, in phases of its own (nsdae_mlcs_dense_phases): a run the sparse path answers
 * throughout never forms an ny x ny array. */
typedef struct step_paths {
    step_mlcp sm;
    int have_dense;
    const nsdae_mlcs *dense;   /* the system the dense path reads: s, or dense_view */
    nsdae_mlcs dense_view;     /* s with dense_phases */
    nsdae_mlcs_phase *dense_phases;
    sparse_step ss;
    int have_sparse;
    double *lambda0;   /* nl: the previous multipliers, kept apart from z, which a failed sparse try overwrites */
} step_paths;

static nsdae_status paths_init(step_paths *p, const nsdae_mlcs *s, const nsdae_stepper_options *o, nsdae_error *err)
{
    memset(p, 0, sizeof *p);
    p->lambda0 = calloc((size_t)s->nl + 1, sizeof *p->lambda0);
    if (!p->lambda0) return nsdae_error_set(err, NSDAE_NOMEM, "stepper: out of memory");
    /* euler too: a step with the sparse path's certificate has exactly one solution, which is then
     * the one ENUM would find, without ENUM's 2^m patterns (20 diodes took 20 s per step) */
    if (o->solver != NSDAE_STEP_SOLVER_DENSE) {
        int r = sparse_step_init(&p->ss, s);
        if (r < 0) return nsdae_error_set(err, NSDAE_NOMEM, "stepper: out of memory");
        p->have_sparse = r;
    }
    if (o->solver == NSDAE_STEP_SOLVER_SPARSE && !p->have_sparse)
        return nsdae_error_set(err, NSDAE_UNSUPPORTED, "stepper: the sparse path needs complementarity rows only");
    return NSDAE_OK;
}

static void paths_free(step_paths *p, const nsdae_mlcs *s)
{
    if (p->have_dense) step_mlcp_free(&p->sm);
    nsdae_mlcs_dense_phases_free(p->dense_phases, s->nphases);
    if (p->have_sparse) sparse_step_free(&p->ss);
    free(p->lambda0);
}

/* The dense path's first use: its step MLCP, and the dense matrices when s has only compressed ones. */
static nsdae_status dense_path_init(step_paths *p, const nsdae_mlcs *s, nsdae_error *err)
{
    p->dense = s;
    if (!nsdae_mlcs_has_dense(s)) {
        nsdae_status st = nsdae_mlcs_dense_phases(s, &p->dense_phases, err);
        if (st != NSDAE_OK) return st;
        p->dense_view = *s;
        p->dense_view.phases = p->dense_phases;
        p->dense = &p->dense_view;
    }
    nsdae_status st = step_mlcp_init(&p->sm, p->dense, err);
    if (st == NSDAE_OK) p->have_dense = 1;
    return st;
}

/* One step from (t0, y) to t0 + h into z, w: sparse when it applies, else dense. *residual: the
 * step MLCP's max-norm residual at z, from the path that solved it. */
static nsdae_status path_step(step_paths *p, const nsdae_mlcs *s, const nsdae_stepper_options *o, selection *sel,
                              nsdae_lcp_workspace *lws, double t0, double h, double theta, double gamma,
                              const double *y, double *z, double *w, long *nsol, int *sparse, double *residual,
                              nsdae_error *err)
{
    *sparse = 0;
    memcpy(p->lambda0, z + s->ny, (size_t)s->nl * sizeof *z);
    if (p->have_sparse) {
        int r = sparse_step_prepare(&p->ss, s, t0, h, theta, gamma, o->gamma_relation, y, p->lambda0);
        if (r < 0) return nsdae_error_set(err, NSDAE_NOMEM, "stepper: out of memory");
        nsdae_status st = NSDAE_UNSUPPORTED;
        if (r == 1) st = sparse_step_solve(&p->ss, z, w, err);
        else if (o->solver == NSDAE_STEP_SOLVER_SPARSE)
            nsdae_error_set(err, st, "stepper: the sparse path has no single-solution certificate for this step "
                                     "(singular step matrix, or an LCP whose symmetric part is not positive definite)");
        if (st == NSDAE_OK) {
            *nsol = 1;
            *sparse = 1;
            *residual = p->ss.residual;
            return NSDAE_OK;
        }
        if (o->solver == NSDAE_STEP_SOLVER_SPARSE) return st;
    }
    if (!p->have_dense) {
        nsdae_status st = dense_path_init(p, s, err);
        if (st != NSDAE_OK) return st;
    }
    step_mlcp_build(&p->sm, p->dense, t0, h, theta, gamma, o->gamma_relation, y, p->lambda0);
    nsdae_status st = solve_step(&p->sm, o, sel, lws, y, z, w, nsol, err);
    /* minimal norm returns only an answer that passed this very check on this MLCP (workspace.c) */
    if (st == NSDAE_OK && o->scheme == NSDAE_SCHEME_EULER) st = accept_step(&p->sm, z, err);
    if (st == NSDAE_OK) *residual = step_mlcp_residual(&p->sm, z);
    return st;
}

nsdae_status nsdae_stepper_run(const nsdae_mlcs *s, const nsdae_stepper_options *o, nsdae_step_callback cb,
                               void *ctx, double *y_end, nsdae_stepper_summary *summary, nsdae_error *err)
{
    nsdae_stepper_summary sum = {0};
    if (summary) *summary = sum;
    const double theta = scheme_theta(o), gamma = scheme_gamma(o);
    nsdae_time_grid grid;
    nsdae_status st = nsdae_time_grid_make(o->t0, o->stop, o->nsteps, o->step, &grid, err);
    if (st == NSDAE_OK) st = check_options(s, o, theta, err);
    if (st != NSDAE_OK) return st;

    const long n = grid.n;
    const size_t size = (size_t)s->ny + (size_t)s->nl;
    sum.h = grid.h;
    sum.t_end = o->t0;
    step_paths paths;
    selection sel = {0};
    nsdae_lcp_workspace *lws = NULL;
    st = paths_init(&paths, s, o, err);
    if (st == NSDAE_OK) st = selection_init(&sel, s, o, err);
    if (st == NSDAE_OK) st = nsdae_lcp_workspace_create(&lws, err);
    double *y = calloc((size_t)s->ny + 1, sizeof *y);
    double *z = calloc(size + 1, sizeof *z);
    double *w = calloc(size + 1, sizeof *w);
    if (st == NSDAE_OK && (!y || !z || !w)) st = nsdae_error_set(err, NSDAE_NOMEM, "stepper: out of memory");
    if (st != NSDAE_OK) goto done;

    memcpy(y, s->y0, (size_t)s->ny * sizeof *y);
    nsdae_step_record rec = {0, o->t0, y, z + s->ny, 0, 0.0};
    if (cb && cb(&rec, ctx)) goto done;

    for (long k = 0; k < n; k++) {
        /* every full step uses exactly h (time_grid.h): the LCP workspace then sees one step matrix */
        double t0 = nsdae_time_grid_time(&grid, k), t1 = nsdae_time_grid_time(&grid, k + 1);
        double hk = nsdae_time_grid_step(&grid, k);
        /* z still holds the previous step's multipliers (0 at t0, as Siconos starts r at 0): the
         * lambda_k of gamma < 1, read before the step overwrites z */
        long nsol = 0;
        int sparse = 0;
        double residual = 0.0;
        st = path_step(&paths, s, o, &sel, lws, t0, hk, theta, gamma, y, z, w, &nsol, &sparse, &residual, err);
        if (st != NSDAE_OK) {
            char state[400];
            format_state(state, sizeof state, s, y);
            char cause[NSDAE_ERROR_MESSAGE_SIZE];
            snprintf(cause, sizeof cause, "%s", err ? err->message : "");
            if (st == NSDAE_NO_SOLUTION)
                nsdae_error_set(err, st, "step %ld from t = %.17g to %.17g has no solution; state at t: %s", k + 1,
                                t0, t1, state);
            else
                nsdae_error_set(err, st, "step %ld from t = %.17g to %.17g failed (%s); state at t: %s", k + 1, t0,
                                t1, cause, state);
            goto done;
        }
        memcpy(y, z, (size_t)s->ny * sizeof *y);
        sum.steps = k + 1;
        sum.t_end = t1;
        sum.sparse += sparse;
        if (nsol > 1 || nsol < 0) sum.several++;
        if (nsol == 0) sum.uncounted++;
        if (nsol < 0) sum.continuum++;
        rec = (nsdae_step_record){k + 1, t1, y, z + s->ny, nsol, residual};
        if (cb && cb(&rec, ctx)) break;
    }
done:
    if (y_end && y) memcpy(y_end, y, (size_t)s->ny * sizeof *y);
    if (summary) *summary = sum;
    free(y); free(z); free(w);
    selection_free(&sel);
    nsdae_lcp_workspace_destroy(lws);
    paths_free(&paths, s);
    return st;
}
