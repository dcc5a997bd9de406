/* Test helpers for the impulse stage: a mode change built from a small .nsm model whose
 * equations are all written at top level and picked by index into the previous, transient and
 * new modes (what the mode module's adapter will do from the real `if`/`when` blocks). */
#ifndef NSDAE_TESTS_IMPULSE_HELPERS_H
#define NSDAE_TESTS_IMPULSE_HELPERS_H

#include <criterion/criterion.h>
#include <string.h>

#include <nsdae/impulse.h>
#include <nsdae/model.h>

#define MAXEQ 16

typedef struct change {
    nsdae_model *m;
    const nsdae_expr *res[3][MAXEQ];
    const char *names[3][MAXEQ];
    char namebuf[3][MAXEQ][8];
    nsdae_impulse_input in;
    nsdae_expr_pool *pool;      /* extends the model's read-only pool: the analysis builds here */
} change;

static inline nsdae_model *parse_model(const char *text)
{
    nsdae_model *m = NULL;
    nsdae_error err = {0};
    nsdae_status st = nsdae_model_parse_string(text, strlen(text), "test.nsm", &m, &err);
    cr_assert_eq(st, NSDAE_OK, "%s", err.message);
    return m;
}

/* lists: equation indices (0-based, source order) ending with -1; label[i] names equation i. */
static inline void change_setup(change *c, nsdae_model *m, const char *const *label, const int *prev,
                                const int *trans, const int *next)
{
    memset(c, 0, sizeof *c);
    c->m = m;
    const int *lists[3] = {prev, trans, next};
    nsdae_impulse_eqs *dst[3] = {&c->in.prev, &c->in.transient, &c->in.next};
    for (int k = 0; k < 3; k++) {
        int n = 0;
        for (; lists[k] && lists[k][n] >= 0; n++) {
            c->res[k][n] = nsdae_model_equation(m, lists[k][n])->residual;
            c->names[k][n] = label[lists[k][n]];
        }
        *dst[k] = (nsdae_impulse_eqs){n, c->res[k], c->names[k]};
    }
    cr_assert_eq(nsdae_expr_pool_create_over(nsdae_model_pool(m), &c->pool, NULL), NSDAE_OK);
    c->in.pool = c->pool;
    c->in.nvars = nsdae_model_nvars(m);
    c->in.var_names = nsdae_model_var_names(m);
    c->in.params = nsdae_model_param_values(m);
    c->in.nparams = nsdae_model_nparams(m);
    c->in.param_names = nsdae_model_param_names(m);
}

static inline void change_destroy(change *c)
{
    nsdae_expr_pool_destroy(c->pool);
    nsdae_model_destroy(c->m);
}

static inline nsdae_impulse_result *analyze(change *c, int height)
{
    nsdae_impulse_result *r = NULL;
    nsdae_error err = {0};
    nsdae_impulse_options opt = {height};
    nsdae_status st = nsdae_impulse_analyze(&c->in, &opt, &r, &err);
    cr_assert_eq(st, NSDAE_OK, "%s", err.message);
    return r;
}

static inline int has_diag(const nsdae_impulse_result *r, const char *code)
{
    for (int i = 0; i < r->ndiags; i++)
        if (!strcmp(r->diags[i].code, code)) return 1;
    return 0;
}

static inline int diag_names(const nsdae_impulse_result *r, const char *code, const char *name)
{
    for (int i = 0; i < r->ndiags; i++) {
        if (strcmp(r->diags[i].code, code)) continue;
        for (int k = 0; k < r->diags[i].nvariables; k++)
            if (!strcmp(r->diags[i].variables[k], name)) return 1;
        for (int k = 0; k < r->diags[i].nequations; k++)
            if (!strcmp(r->diags[i].equations[k], name)) return 1;
    }
    return 0;
}

static inline void dump(const nsdae_impulse_result *r)
{
    cr_log_info("verdict %s K=%d in [%d,%d]", nsdae_impulse_verdict_name(r->verdict), r->height, r->height_lo,
                r->height_hi);
    for (int i = 0; i < r->navars; i++)
        cr_log_info("  %s role %d mu %d", r->avars[i].name, r->avars[i].role, r->avars[i].mu);
    for (int i = 0; i < r->nrestart_equations; i++) cr_log_info("  %s", r->restart_equations[i]);
    for (int i = 0; i < r->ndiags; i++) {
        cr_log_info("  %s: %s", r->diags[i].code, r->diags[i].message);
        for (int k = 0; k < r->diags[i].nequations; k++) cr_log_info("    eq %s", r->diags[i].equations[k]);
        for (int k = 0; k < r->diags[i].nvariables; k++) cr_log_info("    var %s", r->diags[i].variables[k]);
    }
}

/* Index of state (var, order) in r->states, -1 when absent. */
static inline int state_index(const nsdae_impulse_result *r, int var, int order)
{
    for (int k = 0; k < r->nstates; k++)
        if (r->states[k].var == var && r->states[k].order == order) return k;
    return -1;
}

static inline int avar_index(const nsdae_impulse_result *r, int var, int order, int shift)
{
    for (int k = 0; k < r->navars; k++)
        if (r->avars[k].var == var && r->avars[k].order == order && r->avars[k].shift == shift) return k;
    return -1;
}

#endif
