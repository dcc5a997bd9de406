/* The examples written with arrays and loops, through the public API (parse, translate, step):
 *  - bead_column.nsm (N = 10) against its bead-by-bead form, step by step under Moreau-Jean;
 *  - bead_column.nsm with N = 1000: sizes follow the override, the column falls freely;
 *  - diode_ladder.nsm: its DC steady state against a direct solve of the resistive network, and
 *    N = 1 against the hand-written single cell. */
#include <criterion/criterion.h>

#include <nsdae/eventdriven.h>
#include <nsdae/model.h>
#include <nsdae/moreau.h>
#include <nsdae/stepper.h>
#include <nsdae/translate.h>
#include <nsdae/translate_lagrangian.h>

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define EXAMPLES NSDAE_SOURCE_DIR "/examples/"
#define MODELS NSDAE_SOURCE_DIR "/tests/examples/models/"

typedef struct param {
    const char *name;
    double value;
} param;

static nsdae_model *load(const char *path, const param *p, int np)
{
    nsdae_model *m = NULL;
    nsdae_error err = {0};
    cr_assert_eq(nsdae_model_parse_file(path, &m, &err), NSDAE_OK, "%s", err.message);
    for (int k = 0; k < np; k++)
        cr_assert_eq(nsdae_model_set_param(m, p[k].name, p[k].value, &err), NSDAE_OK, "%s", err.message);
    return m;
}

/* ---- contact models: every step's q, v, P ---------------------------------------------------- */

typedef struct rows {
    int w;
    long n, cap;
    double *x;
} rows;

static double *new_row(rows *r)
{
    if (r->n == r->cap) {
        r->cap = r->cap ? 2 * r->cap : 1024;
        r->x = realloc(r->x, (size_t)r->cap * r->w * sizeof *r->x);
        cr_assert_not_null(r->x);
    }
    return r->x + (size_t)r->n++ * r->w;
}

static int record_contact(const nsdae_contact_record *rec, void *ctx)
{
    rows *r = ctx;
    const int n = (r->w - 1) / 3; /* w = 1 + 2 ndof + ncontacts, and ndof = ncontacts here */
    double *row = new_row(r);
    row[0] = rec->t;
    for (int j = 0; j < n; j++) {
        row[1 + j] = rec->q[j];
        row[1 + n + j] = rec->v[j];
        row[1 + 2 * n + j] = rec->P[j];
    }
    return 0;
}

static rows run_contact(const char *path, const param *p, int np, double stop, long nsteps)
{
    nsdae_model *m = load(path, p, np);
    nsdae_lagrangian *s = NULL;
    nsdae_error err = {0};
    cr_assert_eq(nsdae_translate_lagrangian(m, &s, &err), NSDAE_OK, "%s", err.message);
    nsdae_model_destroy(m);
    cr_assert_eq(s->ndof, s->ncontacts);
    rows r = {1 + 3 * s->ndof, 0, 0, NULL};
    nsdae_moreau_options o;
    nsdae_moreau_defaults(&o);
    o.stop = stop;
    o.nsteps = nsteps;
    cr_assert_eq(nsdae_moreau_run(s, &o, record_contact, &r, NULL, NULL, NULL, &err), NSDAE_OK, "%s", err.message);
    nsdae_lagrangian_destroy(s);
    return r;
}

Test(arrays_examples, bead_column_equals_the_bead_by_bead_model)
{
    /* The scalar file is the example as written before arrays: an independent statement of the
     * same column. Same variable and equation order, so the same arithmetic: round-off at most. */
    rows a = run_contact(EXAMPLES "bead_column.nsm", NULL, 0, 2.0, 2000);
    rows b = run_contact(MODELS "bead_column_scalar.nsm", NULL, 0, 2.0, 2000);
    cr_assert_eq(a.w, 31);
    cr_assert_eq(a.n, 2001);
    cr_assert_eq(b.n, a.n);
    double worst = 0.0;
    long percussions = 0;
    for (long k = 0; k < a.n; k++)
        for (int i = 0; i < a.w; i++) {
            double x = a.x[(size_t)k * a.w + i], y = b.x[(size_t)k * a.w + i];
            worst = fmax(worst, fabs(x - y));
            cr_assert(fabs(x - y) <= 1e-12, "step %ld, column %d: %.17g vs %.17g", k, i, x, y);
            percussions += i > 20 && x > 0.0;
        }
    cr_expect(percussions > 100, "only %ld percussions: the cascade was not compared", percussions);
    printf("bead_column arrays vs scalar: 2000 steps, %ld percussions, max difference %.3e\n", percussions, worst);
    free(a.x);
    free(b.x);
}

