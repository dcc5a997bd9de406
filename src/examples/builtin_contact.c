/* The built-in contact examples (builtin_contact.h), written directly in the Lagrangian contact
 * form: the callbacks below are what the model translator will generate from .nsm models. */
#include "examples/builtin_contact.h"

#include "examples/builtin_params.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define MAX_PARAMS 10

typedef struct contact_builtin {
    const char *name;
    const char *description;
    builtin_param params[MAX_PARAMS];
    nsdae_status (*build)(const double *p, nsdae_lagrangian **out, nsdae_error *err);
} contact_builtin;

/* The parameters every example's callbacks read, copied into the system's context. */
typedef struct params_ctx {
    int n;            /* number of bodies (beads) */
    double m, g, r, L;
} params_ctx;

static nsdae_status attach_ctx(nsdae_lagrangian *s, params_ctx c, nsdae_error *err)
{
    params_ctx *p = malloc(sizeof *p);
    if (!p) return nsdae_error_set(err, NSDAE_NOMEM, "builtin: out of memory");
    *p = c;
    s->ctx = p;
    s->ctx_free = free;
    return NSDAE_OK;
}

/* m I, shared by every example (point masses). */
static int mass_diagonal(const double *q, double *M, void *ctx)
{
    (void)q;
    const params_ctx *p = ctx;
    const int n = p->n;
    memset(M, 0, (size_t)n * n * sizeof *M);
    for (int j = 0; j < n; j++) M[j + (size_t)j * n] = p->m;
    return 0;
}

/* ---- bouncing ball: q the height, gap q ------------------------------------------------------- */

static int ball_forces(double t, const double *q, const double *v, double *F, void *ctx)
{
    (void)t; (void)q; (void)v;
    const params_ctx *p = ctx;
    F[0] = -p->m * p->g;
    return 0;
}

static int ball_gaps(const double *q, double *g, void *ctx)
{
    (void)ctx;
    g[0] = q[0];
    return 0;
}

static int ball_jacobian(const double *q, double *G, void *ctx)
{
    (void)q; (void)ctx;
    G[0] = 1.0;
    return 0;
}

static nsdae_status build_ball(const double *p, nsdae_lagrangian **out, nsdae_error *err)
{
    nsdae_lagrangian *s;
    nsdae_status st = nsdae_lagrangian_create(1, 1, &s, err);
    if (st != NSDAE_OK) return st;
    s->q0[0] = p[0];
    s->v0[0] = p[1];
    s->restitution[0] = p[4];
    s->mass = mass_diagonal;
    s->mass_constant = 1;
    s->forces = ball_forces;
    s->gaps = ball_gaps;
    s->gap_jacobian = ball_jacobian;
    s->stop_time = 10.0;
    s->step = 0.005;
    st = attach_ctx(s, (params_ctx){1, p[3], p[2], 0.0, 0.0}, err);
    if (st == NSDAE_OK) st = nsdae_lagrangian_set_name(s, 'q', 0, "q", err);
    if (st == NSDAE_OK) st = nsdae_lagrangian_set_name(s, 'c', 0, "ground", err);
    if (st != NSDAE_OK) nsdae_lagrangian_destroy(s);
    else *out = s;
    return st;
}

/* ---- column of beads: q_i the height of bead i's centre (i = 0 lowest) ------------------------- */

static int beads_forces(double t, const double *q, const double *v, double *F, void *ctx)
{
    (void)t; (void)q; (void)v;
    const params_ctx *p = ctx;
    for (int i = 0; i < p->n; i++) F[i] = -p->m * p->g;
    return 0;
}

/* contact 0: ground-bead 0, q_0 - r; contact i: bead i-1 - bead i, q_i - q_{i-1} - 2r */
static int beads_gaps(const double *q, double *g, void *ctx)
{
    const params_ctx *p = ctx;
    g[0] = q[0] - p->r;
    for (int i = 1; i < p->n; i++) g[i] = q[i] - q[i - 1] - 2.0 * p->r;
    return 0;
}

static int beads_jacobian(const double *q, double *G, void *ctx)
{
    (void)q;
    const params_ctx *p = ctx;
    const int n = p->n;
    memset(G, 0, (size_t)n * n * sizeof *G);
    G[0] = 1.0;
    for (int i = 1; i < n; i++) {
        G[i + (size_t)i * n] = 1.0;
        G[i + (size_t)(i - 1) * n] = -1.0;
    }
    return 0;
}

static nsdae_status build_beads(const double *p, nsdae_lagrangian **out, nsdae_error *err)
{
    const double nb = p[0];
    if (!(nb >= 1.0 && nb <= 1000.0 && nb == floor(nb)))
        return nsdae_error_set(err, NSDAE_INVALID_INPUT, "beads: n = %g must be an integer in [1, 1000]", nb);
    const int n = (int)nb;
    nsdae_lagrangian *s;
    nsdae_status st = nsdae_lagrangian_create(n, n, &s, err);
    if (st != NSDAE_OK) return st;
    const double r = p[1], gap0 = p[3];
    for (int i = 0; i < n; i++) {
        s->q0[i] = (i == 0 ? r : s->q0[i - 1] + 2.0 * r) + gap0;
        s->restitution[i] = p[4];
    }
    s->mass = mass_diagonal;
    s->mass_constant = 1;
    s->forces = beads_forces;
    s->gaps = beads_gaps;
    s->gap_jacobian = beads_jacobian;
    s->stop_time = 2.0;
    s->step = 0.001;
    st = attach_ctx(s, (params_ctx){n, p[2], p[5], r, 0.0}, err);
    char name[32];
    for (int i = 0; i < n && st == NSDAE_OK; i++) {
        snprintf(name, sizeof name, "z%d", i + 1);
        st = nsdae_lagrangian_set_name(s, 'q', i, name, err);
        if (i == 0) snprintf(name, sizeof name, "ground_z1");
        else snprintf(name, sizeof name, "z%d_z%d", i, i + 1);
        if (st == NSDAE_OK) st = nsdae_lagrangian_set_name(s, 'c', i, name, err);
    }
    if (st != NSDAE_OK) nsdae_lagrangian_destroy(s);
    else *out = s;
    return st;
}

