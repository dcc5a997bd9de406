/* Evaluation time per expression: the expression tape (nsdae/tape.h) against the recursive tree
 * walk nsdae_expr_eval used before the tape (reproduced below as the baseline: no memo, one call
 * per expression) and against today's nsdae_expr_eval (one pass in id order, allocates per call).
 *   chain N:   the forces of a spring chain with a nonlinear damper, N expressions
 *              f_i = k (x_{i-1} - 2 x_i + x_{i+1}) - c sin(x_i) v_i, one pool for all;
 *   shared D:  one expression e_D with e_{k+1} = e_k * e_k + x: D + 2 distinct nodes, but a tree
 *              of 2^(D+1) nodes for a walk that does not share.
 * Usage: ./build/bench_tape [--reps R] */
#include <nsdae/tape.h>

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

static double now(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return ts.tv_sec + 1e-9 * ts.tv_nsec;
}

/* The former nsdae_expr_eval: a recursive walk of the tree (shared nodes visited once per use). */
static double old_eval(const nsdae_expr *e, const nsdae_eval_env *env)
{
    switch (e->kind) {
    case NSDAE_EXPR_CONST: return e->value;
    case NSDAE_EXPR_PARAM: return env->params[e->index];
    case NSDAE_EXPR_VAR: return env->vars[(size_t)e->order * (size_t)env->nvars + (size_t)e->index];
    case NSDAE_EXPR_TIME: return env->time;
    default: break;
    }
    double a = old_eval(e->a, env), b = e->b ? old_eval(e->b, env) : 0.0;
    switch (e->kind) {
    case NSDAE_EXPR_ADD: return a + b;
    case NSDAE_EXPR_SUB: return a - b;
    case NSDAE_EXPR_MUL: return a * b;
    case NSDAE_EXPR_DIV: return a / b;
    case NSDAE_EXPR_NEG: return -a;
    case NSDAE_EXPR_SIN: return sin(a);
    default: return NAN;
    }
}

static volatile double sink; /* keeps the evaluations from being optimised away */

typedef struct batch {
    const nsdae_expr **e;
    int n, nvars;
    double *vars;     /* 2 nvars: x then der(x) */
} batch;

/* Seconds per expression for each method, best of reps runs of `inner` evaluations. */
static void measure(const char *name, nsdae_expr_pool *pool, const batch *b, int reps)
{
    nsdae_leaf *in = malloc(2 * (size_t)b->nvars * sizeof *in);
    for (int j = 0; j < b->nvars; j++) {
        in[j] = (nsdae_leaf){j, 0};
        in[b->nvars + j] = (nsdae_leaf){j, 1};
    }
    nsdae_tape_spec spec = {b->e, b->n, in, 2 * b->nvars, 0, NULL, 0};
    nsdae_tape *t = NULL;
    nsdae_error err;
    if (nsdae_tape_create(pool, &spec, &t, &err) != NSDAE_OK) {
        fprintf(stderr, "%s: %s\n", name, err.message);
        exit(1);
    }
    nsdae_tape_info info;
    nsdae_tape_get_info(t, &info);
    double *out = malloc((size_t)b->n * sizeof *out);
    nsdae_eval_env env = {NULL, 0, b->vars, b->nvars, 1, 0.0};
    nsdae_tape_point at = {b->vars, NULL, 0.0};
    double best[3] = {INFINITY, INFINITY, INFINITY};
    int inner = 20;
    for (int r = 0; r < reps; r++) {
        double t0 = now();
        for (int k = 0; k < inner; k++)
            for (int i = 0; i < b->n; i++) sink += old_eval(b->e[i], &env);
        double t1 = now();
        for (int k = 0; k < inner; k++)
            for (int i = 0; i < b->n; i++) sink += nsdae_expr_eval(b->e[i], &env);
        double t2 = now();
        for (int k = 0; k < inner; k++) {
            nsdae_tape_eval(t, &at, out, NULL, NULL);
            sink += out[b->n - 1];
        }
        double t3 = now();
        double d[3] = {t1 - t0, t2 - t1, t3 - t2};
        for (int m = 0; m < 3; m++)
            if (d[m] < best[m]) best[m] = d[m];
    }
    double per = 1e9 / ((double)inner * b->n);
    printf("%-12s %6d %8d %14.1f %14.1f %12.1f %10.1f\n", name, b->n, info.nodes, best[0] * per, best[1] * per,
           best[2] * per, best[0] / best[2]);
    nsdae_tape_destroy(t);
    free(out);
    free(in);
}

