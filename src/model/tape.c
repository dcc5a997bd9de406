/* The expression tape (nsdae/tape.h): a batch of expressions and their derivatives flattened
 * into one instruction per distinct DAG node.
 *
 * Layout. Every node of the batch gets one slot of the work array w. The nodes the values need
 * come first, in increasing id, then the nodes only the derivatives need, in increasing id: both
 * runs are topological (ids are), and a derivative node's operands are either earlier in its own
 * run or in the value run, so the values alone are a prefix of the program (eval without jac
 * stops there). Constants are written into w once at compile time and have no instruction. */
#include <nsdae/tape.h>

#include "model/expr_internal.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

/* Leaf kinds keep their nsdae_expr_kind: VAR reads x[a], PARAM params[a], TIME the time. */
typedef struct tape_op {
    nsdae_expr_kind kind;
    int dst, a, b;          /* slots (b = -1 for unary), or the leaf's index for VAR and PARAM */
} tape_op;

struct nsdae_tape {
    nsdae_tape_info info;
    nsdae_leaf *inputs;     /* ninputs, for the messages of eval */
    double *w;              /* one slot per node */
    tape_op *ops;
    int nops, nops_values;  /* ops[0, nops_values) compute what the values need */
    int *out;               /* nexprs: slot of each value */
    int *jac;               /* nexprs * nwrt: slot of each derivative */
};

void nsdae_tape_destroy(nsdae_tape *t)
{
    if (!t) return;
    free(t->inputs); free(t->w); free(t->ops); free(t->out); free(t->jac);
    free(t);
}

void nsdae_tape_get_info(const nsdae_tape *t, nsdae_tape_info *info) { *info = t->info; }

/* ---- compilation ------------------------------------------------------------------------ */

/* (var, order) -> input index, as a dense table over the inputs' range. */
typedef struct input_map {
    int *index;
    int nvar, norder;
} input_map;

static int input_of(const input_map *im, int var, int order)
{
    if (var < 0 || var >= im->nvar || order < 0 || order >= im->norder) return -1;
    return im->index[(size_t)order * (size_t)im->nvar + (size_t)var];
}

static nsdae_status build_input_map(const nsdae_tape_spec *s, input_map *im, nsdae_error *err)
{
    im->nvar = im->norder = 0;
    for (int k = 0; k < s->ninputs; k++) {
        const nsdae_leaf *l = &s->inputs[k];
        if (l->var < 0 || l->order < 0)
            return nsdae_error_set(err, NSDAE_INVALID_INPUT, "tape: input %d is not a leaf (variable %d, order %d)", k,
                                   l->var, l->order);
        if (l->var >= im->nvar) im->nvar = l->var + 1;
        if (l->order >= im->norder) im->norder = l->order + 1;
    }
    im->index = malloc(((size_t)im->nvar * (size_t)im->norder + 1) * sizeof *im->index);
    if (!im->index) return nsdae_error_set(err, NSDAE_NOMEM, "tape: out of memory");
    for (size_t i = 0; i < (size_t)im->nvar * (size_t)im->norder; i++) im->index[i] = -1;
    for (int k = 0; k < s->ninputs; k++) {
        int *slot = &im->index[(size_t)s->inputs[k].order * (size_t)im->nvar + (size_t)s->inputs[k].var];
        if (*slot >= 0)
            return nsdae_error_set(err, NSDAE_INVALID_INPUT, "tape: inputs %d and %d are the same leaf (variable %d, "
                                   "order %d)", *slot, k, s->inputs[k].var, s->inputs[k].order);
        *slot = k;
    }
    return NSDAE_OK;
}

static nsdae_status check_spec(const nsdae_expr_pool *pool, const nsdae_tape_spec *s, nsdae_error *err)
{
    if (!s || (s->nexprs > 0 && !s->exprs) || s->nexprs < 0 || s->ninputs < 0 || s->nparams < 0 || s->nwrt < 0 ||
        (s->ninputs > 0 && !s->inputs) || (s->nwrt > 0 && !s->wrt))
        return nsdae_error_set(err, NSDAE_INVALID_INPUT, "tape: bad sizes or missing arrays in the spec");
    if (s->nwrt > 0 && !pool)
        return nsdae_error_set(err, NSDAE_INVALID_INPUT, "tape: a Jacobian needs a pool for the derivatives");
    for (int i = 0; i < s->nexprs; i++)
        if (!s->exprs[i]) return nsdae_error_set(err, NSDAE_INVALID_INPUT, "tape: expression %d is NULL", i);
    return NSDAE_OK;
}

