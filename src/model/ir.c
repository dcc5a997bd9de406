/* The model IR: storage, the builder used by the parser, accessors, and parameter overrides. */
#include "model/ir.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

/* Grows *arr (of elem-sized items, capacity *cap) to hold need items. */
static int grow(void **arr, int *cap, int need, size_t elem)
{
    if (need <= *cap) return 1;
    int c = *cap ? *cap : 8;
    while (c < need) c *= 2;
    void *v = realloc(*arr, (size_t)c * elem);
    if (!v) return 0;
    *arr = v;
    *cap = c;
    return 1;
}

static char *dup_n(const char *s, size_t n)
{
    char *d = malloc(n + 1);
    if (d) {
        memcpy(d, s, n);
        d[n] = '\0';
    }
    return d;
}

nsdae_status nsdae_ir_create(const char *filename, nsdae_model **out, nsdae_error *err)
{
    *out = NULL;
    nsdae_model *m = calloc(1, sizeof *m);
    if (!m) return nsdae_error_set(err, NSDAE_NOMEM, "model: out of memory");
    m->filename = dup_n(filename, strlen(filename));
    nsdae_status st = m->filename ? nsdae_expr_pool_create(&m->pool, err)
                                  : nsdae_error_set(err, NSDAE_NOMEM, "model: out of memory");
    if (st) {
        nsdae_model_destroy(m);
        return st;
    }
    *out = m;
    return NSDAE_OK;
}

void nsdae_model_destroy(nsdae_model *m)
{
    if (!m) return;
    for (int i = 0; i < m->nvars; i++) free(m->var_names[i]);
    for (int i = 0; i < m->nparams; i++) free(m->param_names[i]);
    for (int i = 0; i < m->neqs; i++) free((char *)m->eqs[i].text);
    for (int i = 0; i < m->nblocks; i++) free((void *)m->blocks[i].conds);
    for (int i = 0; i < m->nconds; i++) free(m->conds[i]);
    free(m->vars); free(m->var_names);
    free(m->params); free(m->param_names); free(m->param_values);
    free(m->eqs); free(m->blocks); free(m->conds);
    for (int i = 0; i < m->narrays; i++) free(m->arrays[i].name);
    free(m->arrays);
    nsdae_names_free(&m->names);
    free(m->param_structural);
    free(m->source);
    free((char *)m->experiment.scheme);
    free(m->name); free(m->filename);
    nsdae_expr_pool_destroy(m->pool);
    free(m);
}

nsdae_status nsdae_ir_add_var(nsdae_model *m, const char *name, size_t len, nsdae_srcpos pos, nsdae_error *err)
{
    /* var_names follows vars' capacity, reallocated only when it grows: a realloc per variable copies
     * every time under ASan (quadratic: 3 x 54 650 array elements timed the model fuzzer out); on
     * failure the capacity goes back, so the next call retries (vars may stay larger: harmless) */
    int old_cap = m->cap_vars;
    if (!grow((void **)&m->vars, &m->cap_vars, m->nvars + 1, sizeof *m->vars)) goto nomem;
    if (m->cap_vars != old_cap) {
        char **names = realloc(m->var_names, (size_t)m->cap_vars * sizeof *names);
        if (!names) {
            m->cap_vars = old_cap;
            goto nomem;
        }
        m->var_names = names;
    }
    char *copy = dup_n(name, len);
    if (!copy) goto nomem;
    if (!nsdae_names_add(&m->names, copy, len, NAME_VAR, m->nvars)) {
        free(copy);
        goto nomem;
    }
    nsdae_var *v = &m->vars[m->nvars];
    memset(v, 0, sizeof *v);
    v->name = copy;
    v->pos = pos;
    v->max_order = -1;
    m->var_names[m->nvars++] = copy;
    return NSDAE_OK;
nomem:
    return nsdae_error_set(err, NSDAE_NOMEM, "model: out of memory");
}