Test(arrays_examples, bead_column_with_1000_beads_falls_freely)
{
    /* N = 1000 through the override (as --param N=1000). Before bead 1 reaches the ground
     * (t = 0.2258) nothing touches: v = -g t exactly under Moreau-Jean (v += -g h per step), and
     * the positions are the free fall's to O(h): |q - (q0 - g t^2/2)| <= g h t. */
    const param p[] = {{"N", 1000}};
    nsdae_model *m = load(EXAMPLES "bead_column.nsm", p, 1);
    cr_assert_eq(nsdae_model_nvars(m), 2000);
    cr_assert_eq(nsdae_model_nequations(m), 2000);
    cr_expect_str_eq(nsdae_model_var(m, 999)->name, "z[1000]");
    cr_expect_str_eq(nsdae_model_var(m, 1999)->name, "lambda[1000]");
    nsdae_model_destroy(m);

    const double g = 9.81, h = 0.001, r = 0.1, gap0 = 0.25;
    rows a = run_contact(EXAMPLES "bead_column.nsm", p, 1, 5 * h, 5);
    cr_assert_eq(a.n, 6);
    const int n = 1000;
    for (long k = 0; k < a.n; k++) {
        const double *row = a.x + (size_t)k * a.w, t = row[0];
        for (int i = 0; i < n; i++) {
            double q0 = r + gap0 + i * (2 * r + gap0);
            cr_assert(fabs(row[1 + i] - (q0 - 0.5 * g * t * t)) <= g * h * t + 1e-12, "bead %d, t = %g: z = %.17g",
                      i + 1, t, row[1 + i]);
            cr_assert(fabs(row[1 + n + i] + g * t) <= 1e-12, "bead %d, t = %g: v = %.17g", i + 1, t, row[1 + n + i]);
            cr_assert_eq(row[1 + 2 * n + i], 0.0);
        }
    }
    free(a.x);
}

Test(arrays_examples, bead_column_with_100_beads_runs_its_cascade)
{
    /* A resting stack must run at any height (issue 12): at N = 100 the contact LCPs have rows
     * whose q_i is a rounding residue (-8.4e-16) with every z_j entering them at zero, and a
     * per-row check that gives components at zero no rounding allowance refused Siconos' answer
     * at step 1542. Bounds from energy alone: no bead is faster than the top one falling freely
     * from its start, v_max = sqrt(2 g q0_top) (+ g h for the step), so no contact closes by more
     * than h times two beads' speeds in a step, and positions stay within that of touching. */
    const param p[] = {{"N", 100}};
    const double g = 9.81, h = 0.001, r = 0.1, gap0 = 0.25;
    const int n = 100;
    rows a = run_contact(EXAMPLES "bead_column.nsm", p, 1, 2.0, 2000);
    cr_assert_eq(a.n, 2001);
    const double q0_top = r + gap0 + (n - 1) * (2 * r + gap0), vmax = sqrt(2 * g * q0_top) + g * h;
    for (long k = 0; k < a.n; k++) {
        const double *row = a.x + (size_t)k * a.w;
        cr_assert(row[1] >= r - h * vmax, "t = %g: bead 1 at %.17g", row[0], row[1]);
        for (int i = 0; i + 1 < n; i++)
            cr_assert(row[2 + i] - row[1 + i] >= 2 * r - 2 * h * vmax, "t = %g: beads %d and %d at %.17g, %.17g",
                      row[0], i + 1, i + 2, row[1 + i], row[2 + i]);
    }
    free(a.x);
}

/* ---- the diode ladder ---------------------------------------------------------------------- */

typedef struct ladder_run {
    const nsdae_mlcs *s;
    int n;          /* record every column of y and lambda */
    rows r;
} ladder_run;

static int record_mlcs(const nsdae_step_record *rec, void *ctx)
{
    ladder_run *L = ctx;
    double *row = new_row(&L->r);
    row[0] = rec->t;
    memcpy(row + 1, rec->y, (size_t)L->s->ny * sizeof *row);
    memcpy(row + 1 + L->s->ny, rec->lambda, (size_t)L->s->nl * sizeof *row);
    return 0;
}

static nsdae_mlcs *ladder_system(const char *path, const param *p, int np)
{
    nsdae_model *m = load(path, p, np);
    nsdae_mlcs *s = NULL;
    nsdae_error err = {0};
    cr_assert_eq(nsdae_translate_mlcs(m, &s, NULL, &err), NSDAE_OK, "%s", err.message);
    nsdae_model_destroy(m);
    return s;
}