/* Every leaf of the values is an input or a known parameter ("unknown variable" otherwise). */
static nsdae_status check_leaves(const nsdae_expr_closure *c, const input_map *im, int nparams, nsdae_error *err)
{
    for (int k = 0; k < c->count; k++) {
        const nsdae_expr *n = c->nodes[k];
        if (n->kind == NSDAE_EXPR_VAR && input_of(im, n->index, n->order) < 0)
            return nsdae_error_set(err, NSDAE_INVALID_INPUT, "tape: unknown variable %d (derivative order %d): "
                                   "not one of the inputs", n->index, n->order);
        if (n->kind == NSDAE_EXPR_PARAM && (n->index < 0 || n->index >= nparams))
            return nsdae_error_set(err, NSDAE_INVALID_INPUT, "tape: unknown parameter %d (the tape has %d)", n->index,
                                   nparams);
    }
    return NSDAE_OK;
}

/* d exprs[i] / d wrt[j] for every pair, into d[i + j*nexprs]. */
static nsdae_status derivatives(nsdae_expr_pool *pool, const nsdae_tape_spec *s, const input_map *im,
                                const nsdae_expr **d, nsdae_error *err)
{
    for (int j = 0; j < s->nwrt; j++) {
        const nsdae_leaf *l = &s->wrt[j];
        if (input_of(im, l->var, l->order) < 0)
            return nsdae_error_set(err, NSDAE_INVALID_INPUT, "tape: Jacobian column %d (variable %d, order %d) "
                                   "is not one of the inputs", j, l->var, l->order);
        for (int i = 0; i < s->nexprs; i++) {
            const nsdae_expr **out = &d[i + (size_t)j * s->nexprs];
            nsdae_status st = nsdae_expr_diff(pool, s->exprs[i], l->var, l->order, out, err);
            if (st != NSDAE_OK) return st;
        }
    }
    return NSDAE_OK;
}

/* Slots: value nodes first, then the rest, each run in id order; then one op per non-constant. */
static nsdae_status emit(nsdae_tape *t, const nsdae_expr_closure *vals, const nsdae_expr_closure *all,
                         const input_map *im, nsdae_error *err)
{
    int n = all->count;
    const nsdae_expr **order = malloc(((size_t)n + 1) * sizeof *order);
    int *slot = malloc(((size_t)all->max_id + 1) * sizeof *slot);
    t->w = calloc((size_t)n + 1, sizeof *t->w);
    t->ops = malloc(((size_t)n + 1) * sizeof *t->ops);
    if (!order || !slot || !t->w || !t->ops) {
        free(order);
        free(slot);
        return nsdae_error_set(err, NSDAE_NOMEM, "tape: out of memory");
    }
    int k = 0;
    for (int i = 0; i < vals->count; i++) order[k++] = vals->nodes[i];
    for (int i = 0; i < n; i++) {
        const nsdae_expr *e = all->nodes[i];
        if (e->id > vals->max_id || vals->slot[e->id] < 0) order[k++] = e;
    }
    for (int i = 0; i < n; i++) slot[order[i]->id] = i;
    for (int i = 0; i < n; i++) {
        const nsdae_expr *e = order[i];
        tape_op op = {e->kind, i, -1, -1};
        switch (e->kind) {
        case NSDAE_EXPR_CONST: t->w[i] = e->value; t->info.constants++; continue;
        case NSDAE_EXPR_VAR: op.a = input_of(im, e->index, e->order); break;
        case NSDAE_EXPR_PARAM: op.a = e->index; break;
        case NSDAE_EXPR_TIME: break;
        default:
            op.a = slot[e->a->id];
            op.b = e->b ? slot[e->b->id] : -1;
            break;
        }
        t->ops[t->nops++] = op;
        if (i < vals->count) t->nops_values = t->nops;
    }
    t->info.nodes = n;
    t->info.value_nodes = vals->count;
    for (int i = 0; i < t->info.nexprs; i++) t->out[i] = slot[t->out[i]];
    for (int i = 0; i < t->info.nexprs * t->info.nwrt; i++) t->jac[i] = slot[t->jac[i]];
    free(order);
    free(slot);
    return NSDAE_OK;
}

static nsdae_tape *tape_alloc(const nsdae_tape_spec *s)
{
    nsdae_tape *t = calloc(1, sizeof *t);
    if (!t) return NULL;
    t->info = (nsdae_tape_info){s->nexprs, s->ninputs, s->nparams, s->nwrt, 0, 0, 0};
    t->inputs = malloc(((size_t)s->ninputs + 1) * sizeof *t->inputs);
    t->out = malloc(((size_t)s->nexprs + 1) * sizeof *t->out);
    t->jac = malloc(((size_t)s->nexprs * (size_t)s->nwrt + 1) * sizeof *t->jac);
    if (!t->inputs || !t->out || !t->jac) {
        nsdae_tape_destroy(t);
        return NULL;
    }
    if (s->ninputs > 0) memcpy(t->inputs, s->inputs, (size_t)s->ninputs * sizeof *t->inputs);
    return t;
}