nsdae_status nsdae_ir_add_param(nsdae_model *m, const char *name, size_t len, nsdae_srcpos pos,
                                const nsdae_expr *value, nsdae_error *err)
{
    int old_cap = m->cap_params; /* the parallel arrays follow, as in nsdae_ir_add_var */
    if (!grow((void **)&m->params, &m->cap_params, m->nparams + 1, sizeof *m->params)) goto nomem;
    if (m->cap_params != old_cap) {
        char **names = realloc(m->param_names, (size_t)m->cap_params * sizeof *names);
        if (names) m->param_names = names;
        double *values = names ? realloc(m->param_values, (size_t)m->cap_params * sizeof *values) : NULL;
        if (values) m->param_values = values;
        unsigned char *structural = values ? realloc(m->param_structural, (size_t)m->cap_params) : NULL;
        if (!structural) {
            m->cap_params = old_cap;
            goto nomem;
        }
        m->param_structural = structural;
    }
    m->param_structural[m->nparams] = 0;
    char *copy = dup_n(name, len);
    if (!copy) goto nomem;
    if (!nsdae_names_add(&m->names, copy, len, NAME_PARAM, m->nparams)) {
        free(copy);
        goto nomem;
    }
    nsdae_param *p = &m->params[m->nparams];
    memset(p, 0, sizeof *p);
    p->name = copy;
    p->pos = pos;
    p->expr = value;
    /* Earlier parameters already have their values: evaluate now so later ones can use it. */
    nsdae_eval_env env = {m->param_values, m->nparams, NULL, 0, 0, 0.0};
    p->value = nsdae_expr_eval(value, &env);
    m->param_values[m->nparams] = p->value;
    m->param_names[m->nparams++] = copy;
    return NSDAE_OK;
nomem:
    return nsdae_error_set(err, NSDAE_NOMEM, "model: out of memory");
}

nsdae_status nsdae_ir_add_array(nsdae_model *m, const char *name, size_t len, nsdae_srcpos pos, int is_param,
                                int first, int size, nsdae_error *err)
{
    if (!grow((void **)&m->arrays, &m->cap_arrays, m->narrays + 1, sizeof *m->arrays)) goto nomem;
    char *copy = dup_n(name, len);
    if (!copy) goto nomem;
    if (!nsdae_names_add(&m->names, copy, len, is_param ? NAME_PARAM_ARRAY : NAME_VAR_ARRAY, m->narrays)) {
        free(copy);
        goto nomem;
    }
    m->arrays[m->narrays++] = (nsdae_ir_array){copy, pos, is_param, first, size};
    return NSDAE_OK;
nomem:
    return nsdae_error_set(err, NSDAE_NOMEM, "model: out of memory");
}

/* e is a size, a bound, an index or a parameter definition: parsed text, small. */
void nsdae_ir_mark_structural(nsdae_model *m, const nsdae_expr *e)
{
    if (!e || !(e->flags & NSDAE_EXPR_HAS_PARAM)) return;
    if (e->kind == NSDAE_EXPR_PARAM) {
        int k = e->index;
        if (k < 0 || k >= m->nparams || m->param_structural[k]) return;
        m->param_structural[k] = 1;
        nsdae_ir_mark_structural(m, m->params[k].expr);
        return;
    }
    nsdae_ir_mark_structural(m, e->a);
    nsdae_ir_mark_structural(m, e->b);
}

nsdae_status nsdae_ir_add_equation(nsdae_model *m, const nsdae_equation *eq, nsdae_error *err)
{
    if (!grow((void **)&m->eqs, &m->cap_eqs, m->neqs + 1, sizeof *m->eqs))
        return nsdae_error_set(err, NSDAE_NOMEM, "model: out of memory");
    m->eqs[m->neqs] = *eq;
    m->eqs[m->neqs].index = m->neqs;
    m->neqs++;
    return NSDAE_OK;
}

nsdae_status nsdae_ir_add_block(nsdae_model *m, const nsdae_block *b, int *index, nsdae_error *err)
{
    if (!grow((void **)&m->blocks, &m->cap_blocks, m->nblocks + 1, sizeof *m->blocks))
        return nsdae_error_set(err, NSDAE_NOMEM, "model: out of memory");
    m->blocks[m->nblocks] = *b;
    m->blocks[m->nblocks].index = m->nblocks;
    *index = m->nblocks++;
    return NSDAE_OK;
}

nsdae_cond *nsdae_ir_new_cond(nsdae_model *m)
{
    if (!grow((void **)&m->conds, &m->cap_conds, m->nconds + 1, sizeof *m->conds)) return NULL;
    nsdae_cond *c = calloc(1, sizeof *c);
    if (c) m->conds[m->nconds++] = c;
    return c;
}