static void chain(int n, int reps)
{
    nsdae_expr_pool *p = NULL;
    nsdae_expr_pool_create(&p, NULL);
    batch b = {malloc((size_t)n * sizeof *b.e), n, n, malloc(2 * (size_t)n * sizeof *b.vars)};
    const nsdae_expr *k = nsdae_expr_const(p, 40.0), *c = nsdae_expr_const(p, 0.3), *two = nsdae_expr_const(p, 2.0);
    for (int i = 0; i < n; i++) {
        const nsdae_expr *x = nsdae_expr_var(p, i, 0), *v = nsdae_expr_var(p, i, 1);
        const nsdae_expr *l = i > 0 ? nsdae_expr_var(p, i - 1, 0) : nsdae_expr_const(p, 0.0);
        const nsdae_expr *r = i + 1 < n ? nsdae_expr_var(p, i + 1, 0) : nsdae_expr_const(p, 0.0);
        const nsdae_expr *lap = nsdae_expr_binary(p, NSDAE_EXPR_ADD, nsdae_expr_binary(p, NSDAE_EXPR_SUB, l,
                                                  nsdae_expr_binary(p, NSDAE_EXPR_MUL, two, x)), r);
        const nsdae_expr *damp = nsdae_expr_binary(p, NSDAE_EXPR_MUL, c,
                                                   nsdae_expr_binary(p, NSDAE_EXPR_MUL,
                                                                     nsdae_expr_unary(p, NSDAE_EXPR_SIN, x), v));
        b.e[i] = nsdae_expr_binary(p, NSDAE_EXPR_SUB, nsdae_expr_binary(p, NSDAE_EXPR_MUL, k, lap), damp);
        b.vars[i] = 0.01 * i;
        b.vars[n + i] = 0.1;
    }
    char name[32];
    snprintf(name, sizeof name, "chain %d", n);
    measure(name, p, &b, reps);
    free(b.e);
    free(b.vars);
    nsdae_expr_pool_destroy(p);
}

static void shared(int depth, int reps)
{
    nsdae_expr_pool *p = NULL;
    nsdae_expr_pool_create(&p, NULL);
    const nsdae_expr *x = nsdae_expr_var(p, 0, 0), *e = x;
    for (int k = 0; k < depth; k++) e = nsdae_expr_binary(p, NSDAE_EXPR_ADD, nsdae_expr_binary(p, NSDAE_EXPR_MUL, e, e), x);
    double vars[2] = {0.1, 0.0};
    batch b = {&e, 1, 1, vars};
    char name[32];
    snprintf(name, sizeof name, "shared %d", depth);
    measure(name, p, &b, reps);
    nsdae_expr_pool_destroy(p);
}

int main(int argc, char **argv)
{
    int reps = 5;
    for (int i = 1; i + 1 < argc; i++)
        if (!strcmp(argv[i], "--reps")) reps = atoi(argv[++i]);
    printf("ns per expression evaluation (best of %d runs of 20 batch evaluations)\n", reps);
    printf("%-12s %6s %8s %14s %14s %12s %10s\n", "batch", "exprs", "nodes", "recursive(old)", "expr_eval(now)",
           "tape", "old/tape");
    chain(10, reps);
    chain(100, reps);
    chain(1000, reps);
    shared(10, reps);
    shared(16, reps);
    return 0;
}
