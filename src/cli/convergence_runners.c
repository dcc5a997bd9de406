/* What `nsdae converge` compares for each kind of system. */
#include "cli/convergence.h"
#include "cli/crosscheck_track.h"

#include <stdio.h>
#include <stdlib.h>

static int mlcs_final(void *ctx, long n, double *x)
{
    mlcs_runner *r = ctx;
    nsdae_stepper_options o = r->base;
    o.nsteps = n;
    nsdae_error err = {0};
    if (nsdae_stepper_run(r->s, &o, NULL, NULL, r->y, NULL, &err) != NSDAE_OK) {
        fprintf(stderr, "nsdae converge: run with N = %ld: %s\n", n, err.message);
        return 0;
    }
    for (int j = 0, k = 0; j < r->s->ny; j++)
        if (r->diff[j]) x[k++] = r->y[j];
    return 1;
}

static int mlcs_exact(void *ctx, double *x)
{
    mlcs_runner *r = ctx;
    return r->ro->src.example && nsdae_builtin_exact(r->ro->src.example, r->ro->src.params.v, r->ro->src.params.n, r->base.stop, x);
}

/* The engine's state at stop, on the same system and grid end, with --rtol and --atol. */
static int mlcs_events(void *ctx, double *x)
{
    mlcs_runner *r = ctx;
    xc_system sys;
    int rc = xc_system_mlcs(&sys, r->s, &r->base, r->ro->rtol, r->ro->atol);
    if (!rc) rc = xc_engine_final(&sys, "converge", x);
    xc_system_free(&sys);
    return !rc;
}

int mlcs_runner_init(mlcs_runner *r, convergence_runner *run, const nsdae_mlcs *s, const nsdae_stepper_options *base,
                     const run_options *ro)
{
    r->s = s;
    r->base = *base;
    r->ro = ro;
    r->diff = calloc((size_t)s->ny, sizeof *r->diff);
    r->y = calloc((size_t)s->ny, sizeof *r->y);
    if (!r->diff || !r->y) {
        fprintf(stderr, "nsdae converge: out of memory\n");
        mlcs_runner_free(r);
        return 0;
    }
    *run = (convergence_runner){nsdae_mlcs_differential(s, r->diff), base->t0, base->stop,
                                base->scheme == NSDAE_SCHEME_EULER   ? "euler"
                                : base->scheme == NSDAE_SCHEME_THETA ? "theta"
                                                                     : "minnorm",
                                mlcs_final, mlcs_exact, mlcs_events, r};
    return 1;
}

void mlcs_runner_free(mlcs_runner *r)
{
    free(r->diff);
    free(r->y);
    r->diff = NULL;
    r->y = NULL;
}

static int moreau_final(void *ctx, long n, double *x)
{
    moreau_runner *r = ctx;
    nsdae_moreau_options o = r->base;
    o.nsteps = n;
    nsdae_error err = {0};
    if (nsdae_moreau_run(r->s, &o, NULL, NULL, x, x + r->s->ndof, NULL, &err) != NSDAE_OK) {
        fprintf(stderr, "nsdae converge: run with N = %ld: %s\n", n, err.message);
        return 0;
    }
    return 1;
}

static int moreau_events(void *ctx, double *x)
{
    moreau_runner *r = ctx;
    xc_system sys;
    int rc = xc_system_contact(&sys, r->s, &r->base, r->ro->rtol, r->ro->atol);
    if (!rc) rc = xc_engine_final(&sys, "converge", x);
    xc_system_free(&sys);
    return !rc;
}

void moreau_runner_init(moreau_runner *r, convergence_runner *run, const nsdae_lagrangian *s,
                        const nsdae_moreau_options *base, const run_options *ro)
{
    r->s = s;
    r->base = *base;
    r->ro = ro;
    *run = (convergence_runner){2 * s->ndof, base->t0, base->stop, "moreau", moreau_final, NULL, moreau_events, r};
}