static rows run_mlcs(const nsdae_mlcs *s, double stop, long nsteps)
{
    ladder_run L = {s, 0, {1 + s->ny + s->nl, 0, 0, NULL}};
    nsdae_stepper_options o;
    nsdae_stepper_defaults(&o);
    o.scheme = NSDAE_SCHEME_MINNORM;
    o.stop = stop;
    o.nsteps = nsteps;
    nsdae_error err = {0};
    cr_assert_eq(nsdae_stepper_run(s, &o, record_mlcs, &L, NULL, NULL, &err), NSDAE_OK, "%s", err.message);
    return L.r;
}

static int column(const nsdae_mlcs *s, const char *name)
{
    for (int j = 0; j < s->ny; j++)
        if (strcmp(s->y_names[j], name) == 0) return 1 + j;
    for (int j = 0; j < s->nl; j++)
        if (strcmp(s->l_names[j], name) == 0) return 1 + s->ny + j;
    cr_assert_fail("no column %s", name);
    return -1;
}

/* Steady state of the ladder under a DC source U, solved directly: node k (1..n) balances
 * (v[k-1] - v[k])/R - (v[k] - v[k+1])/R - v[k]/Rl - id[k] = 0 (v[0] = U, no v[n+1] term), with
 * 0 <= E - v[k] _|_ id[k] >= 0. Each node leaks, so voltages fall along the ladder and the
 * clamped nodes are a prefix 1..c: try c = 0, 1, ... and keep the first consistent one (the free
 * nodes solved by the tridiagonal (Thomas) algorithm). */
static int ladder_steady_state(int n, double U, double R, double Rl, double E, double *v, double *id)
{
    double *diag = malloc((size_t)n * sizeof *diag), *rhs = malloc((size_t)n * sizeof *rhs);
    cr_assert(diag && rhs);
    int found = -1;
    for (int c = 0; c <= n && found < 0; c++) {
        for (int k = 0; k < c; k++) v[k] = E;
        /* free nodes c..n-1 (0-based): -v[k-1]/R + (2/R + 1/Rl) v[k] - v[k+1]/R = 0 */
        double left = c == 0 ? U : E;
        for (int k = c; k < n; k++) {
            double d = (k == n - 1 ? 1.0 / R : 2.0 / R) + 1.0 / Rl, b = k == c ? left / R : 0.0;
            if (k > c) { /* eliminate v[k-1] (off-diagonals -1/R) */
                double f = (-1.0 / R) / diag[k - 1];
                d -= f * (-1.0 / R);
                b -= f * rhs[k - 1];
            }
            diag[k] = d;
            rhs[k] = b;
        }
        for (int k = n - 1; k >= c; k--) v[k] = (rhs[k] + (k < n - 1 ? v[k + 1] / R : 0.0)) / diag[k];
        int ok = 1;
        for (int k = 0; k < n; k++) {
            double prev = k == 0 ? U : v[k - 1];
            id[k] = k < c ? (prev - v[k]) / R - (k < n - 1 ? (v[k] - v[k + 1]) / R : 0.0) - v[k] / Rl : 0.0;
            if (k < c && id[k] < 0.0) ok = 0;
            if (k >= c && v[k] > E) ok = 0;
        }
        if (ok) found = c;
    }
    free(diag);
    free(rhs);
    return found;
}

Test(arrays_examples, diode_ladder_dc_steady_state)
{
    /* Time constants are at most Rl C = 10 ms (the leak bounds the decay rates from below), so
     * T = 0.3 s leaves e^-30 of the transient; implicit Euler's fixed point is the steady state. */
    const double R = 100, Rl = 1000, E = 1;
    const double sources[] = {0.5, 5.0}; /* below the rail: a linear ladder; above: node 1 clamped */
    for (int c = 0; c < 2; c++) {
        const param p[] = {{"Ua", 0.0}, {"U0", sources[c]}};
        nsdae_mlcs *s = ladder_system(EXAMPLES "diode_ladder.nsm", p, 2);
        cr_assert_eq(s->ny, 20);
        cr_assert_eq(s->nl, 10);
        rows r = run_mlcs(s, 0.3, 3000);
        const double *last = r.x + (size_t)(r.n - 1) * r.w;
        double v[10], id[10];
        int clamped = ladder_steady_state(10, sources[c], R, Rl, E, v, id);
        cr_assert_eq(clamped, c, "the direct solve clamps %d nodes", clamped);
        for (int k = 0; k < 10; k++) {
            char name[16];
            snprintf(name, sizeof name, "v[%d]", k + 1);
            double got = last[column(s, name)];
            cr_expect(fabs(got - v[k]) <= 1e-9, "U = %g: %s = %.12g, direct solve %.12g", sources[c], name, got, v[k]);
            snprintf(name, sizeof name, "id[%d]", k + 1);
            got = last[column(s, name)];
            cr_expect(fabs(got - id[k]) <= 1e-11, "U = %g: %s = %.12g, direct solve %.12g", sources[c], name, got,
                      id[k]);
        }
        free(r.x);
        nsdae_mlcs_destroy(s);
    }
}

