/* The woodpecker (examples/woodpecker.nsm: three frictional contacts, a spring taken implicitly)
 * by nsdae's Moreau-Jean against Siconos' kernel on the same model in Siconos' own form
 * (validation/bench/siconos_peer/siconos_woodpecker_peer.cpp), both run here: the numbers come
 * from the Siconos kernel, not from nsdae. 15000 steps of h = 2e-5 with hundreds of impacts and
 * stick-slip transitions: any difference in the contact law, the activation rule or the force
 * treatment would grow far above round-off (taking the spring explicitly gave 50 % on the
 * velocities). Built only with the peer, hence not named test_*.c. */
#include "lag_helpers.h"

#include <nsdae/moreau.h>

#include <math.h>
#include <stdio.h>
#include <stdlib.h>

#define NSTATE 6
#define MAX_ROWS 15002

typedef struct trajectory {
    long n;
    double t[MAX_ROWS], x[MAX_ROWS][NSTATE]; /* y, y', phiM, phiM', phiS, phiS' */
    long sticking;                            /* nsdae: steps with a sticking frictional contact */
} trajectory;

static trajectory ours, peer;

static int record(const nsdae_contact_record *r, void *ctx)
{
    trajectory *tr = ctx;
    cr_assert_lt(r->k, MAX_ROWS);
    tr->t[r->k] = r->t;
    for (int j = 0; j < 3; j++) {
        tr->x[r->k][2 * j] = r->q[j];
        tr->x[r->k][2 * j + 1] = r->v[j];
    }
    for (int c = 0; c < 3; c++) tr->sticking += r->P[c] > 0.0 && fabs(r->Pt[c]) < 0.3 * r->P[c] * (1.0 - 1e-9);
    tr->n = r->k + 1;
    return 0;
}

static void run_peer(double h, double T, double theta, trajectory *tr)
{
    char cmd[1024];
    snprintf(cmd, sizeof cmd, "'%s' %.17g %.17g %.17g", NSDAE_SICONOS_WOODPECKER_PEER, h, T, theta);
    FILE *f = popen(cmd, "r");
    cr_assert_not_null(f, "cannot run %s", cmd);
    char line[1024];
    tr->n = 0;
    while (fgets(line, sizeof line, f)) {
        cr_assert_lt(tr->n, MAX_ROWS);
        double *x = tr->x[tr->n];
        cr_assert_eq(sscanf(line, "%lf,%lf,%lf,%lf,%lf,%lf,%lf", &tr->t[tr->n], &x[0], &x[1], &x[2], &x[3], &x[4], &x[5]),
                     7, "peer row '%s'", line);
        tr->n++;
    }
    cr_assert_eq(pclose(f), 0, "%s failed", cmd);
}

Test(peer_siconos_woodpecker, trajectory_matches_siconos_kernel)
{
    const double h = 2e-5, T = 0.3, theta = 0.5;
    nsdae_lagrangian *s = lag_example("woodpecker", NULL, 0);
    cr_assert_eq(s->ndof, 3);
    cr_assert_eq(s->ncontacts, 3);
    nsdae_moreau_options o;
    nsdae_moreau_defaults(&o);
    o.theta = theta;
    o.stop = T;
    o.nsteps = 15000;
    nsdae_error err = {0};
    cr_assert_eq(nsdae_moreau_run(s, &o, record, &ours, NULL, NULL, NULL, &err), NSDAE_OK, "%s", err.message);
    nsdae_lagrangian_destroy(s);
    run_peer(h, T, theta, &peer);

    cr_assert_eq(ours.n, peer.n, "%ld rows against the peer's %ld", ours.n, peer.n);
    cr_expect_gt(ours.sticking, 100, "no sticking contact: the friction law was not exercised");
    static const char *names[NSTATE] = {"y", "der(y)", "phiM", "der(phiM)", "phiS", "der(phiS)"};
    for (int j = 0; j < NSTATE; j++) {
        double d = 0.0, scale = 0.0;
        for (long k = 0; k < ours.n; k++) {
            cr_assert_leq(fabs(ours.t[k] - peer.t[k]), 1e-12, "t differs at row %ld", k);
            d = fmax(d, fabs(ours.x[k][j] - peer.x[k][j]));
            scale = fmax(scale, fabs(peer.x[k][j]));
        }
        printf("woodpecker %-10s max |nsdae - Siconos| = %.3e (relative %.2e)\n", names[j], d, d / scale);
        cr_expect_leq(d, 1e-10 * scale, "%s off by %.3g relative", names[j], d / scale);
    }
}
