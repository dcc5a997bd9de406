/* The built-in MLCS examples. Rocca et al. (Rocca, Acary, Brogliato) is given exactly by its MLCS
 * (16)-(17); relay-decay is our own scalar relay with a nonzero A part, whose event time ln 3 is
 * irrational so that no grid h = T/N hits it (a case that is not exact at h = T/N). */
#include "examples/builtin.h"

#include "examples/builtin_params.h"

#include <math.h>
#include <stdio.h>
#include <string.h>

#define MAX_PARAMS 8

typedef struct builtin {
    const char *name;
    const char *description;
    builtin_param params[MAX_PARAMS];
    nsdae_status (*build)(const double *p, nsdae_mlcs **out, nsdae_error *err);
    int (*exact)(const double *p, double T, double *x);
} builtin;

#define COL(a, i, j, rows) (a)[(i) + (size_t)(j) * (rows)]

/* Rocca et al. (16)-(17): y = (x1, x2, z), lambda = (|x1| - x1, 1 - alpha, x1^-), alpha in sign(x1). */
static nsdae_status build_rocca(const double *p, nsdae_mlcs **out, nsdae_error *err)
{
    const double B1 = p[0], B2 = p[1];
    nsdae_mlcs *s;
    nsdae_status st = nsdae_mlcs_create(3, 3, 1, &s, err);
    if (st != NSDAE_OK) return st;
    nsdae_mlcs_phase *ph = &s->phases[0];
    COL(ph->E, 0, 0, 3) = 1; COL(ph->E, 1, 1, 3) = 1;
    /* x1' = 1 + B1 z ; x2' = B2 z ; 0 = x1 - x2 + 1 + l1 - l2 */
    COL(ph->A, 0, 2, 3) = B1; ph->b[0] = 1;
    COL(ph->A, 1, 2, 3) = B2;
    COL(ph->A, 2, 0, 3) = 1; COL(ph->A, 2, 1, 3) = -1; ph->b[2] = 1;
    COL(ph->B, 2, 0, 3) = 1; COL(ph->B, 2, 1, 3) = -1;
    /* 0 <= 2 x1 + l1 _|_ l1 >= 0 ; 0 <= l3 + x1 _|_ l2 >= 0 ; 0 <= 2 - l2 _|_ l3 >= 0 */
    COL(ph->C, 0, 0, 3) = 2; COL(ph->D, 0, 0, 3) = 1;
    COL(ph->C, 1, 0, 3) = 1; COL(ph->D, 1, 2, 3) = 1;
    COL(ph->D, 2, 1, 3) = -1; ph->c[2] = 2;
    s->y0[0] = p[2];
    s->y0[1] = p[3];
    const char *yn[] = {"x1", "x2", "z"}, *ln[] = {"lambda1", "lambda2", "lambda3"};
    for (int i = 0; i < 3 && st == NSDAE_OK; i++) {
        st = nsdae_mlcs_set_name(s, 'y', i, yn[i], err);
        if (st == NSDAE_OK) st = nsdae_mlcs_set_name(s, 'l', i, ln[i], err);
    }
    s->stop_time = 10.0;
    s->step = 0.01;
    if (st != NSDAE_OK) nsdae_mlcs_destroy(s);
    else *out = s;
    return st;
}

/* Rocca et al., section 2.1: left branch x2 = -1 - x1 (x1 < 0), the sliding segment x1 = 0,
 * |x2| <= 1, right branch x2 = 1 + x1 (x1 > 0). The AC solution from a left-branch or segment
 * start runs left branch -> segment (x2 from -1 up to 1) -> right branch when the parameters
 * make each phase move that way (B2/B1 < 0; both branch speeds positive). */
static int exact_rocca(const double *p, double T, double *x)
{
    const double B1 = p[0], B2 = p[1];
    double x1 = p[2], x2 = p[3], t = 0.0;
    const double left = B2 / (B1 + B2), slide = -B2 / B1, right = B2 / (B2 - B1);
    if (B1 == 0.0 || B1 + B2 == 0.0 || B2 - B1 == 0.0 || !(slide > 0 && right > 0)) return 0;
    if (x1 < 0.0) {
        if (!(left > 0.0)) return 0;
        if (fabs(x2 - (-1.0 - x1)) > 1e-14 * (1.0 + fabs(x1))) return 0;
        double t_hit = -x1 / left;
        if (T <= t_hit) {
            x[0] = x1 + left * T;
            x[1] = -1.0 - x[0];
            return 1;
        }
        t = t_hit;
        x1 = 0.0;
        x2 = -1.0;
    } else if (x1 > 0.0 || fabs(x2) > 1.0) {
        return 0;
    }
    double t_leave = t + (1.0 - x2) / slide;
    if (T <= t_leave) {
        x[0] = 0.0;
        x[1] = x2 + slide * (T - t);
        return 1;
    }
    x[0] = right * (T - t_leave);
    x[1] = 1.0 + x[0];
    return 1;
}

/* relay-decay: x1' = -x1 + 1 - 2 s, s in sign(x1); x2' = x1. From x1(0) = x10 > 0 the relay holds
 * s = 1 until x1 reaches 0 at t* = ln((x10 + 1)), then slides at x1 = 0 (s = 1/2). */