static void recompute(nsdae_model *m)
{
    nsdae_eval_env env = {m->param_values, m->nparams, NULL, 0, 0, 0.0};
    for (int k = 0; k < m->nparams; k++) {
        if (!m->params[k].overridden) m->params[k].value = nsdae_expr_eval(m->params[k].expr, &env);
        m->param_values[k] = m->params[k].value;
    }
    m->experiment.stop = m->stop_expr ? nsdae_expr_eval(m->stop_expr, &env) : 0.0;
    m->experiment.step = m->step_expr ? nsdae_expr_eval(m->step_expr, &env) : 0.0;
    m->experiment.theta = m->theta_expr ? nsdae_expr_eval(m->theta_expr, &env) : 0.0;
    m->experiment.gamma = m->gamma_expr ? nsdae_expr_eval(m->gamma_expr, &env) : 0.0;
}

/* Raises the derivative orders of the variables met in e. stamp[id] == tag marks the nodes
 * already visited for this equation, so a shared subexpression is walked once per equation and
 * the whole pass is linear in the size of the expressions (not nvars times it). */
static void raise_order(nsdae_model *m, const nsdae_expr *e, int *stamp, int tag)
{
    if (!e || !(e->flags & NSDAE_EXPR_HAS_VAR) || stamp[e->id] == tag) return;
    stamp[e->id] = tag;
    if (e->kind == NSDAE_EXPR_VAR) {
        if (e->order > m->vars[e->index].max_order) m->vars[e->index].max_order = e->order;
        return;
    }
    raise_order(m, e->a, stamp, tag);
    raise_order(m, e->b, stamp, tag);
}

static void raise_order_cond(nsdae_model *m, const nsdae_cond *c, int *stamp, int tag)
{
    if (!c) return;
    raise_order(m, c->lhs, stamp, tag);
    raise_order(m, c->rhs, stamp, tag);
    raise_order_cond(m, c->a, stamp, tag);
    raise_order_cond(m, c->b, stamp, tag);
}

nsdae_status nsdae_ir_finish(nsdae_model *m, nsdae_error *err)
{
    int *stamp = calloc(nsdae_expr_pool_size(m->pool) + 1, sizeof *stamp);
    if (!stamp) return nsdae_error_set(err, NSDAE_NOMEM, "model: out of memory");
    int tag = 0;
    for (int i = 0; i < m->neqs; i++) {
        const nsdae_equation *q = &m->eqs[i];
        ++tag;
        raise_order(m, q->residual, stamp, tag);
        raise_order(m, q->a, stamp, tag);
        raise_order(m, q->b, stamp, tag);
        raise_order(m, q->arg, stamp, tag);
        raise_order(m, q->tangent, stamp, tag);
        raise_order(m, q->tforce, stamp, tag);
        if (q->kind == NSDAE_EQ_SIGN && m->vars[q->var].max_order < 0) m->vars[q->var].max_order = 0;
    }
    for (int b = 0; b < m->nblocks; b++)
        for (int k = 0; k < (m->blocks[b].kind == NSDAE_BLOCK_IF ? m->blocks[b].nbranches - 1 : 1); k++)
            raise_order_cond(m, m->blocks[b].conds[k], stamp, ++tag);
    free(stamp);
    recompute(m);
    return NSDAE_OK;
}

/* ---- accessors ----------------------------------------------------------------------------- */

const char *nsdae_model_name(const nsdae_model *m) { return m->name; }
const char *nsdae_model_filename(const nsdae_model *m) { return m->filename; }
const nsdae_expr_pool *nsdae_model_pool(const nsdae_model *m) { return m->pool; }
int nsdae_model_nvars(const nsdae_model *m) { return m->nvars; }
int nsdae_model_nparams(const nsdae_model *m) { return m->nparams; }
int nsdae_model_nequations(const nsdae_model *m) { return m->neqs; }
int nsdae_model_nblocks(const nsdae_model *m) { return m->nblocks; }
const char *const *nsdae_model_var_names(const nsdae_model *m) { return (const char *const *)m->var_names; }
const char *const *nsdae_model_param_names(const nsdae_model *m) { return (const char *const *)m->param_names; }
const double *nsdae_model_param_values(const nsdae_model *m) { return m->param_values; }
const nsdae_experiment *nsdae_model_experiment(const nsdae_model *m) { return &m->experiment; }

const nsdae_var *nsdae_model_var(const nsdae_model *m, int i) { return i >= 0 && i < m->nvars ? &m->vars[i] : NULL; }
const nsdae_param *nsdae_model_param(const nsdae_model *m, int i)
{
    return i >= 0 && i < m->nparams ? &m->params[i] : NULL;
}
const nsdae_equation *nsdae_model_equation(const nsdae_model *m, int i)
{
    return i >= 0 && i < m->neqs ? &m->eqs[i] : NULL;
}
const nsdae_block *nsdae_model_block(const nsdae_model *m, int i)
{
    return i >= 0 && i < m->nblocks ? &m->blocks[i] : NULL;
}