/* The event-driven engine at size: 100 cells, 300 unknowns, so IDA solves with KLU by default
 * (NSDAE_EVENTS_SPARSE_MIN) and the mode-selection probe takes the stepper's sparse step; forced to
 * dense LU too. Both must end at the DC steady state of the direct solve (T = 0.3 s, as above). */
Test(arrays_examples, diode_ladder_of_100_cells_event_driven_reaches_the_dc_steady_state)
{
    enum { N = 100 };
    const double R = 100, Rl = 1000, E = 1, U = 5;
    const param p[] = {{"N", N}, {"Ua", 0.0}, {"U0", U}};
    nsdae_mlcs *s = ladder_system(EXAMPLES "diode_ladder.nsm", p, 3);
    cr_assert_eq(s->ny + s->nl, 3 * N);
    cr_assert(3 * N >= NSDAE_EVENTS_SPARSE_MIN);
    double v[N], id[N];
    cr_assert_eq(ladder_steady_state(N, U, R, Rl, E, v, id), 1, "the direct solve clamps node 1 only");
    const nsdae_events_linsol solvers[] = {NSDAE_EVENTS_LINSOL_AUTO, NSDAE_EVENTS_LINSOL_DENSE};
    for (int k = 0; k < 2; k++) {
        ladder_run L = {s, 0, {1 + s->ny + s->nl, 0, 0, NULL}};
        nsdae_events_options o;
        nsdae_events_defaults(&o);
        o.linsol = solvers[k];
        o.stop = 0.3;
        o.nsteps = 30;
        nsdae_events_summary sum;
        nsdae_error err = {0};
        cr_assert_eq(nsdae_events_run_mlcs(s, &o, record_mlcs, NULL, &L, &sum, &err), NSDAE_OK, "%s", err.message);
        cr_expect_eq(sum.events, 1, "node 1 clamps once: %ld events", sum.events);
        const double *last = L.r.x + (size_t)(L.r.n - 1) * L.r.w;
        cr_assert_eq(last[0], 0.3);
        for (int i = 0; i < N; i++) {
            char name[16];
            snprintf(name, sizeof name, "v[%d]", i + 1);
            double got = last[column(s, name)];
            cr_expect(fabs(got - v[i]) <= 1e-8, "solver %d: %s = %.12g, direct solve %.12g", k, name, got, v[i]);
            snprintf(name, sizeof name, "id[%d]", i + 1);
            got = last[column(s, name)];
            cr_expect(fabs(got - id[i]) <= 1e-10, "solver %d: %s = %.12g, direct solve %.12g", k, name, got, id[i]);
        }
        free(L.r.x);
    }
    nsdae_mlcs_destroy(s);
}

Test(arrays_examples, diode_ladder_of_one_cell_equals_the_hand_written_cell)
{
    /* N = 1 leaves the loops 2:N and 1:N-1 empty: what remains must be the single cell written
     * out by hand, step for step over 5 periods of the 5 V sine (clipped at E = 1 V). */
    const param p[] = {{"N", 1}};
    nsdae_mlcs *a = ladder_system(EXAMPLES "diode_ladder.nsm", p, 1);
    nsdae_mlcs *b = ladder_system(MODELS "diode_cell.nsm", NULL, 0);
    cr_assert_eq(a->ny, b->ny);
    cr_assert_eq(a->nl, b->nl);
    rows ra = run_mlcs(a, 0.1, 10000), rb = run_mlcs(b, 0.1, 10000);
    cr_assert_eq(ra.n, rb.n);
    const char *pairs[][2] = {{"v[1]", "v"}, {"ir[1]", "ir"}, {"id[1]", "id"}};
    long clipped = 0;
    for (long k = 0; k < ra.n; k++) {
        cr_assert_eq(ra.x[(size_t)k * ra.w], rb.x[(size_t)k * rb.w]);
        for (int i = 0; i < 3; i++) {
            double x = ra.x[(size_t)k * ra.w + column(a, pairs[i][0])];
            double y = rb.x[(size_t)k * rb.w + column(b, pairs[i][1])];
            cr_assert(fabs(x - y) <= 1e-12, "step %ld, %s: %.17g vs %.17g", k, pairs[i][1], x, y);
        }
        clipped += ra.x[(size_t)k * ra.w + column(a, "id[1]")] > 0.0;
    }
    cr_expect(clipped > 100, "the diode conducted at %ld steps only", clipped);
    free(ra.x);
    free(rb.x);
    nsdae_mlcs_destroy(a);
    nsdae_mlcs_destroy(b);
}