static nsdae_status build_relay_decay(const double *p, nsdae_mlcs **out, nsdae_error *err)
{
    nsdae_mlcs *s;
    nsdae_status st = nsdae_mlcs_create(2, 1, 1, &s, err);
    if (st != NSDAE_OK) return st;
    nsdae_mlcs_phase *ph = &s->phases[0];
    COL(ph->E, 0, 0, 2) = 1; COL(ph->E, 1, 1, 2) = 1;
    COL(ph->A, 0, 0, 2) = -1; ph->b[0] = 1; COL(ph->B, 0, 0, 2) = -2;
    COL(ph->A, 1, 0, 2) = 1;
    /* s in sign(x1) as a box row: s in [-1, 1], -w in N(s) with w = -x1 */
    s->kind[0] = NSDAE_ROW_BOX;
    s->lo[0] = -1;
    s->hi[0] = 1;
    COL(ph->C, 0, 0, 1) = -1;
    s->y0[0] = p[0];
    s->y0[1] = 0.0;
    st = nsdae_mlcs_set_name(s, 'y', 0, "x1", err);
    if (st == NSDAE_OK) st = nsdae_mlcs_set_name(s, 'y', 1, "x2", err);
    if (st == NSDAE_OK) st = nsdae_mlcs_set_name(s, 'l', 0, "s", err);
    s->stop_time = 2.0;
    s->step = 0.01;
    if (st != NSDAE_OK) nsdae_mlcs_destroy(s);
    else *out = s;
    return st;
}

static int exact_relay_decay(const double *p, double T, double *x)
{
    const double x10 = p[0];
    if (!(x10 > 0.0)) return 0;
    /* s = 1: x1 = -1 + (x10 + 1) e^{-t} reaches 0 at t* = ln(x10 + 1). */
    double t_star = log(x10 + 1.0), t = fmin(T, t_star);
    x[0] = T < t_star ? -1.0 + (x10 + 1.0) * exp(-T) : 0.0;
    x[1] = -t + (x10 + 1.0) * (1.0 - exp(-t));
    return 1;
}

static const builtin builtins[] = {
    {"rocca-crossing", "Rocca et al. (16)-(17), sliding-crossing case B = (-0.5, 1), x0 = (-5, 4)",
     {{"B1", -0.5}, {"B2", 1.0}, {"x1_0", -5.0}, {"x2_0", 4.0}}, build_rocca, exact_rocca},
    {"rocca-repulsive", "Rocca et al. (16)-(17), sliding-repulsive case B = (-1, 0.5), x0 = (0, 0)",
     {{"B1", -1.0}, {"B2", 0.5}, {"x1_0", 0.0}, {"x2_0", 0.0}}, build_rocca, exact_rocca},
    {"relay-decay", "x1' = -x1 + 1 - 2 s, s in sign(x1), x2' = x1, x1(0) = 2: event at t = ln 3, then sliding",
     {{"x1_0", 2.0}}, build_relay_decay, exact_relay_decay},
};
#define NBUILTINS (sizeof builtins / sizeof builtins[0])

const char *const *nsdae_builtin_names(void)
{
    static const char *names[NBUILTINS + 1];
    for (size_t i = 0; i < NBUILTINS; i++) names[i] = builtins[i].name;
    names[NBUILTINS] = NULL;
    return names;
}

static const builtin *find(const char *name)
{
    for (size_t i = 0; name && i < NBUILTINS; i++)
        if (strcmp(builtins[i].name, name) == 0) return &builtins[i];
    return NULL;
}

int nsdae_builtin_params(const char *name, const char **names, double *defaults, int max)
{
    const builtin *b = find(name);
    return b ? builtin_params_list(b->params, MAX_PARAMS, names, defaults, max) : 0;
}

const char *nsdae_builtin_description(const char *name)
{
    const builtin *b = find(name);
    return b ? b->description : NULL;
}

nsdae_status nsdae_builtin_create(const char *name, const nsdae_param_value *params, int nparams,
                                  nsdae_mlcs **out, nsdae_error *err)
{
    *out = NULL;
    const builtin *b = find(name);
    if (!b) {
        char known[200];
        builtin_list_names(known, sizeof known, nsdae_builtin_names(), (int)NBUILTINS);
        return nsdae_error_set(err, NSDAE_INVALID_INPUT, "unknown example '%s' (known: %s)", name ? name : "",
                               known);
    }
    double p[MAX_PARAMS];
    nsdae_status st = builtin_params_resolve(b->name, b->params, MAX_PARAMS, params, nparams, p, err);
    return st == NSDAE_OK ? b->build(p, out, err) : st;
}

int nsdae_builtin_exact(const char *name, const nsdae_param_value *params, int nparams, double T, double *x)
{
    const builtin *b = find(name);
    double p[MAX_PARAMS];
    if (!b || !b->exact || builtin_params_resolve(b->name, b->params, MAX_PARAMS, params, nparams, p, NULL) != NSDAE_OK)
        return 0;
    return b->exact(p, T, x);
}