int nsdae_model_find_var(const nsdae_model *m, const char *name)
{
    int i;
    return name && nsdae_names_find(&m->names, name, strlen(name), &i) == NAME_VAR ? i : -1;
}

int nsdae_model_find_param(const nsdae_model *m, const char *name)
{
    int i;
    return name && nsdae_names_find(&m->names, name, strlen(name), &i) == NAME_PARAM ? i : -1;
}

/* Overriding a parameter the parser used (an array size, a loop bound): the model is built
 * again from its source with every override so far, and takes the place of the old one in *m. */
static nsdae_status reparse(nsdae_model *m, int k, double value, nsdae_error *err)
{
    nsdae_ir_override *ov = malloc((size_t)m->nparams * sizeof *ov);
    if (!ov) return nsdae_error_set(err, NSDAE_NOMEM, "model: out of memory");
    int nov = 0;
    for (int j = 0; j < m->nparams; j++)
        if (j == k || m->params[j].overridden)
            ov[nov++] = (nsdae_ir_override){m->param_names[j], j == k ? value : m->params[j].value};
    nsdae_model *fresh = NULL;
    nsdae_status st = nsdae_model_parse_with(m->source, m->source_len, m->filename, ov, nov, &fresh, err);
    free(ov);
    if (st) return st;
    nsdae_model old = *m;
    *m = *fresh;
    *fresh = old;
    nsdae_model_destroy(fresh);
    return NSDAE_OK;
}

nsdae_status nsdae_model_set_param(nsdae_model *m, const char *name, double value, nsdae_error *err)
{
    int k = name ? nsdae_model_find_param(m, name) : -1;
    if (k < 0)
        return nsdae_error_set(err, NSDAE_INVALID_INPUT, "model %s has no parameter '%s'", m->name ? m->name : "?",
                               name ? name : "(null)");
    if (!isfinite(value))
        return nsdae_error_set(err, NSDAE_INVALID_INPUT, "parameter '%s': value %g is not finite", name, value);
    if (m->param_structural[k] && m->source) return reparse(m, k, value, err);
    m->params[k].value = value;
    m->params[k].overridden = 1;
    recompute(m);
    return NSDAE_OK;
}

double nsdae_model_start_value(const nsdae_model *m, int var, int order)
{
    if (var < 0 || var >= m->nvars) return NAN;
    const nsdae_expr *e = order == 0 ? m->vars[var].start : order == 1 ? m->vars[var].dstart : NULL;
    if (!e) return 0.0;
    nsdae_eval_env env = {m->param_values, m->nparams, NULL, 0, 0, 0.0};
    return nsdae_expr_eval(e, &env);
}

int nsdae_cond_eval(const nsdae_cond *c, const nsdae_eval_env *env)
{
    switch (c->kind) {
    case NSDAE_COND_GT: return nsdae_expr_eval(c->lhs, env) > nsdae_expr_eval(c->rhs, env);
    case NSDAE_COND_GE: return nsdae_expr_eval(c->lhs, env) >= nsdae_expr_eval(c->rhs, env);
    case NSDAE_COND_LT: return nsdae_expr_eval(c->lhs, env) < nsdae_expr_eval(c->rhs, env);
    case NSDAE_COND_LE: return nsdae_expr_eval(c->lhs, env) <= nsdae_expr_eval(c->rhs, env);
    case NSDAE_COND_AND: return nsdae_cond_eval(c->a, env) && nsdae_cond_eval(c->b, env);
    case NSDAE_COND_OR: return nsdae_cond_eval(c->a, env) || nsdae_cond_eval(c->b, env);
    case NSDAE_COND_NOT: return !nsdae_cond_eval(c->a, env);
    }
    return 0;
}

int nsdae_cond_has_var(const nsdae_cond *c)
{
    if (!c) return 0;
    return nsdae_expr_has_var(c->lhs) || nsdae_expr_has_var(c->rhs) || nsdae_cond_has_var(c->a) ||
           nsdae_cond_has_var(c->b);
}

size_t nsdae_model_print_expr(const nsdae_model *m, const nsdae_expr *e, char *buf, size_t size)
{
    return nsdae_expr_print(e, (const char *const *)m->var_names, m->nvars, (const char *const *)m->param_names,
                            m->nparams, buf, size);
}