nsdae_status nsdae_tape_create(nsdae_expr_pool *pool, const nsdae_tape_spec *s, nsdae_tape **out, nsdae_error *err)
{
    *out = NULL;
    nsdae_status st = check_spec(pool, s, err);
    if (st != NSDAE_OK) return st;
    input_map im = {NULL, 0, 0};
    nsdae_expr_closure vals = {0}, all = {0};
    size_t nd = (size_t)s->nexprs * (size_t)s->nwrt;
    const nsdae_expr **roots = malloc(((size_t)s->nexprs + nd) * sizeof *roots);
    nsdae_tape *t = tape_alloc(s);
    /* 1. the leaves the values read; 2. derivatives; 3. every node once; 4. the program */
    if (!roots || !t) st = nsdae_error_set(err, NSDAE_NOMEM, "tape: out of memory");
    if (!st) st = build_input_map(s, &im, err);
    if (!st && !nsdae_expr_closure_build(s->exprs, s->nexprs, &vals))
        st = nsdae_error_set(err, NSDAE_NOMEM, "tape: out of memory");
    if (!st) st = check_leaves(&vals, &im, s->nparams, err);
    if (!st) {
        if (s->nexprs > 0) memcpy(roots, s->exprs, (size_t)s->nexprs * sizeof *roots);
        st = derivatives(pool, s, &im, roots + s->nexprs, err);
    }
    if (!st && !nsdae_expr_closure_build(roots, s->nexprs + (int)nd, &all))
        st = nsdae_error_set(err, NSDAE_NOMEM, "tape: out of memory");
    if (!st) {
        for (int i = 0; i < s->nexprs; i++) t->out[i] = s->exprs[i]->id;
        for (size_t i = 0; i < nd; i++) t->jac[i] = roots[s->nexprs + i]->id;
        st = emit(t, &vals, &all, &im, err);
    }
    free(im.index);
    free(roots);
    nsdae_expr_closure_free(&vals);
    nsdae_expr_closure_free(&all);
    if (st) {
        nsdae_tape_destroy(t);
        return st;
    }
    *out = t;
    return NSDAE_OK;
}

/* ---- evaluation ---------------------------------------------------------------------------- */

/* Runs ops[0, nops); returns the first leaf op that read a non-finite value, or -1. */
static int run(nsdae_tape *t, const nsdae_tape_point *at, int nops)
{
    double *w = t->w;
    int bad = -1;
    for (int k = 0; k < nops; k++) {
        const tape_op *o = &t->ops[k];
        switch (o->kind) {
        case NSDAE_EXPR_VAR: w[o->dst] = at->x[o->a]; goto leaf;
        case NSDAE_EXPR_PARAM: w[o->dst] = at->params[o->a]; goto leaf;
        case NSDAE_EXPR_TIME: w[o->dst] = at->time; goto leaf;
        /* the common operations inline; the same arithmetic as nsdae_expr_apply */
        case NSDAE_EXPR_ADD: w[o->dst] = w[o->a] + w[o->b]; break;
        case NSDAE_EXPR_SUB: w[o->dst] = w[o->a] - w[o->b]; break;
        case NSDAE_EXPR_MUL: w[o->dst] = w[o->a] * w[o->b]; break;
        case NSDAE_EXPR_DIV: w[o->dst] = w[o->a] / w[o->b]; break;
        case NSDAE_EXPR_NEG: w[o->dst] = -w[o->a]; break;
        default: w[o->dst] = nsdae_expr_apply(o->kind, w[o->a], o->b >= 0 ? w[o->b] : 0.0); break;
        }
        continue;
    leaf:
        if (bad < 0 && !isfinite(w[o->dst])) bad = k;
    }
    return bad;
}

static nsdae_status bad_input(const nsdae_tape *t, const tape_op *o, double v, nsdae_error *err)
{
    if (o->kind == NSDAE_EXPR_VAR)
        return nsdae_error_set(err, NSDAE_INVALID_INPUT, "tape: input %d (variable %d, order %d) is %g", o->a,
                               t->inputs[o->a].var, t->inputs[o->a].order, v);
    if (o->kind == NSDAE_EXPR_PARAM)
        return nsdae_error_set(err, NSDAE_INVALID_INPUT, "tape: parameter %d is %g", o->a, v);
    return nsdae_error_set(err, NSDAE_INVALID_INPUT, "tape: time is %g", v);
}

nsdae_status nsdae_tape_eval(nsdae_tape *t, const nsdae_tape_point *at, double *values, double *jac,
                             nsdae_error *err)
{
    if (!t || !at || (t->info.ninputs > 0 && !at->x) || (t->info.nparams > 0 && !at->params))
        return nsdae_error_set(err, NSDAE_INVALID_INPUT, "tape: no tape or missing input values");
    int bad = run(t, at, jac ? t->nops : t->nops_values);
    if (bad >= 0) return bad_input(t, &t->ops[bad], t->w[t->ops[bad].dst], err);
    if (values)
        for (int i = 0; i < t->info.nexprs; i++) values[i] = t->w[t->out[i]];
    if (jac)
        for (int i = 0; i < t->info.nexprs * t->info.nwrt; i++) jac[i] = t->w[t->jac[i]];
    return NSDAE_OK;
}