/* ---- cup-and-ball (Benveniste et al. 2021, 2026): q = (x, y), gap L^2 - (x^2 + y^2) ---------- */

static int cup_forces(double t, const double *q, const double *v, double *F, void *ctx)
{
    (void)t; (void)q; (void)v;
    const params_ctx *p = ctx;
    F[0] = 0.0;
    F[1] = -p->m * p->g;
    return 0;
}

static int cup_gaps(const double *q, double *g, void *ctx)
{
    const params_ctx *p = ctx;
    g[0] = p->L * p->L - (q[0] * q[0] + q[1] * q[1]);
    return 0;
}

static int cup_jacobian(const double *q, double *G, void *ctx)
{
    (void)ctx;
    G[0] = -2.0 * q[0];
    G[1] = -2.0 * q[1];
    return 0;
}

static nsdae_status build_cup(const double *p, nsdae_lagrangian **out, nsdae_error *err)
{
    if (!(p[0] > 0.0)) return nsdae_error_set(err, NSDAE_INVALID_INPUT, "cup-and-ball: L = %g must be > 0", p[0]);
    nsdae_lagrangian *s;
    nsdae_status st = nsdae_lagrangian_create(2, 1, &s, err);
    if (st != NSDAE_OK) return st;
    s->q0[0] = p[4]; s->q0[1] = p[5];
    s->v0[0] = p[6]; s->v0[1] = p[7];
    s->restitution[0] = p[3];
    s->mass = mass_diagonal;
    s->mass_constant = 1;
    s->forces = cup_forces;
    s->gaps = cup_gaps;
    s->gap_jacobian = cup_jacobian;
    s->stop_time = 2.0;
    s->step = 0.001;
    st = attach_ctx(s, (params_ctx){2, p[1], p[2], 0.0, p[0]}, err);
    if (st == NSDAE_OK) st = nsdae_lagrangian_set_name(s, 'q', 0, "x", err);
    if (st == NSDAE_OK) st = nsdae_lagrangian_set_name(s, 'q', 1, "y", err);
    if (st == NSDAE_OK) st = nsdae_lagrangian_set_name(s, 'c', 0, "rope", err);
    if (st != NSDAE_OK) nsdae_lagrangian_destroy(s);
    else *out = s;
    return st;
}

static const contact_builtin builtins[] = {
    {"bouncing-ball", "ball on the ground, q0 = 1, e = 0.9: impacts accumulate at t = 8.578949 s, then rest",
     {{"q0", 1.0}, {"v0", 0.0}, {"g", 9.81}, {"m", 1.0}, {"e", 0.9}}, build_ball},
    {"beads", "column of 10 beads (r = 0.1, m = 1) falling on the ground, initial gaps 0.25, e = 0.9",
     {{"n", 10.0}, {"r", 0.1}, {"m", 1.0}, {"gap0", 0.25}, {"e", 0.9}, {"g", 9.81}}, build_beads},
    {"cup-and-ball", "ball on a rope of length L = 1 (Benveniste et al. 2021, 2026), gap L^2 - (x^2 + y^2), "
                     "e = 0 or 1",
     {{"L", 1.0}, {"m", 1.0}, {"g", 9.81}, {"e", 0.0}, {"x0", 0.5}, {"y0", -0.7}, {"vx0", 1.0}, {"vy0", -1.0}},
     build_cup},
};
#define NBUILTINS (sizeof builtins / sizeof builtins[0])

const char *const *nsdae_builtin_contact_names(void)
{
    static const char *names[NBUILTINS + 1];
    for (size_t i = 0; i < NBUILTINS; i++) names[i] = builtins[i].name;
    names[NBUILTINS] = NULL;
    return names;
}

static const contact_builtin *find(const char *name)
{
    for (size_t i = 0; name && i < NBUILTINS; i++)
        if (strcmp(builtins[i].name, name) == 0) return &builtins[i];
    return NULL;
}

int nsdae_builtin_contact_params(const char *name, const char **names, double *defaults, int max)
{
    const contact_builtin *b = find(name);
    return b ? builtin_params_list(b->params, MAX_PARAMS, names, defaults, max) : 0;
}

const char *nsdae_builtin_contact_description(const char *name)
{
    const contact_builtin *b = find(name);
    return b ? b->description : NULL;
}

nsdae_status nsdae_builtin_contact_create(const char *name, const nsdae_param_value *params, int nparams,
                                          nsdae_lagrangian **out, nsdae_error *err)
{
    *out = NULL;
    char known[200];
    const contact_builtin *b = find(name);
    if (!b) {
        builtin_list_names(known, sizeof known, nsdae_builtin_contact_names(), (int)NBUILTINS);
        return nsdae_error_set(err, NSDAE_INVALID_INPUT, "unknown contact example '%s' (known: %s)",
                               name ? name : "", known);
    }
    double p[MAX_PARAMS];
    nsdae_status st = builtin_params_resolve(b->name, b->params, MAX_PARAMS, params, nparams, p, err);
    if (st != NSDAE_OK) return st;
    return b->build(p, out, err);
}
