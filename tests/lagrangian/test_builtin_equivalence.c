/* The translated example models reproduce the hand-written built-ins (builtin_contact.c) step by
 * step under Moreau-Jean: same positions, velocities and percussions to 1e-12, same active sets. */
#include "lag_helpers.h"

#include "examples/builtin_contact.h"
#include <nsdae/moreau.h>

#include <math.h>
#include <stdlib.h>

#define TOL 1e-12

typedef struct trace {
    int n, m;
    long rows, cap;
    double *t, *x;             /* per row: q (n), v (n), P (m) */
    int *active;               /* per row: m */
} trace;

static int record(const nsdae_contact_record *r, void *ctx)
{
    trace *tr = ctx;
    const int w = 2 * tr->n + tr->m;
    if (tr->rows == tr->cap) {
        tr->cap = tr->cap ? 2 * tr->cap : 1024;
        tr->t = realloc(tr->t, (size_t)tr->cap * sizeof *tr->t);
        tr->x = realloc(tr->x, (size_t)tr->cap * w * sizeof *tr->x);
        tr->active = realloc(tr->active, (size_t)tr->cap * tr->m * sizeof *tr->active);
        cr_assert(tr->t && tr->x && tr->active);
    }
    double *row = tr->x + (size_t)tr->rows * w;
    for (int j = 0; j < tr->n; j++) {
        row[j] = r->q[j];
        row[tr->n + j] = r->v[j];
    }
    for (int c = 0; c < tr->m; c++) {
        row[2 * tr->n + c] = r->P[c];
        tr->active[(size_t)tr->rows * tr->m + c] = r->active[c];
    }
    tr->t[tr->rows++] = r->t;
    return 0;
}

static trace run(const nsdae_lagrangian *s, double stop, long nsteps)
{
    trace tr = {s->ndof, s->ncontacts, 0, 0, NULL, NULL, NULL};
    nsdae_moreau_options o;
    nsdae_moreau_defaults(&o);
    o.stop = stop;
    o.nsteps = nsteps;
    nsdae_error err = {0};
    cr_assert_eq(nsdae_moreau_run(s, &o, record, &tr, NULL, NULL, NULL, &err), NSDAE_OK, "%s", err.message);
    return tr;
}

static void free_trace(trace *tr)
{
    free(tr->t); free(tr->x); free(tr->active);
}

/* Same run for the built-in and the translated model; returns the largest difference. */
static double compare(const char *builtin, const nsdae_param_value *bp, int nbp, const char *model,
                      const nsdae_param_value *mp, int nmp, double stop, long nsteps)
{
    nsdae_lagrangian *a = NULL;
    nsdae_error err = {0};
    cr_assert_eq(nsdae_builtin_contact_create(builtin, bp, nbp, &a, &err), NSDAE_OK, "%s", err.message);
    nsdae_lagrangian *b = lag_example(model, mp, nmp);
    cr_assert_eq(a->ndof, b->ndof);
    cr_assert_eq(a->ncontacts, b->ncontacts);
    cr_expect_eq(a->mass_constant, b->mass_constant);
    for (int c = 0; c < a->ncontacts; c++) cr_expect_eq(a->restitution[c], b->restitution[c]);
    trace ta = run(a, stop, nsteps), tb = run(b, stop, nsteps);
    cr_assert_eq(ta.rows, nsteps + 1);
    cr_assert_eq(tb.rows, ta.rows);
    const int w = 2 * a->ndof + a->ncontacts;
    double worst = 0.0;
    long impacts = 0;
    for (long k = 0; k < ta.rows; k++) {
        cr_assert_eq(ta.t[k], tb.t[k]);
        for (int i = 0; i < w; i++) {
            double d = fabs(ta.x[(size_t)k * w + i] - tb.x[(size_t)k * w + i]);
            worst = fmax(worst, d);
            cr_assert(d <= TOL, "%s: step %ld, entry %d: %.17g vs %.17g", model, k, i, ta.x[(size_t)k * w + i],
                      tb.x[(size_t)k * w + i]);
        }
        for (int c = 0; c < a->ncontacts; c++) {
            cr_assert_eq(ta.active[(size_t)k * a->ncontacts + c], tb.active[(size_t)k * a->ncontacts + c],
                         "%s: step %ld, contact %d", model, k, c);
            impacts += ta.x[(size_t)k * w + 2 * a->ndof + c] > 0.0;
        }
    }
    cr_expect(impacts > 0, "%s: no percussion at all: nothing was compared at the contacts", model);
    printf("%-14s vs %-13s %ld steps, %ld percussions: max difference %.3e\n", model, builtin, nsteps, impacts,
           worst);
    free_trace(&ta);
    free_trace(&tb);
    nsdae_lagrangian_destroy(a);
    nsdae_lagrangian_destroy(b);
    return worst;
}

Test(lagrangian_equivalence, bouncing_ball)
{
    compare("bouncing-ball", NULL, 0, "bouncing_ball", NULL, 0, 10.0, 2000);
    const nsdae_param_value p[] = {{"e", 0.5}, {"m", 3.0}, {"g", 2.0}}; /* overrides reach the callbacks */
    compare("bouncing-ball", p, 3, "bouncing_ball", p, 3, 4.0, 1000);
}

Test(lagrangian_equivalence, cup_and_ball_inelastic_and_elastic)
{
    for (int e = 0; e <= 1; e++) {
        const nsdae_param_value p[] = {{"e", e}};
        compare("cup-and-ball", p, 1, "cup_and_ball", p, 1, 2.0, 2000);
    }
    /* the restart test point of tests/impulse/test_cup_and_ball.c (no gravity, taut at (0.6, -0.8)) */
    const nsdae_param_value p[] = {{"g", 0.0}, {"x0", 0.6 - 0.0105}, {"y0", -0.8 + 0.0105}, {"e", 1.0}};
    compare("cup-and-ball", p, 4, "cup_and_ball", p, 4, 0.05, 50);
}

Test(lagrangian_equivalence, bead_column)
{
    compare("beads", NULL, 0, "bead_column", NULL, 0, 2.0, 2000);
}
