/* Exogenous switches: the phases of an MLCS (one per combination of time-guarded branches that
 * can be selected together, nsdae_mode_phase_next) and the callbacks phase_at and forcing. The
 * callback context owns tapes of the time-only expressions it evaluates, so the MLCS outlives the
 * model. */
#include "translate/translate_internal.h"

#include <nsdae/tape.h>

#include <math.h>
#include <stdlib.h>
#include <string.h>

#define MAX_PHASES 256

static int is_time_if(const nsdae_block *b) { return b->kind == NSDAE_BLOCK_IF && b->time_only; }

/* Adds the phase `code` (a phase of the mode module) as a choice per block: the branch of each
 * time-guarded block that matters in it, -1 for every other block. */
static int add_phase(tctx *T, const nsdae_switches *sw, const int *code, int nb)
{
    if (T->nphases >= MAX_PHASES) {
        nsdae_tr_fail(T, NULL, "more than %d combinations of time-guarded branches", MAX_PHASES);
        return 0;
    }
    phase_data *v = realloc(T->phases, (size_t)(T->nphases + 1) * sizeof *v);
    if (!v) { nsdae_tr_nomem(T); return 0; }
    T->phases = v;
    phase_data *ph = &T->phases[T->nphases];
    memset(ph, 0, sizeof *ph);
    ph->choice = malloc((size_t)(nb + 1) * sizeof *ph->choice);
    if (!ph->choice) { nsdae_tr_nomem(T); return 0; }
    for (int b = 0; b < nb; b++) ph->choice[b] = -1;
    for (int k = 0; k < sw->ncode; k++)
        if (sw->sw[k].kind == NSDAE_SWITCH_IF_TIME && nsdae_mode_phase_active(sw, code, k))
            ph->choice[sw->sw[k].block] = code[k];
    T->nphases++;
    return 1;
}

/* ---- pruning: combinations that no time selects ------------------------------------------ */

typedef struct points {
    double *v;
    int n, cap;
} points;

/* Adds the switching times of the comparisons in c when each side difference is affine in
 * time; returns 0 when one is not (then nothing is pruned). */
static int switching_times(tctx *T, const nsdae_cond *c, points *pts)
{
    if (c->a && !switching_times(T, c->a, pts)) return 0;
    if (c->b && !switching_times(T, c->b, pts)) return 0;
    if (!c->lhs) return 1;
    const nsdae_expr *d = nsdae_tr_bind(T, nsdae_expr_binary(T->p, NSDAE_EXPR_SUB, c->lhs, c->rhs)), *dd;
    nsdae_error e2;
    if (!d || nsdae_expr_dt(T->p, d, &dd, &e2)) return 0;
    if (dd->kind != NSDAE_EXPR_CONST) return 0;
    if (dd->value == 0.0) return 1;
    nsdae_eval_env env = {NULL, 0, NULL, 0, 0, 0.0};
    double t = -nsdae_expr_eval(d, &env) / dd->value;
    if (!isfinite(t)) return 0;
    if (pts->n == pts->cap) {
        int cap = pts->cap ? 2 * pts->cap : 16;
        double *v = realloc(pts->v, (size_t)cap * sizeof *v);
        if (!v) return 0;
        pts->v = v;
        pts->cap = cap;
    }
    pts->v[pts->n++] = t;
    return 1;
}

static int cmp_double(const void *a, const void *b)
{
    double x = *(const double *)a, y = *(const double *)b;
    return x < y ? -1 : x > y;
}

/* The phase selected at time t (-1 if none, which enumeration rules out). */
static int phase_of_time(tctx *T, double t)
{
    int nb = nsdae_model_nblocks(T->m);
    nsdae_eval_env env = {nsdae_model_param_values(T->m), nsdae_model_nparams(T->m), NULL, 0, 0, t};
    for (int p = 0; p < T->nphases; p++) {
        int ok = 1;
        for (int b = 0; b < nb && ok; b++) {
            int want = T->phases[p].choice[b];
            if (want < 0) continue;
            const nsdae_block *blk = nsdae_model_block(T->m, b);
            int k = 0;
            while (k < blk->nbranches - 1 && !nsdae_cond_eval(blk->conds[k], &env)) k++;
            ok = k == want;
        }
        if (ok) return p;
    }
    return -1;
}

/* Keeps only the phases some time selects, when every time guard switches at known times:
 * the selection is constant between consecutive switching times, so evaluating it at each of
 * them, between them and beyond them visits every reachable combination. */
static void prune(tctx *T)
{
    int nb = nsdae_model_nblocks(T->m);
    points pts = {NULL, 0, 0};
    int affine = 1;
    for (int b = 0; b < nb && affine; b++) {
        const nsdae_block *blk = nsdae_model_block(T->m, b);
        if (!is_time_if(blk)) continue;
        for (int k = 0; k < blk->nbranches - 1 && affine; k++) affine = switching_times(T, blk->conds[k], &pts);
    }
    unsigned char *seen = calloc((size_t)T->nphases, 1);
    if (!affine || !seen || T->st) {
        free(pts.v);
        free(seen);
        return;
    }
    /* no switching time at all (every guard constant, `if 1 > 0`): the one sample below, t = 0,
     * selects the constant branches (and qsort must not see the NULL list) */
    if (pts.n > 1) qsort(pts.v, (size_t)pts.n, sizeof *pts.v, cmp_double);
    for (int i = -1; i < pts.n; i++) {
        double samples[3];
        int ns = 0;
        if (i < 0) samples[ns++] = pts.n ? pts.v[0] - 1.0 : 0.0;
        else {
            samples[ns++] = pts.v[i];
            samples[ns++] = i + 1 < pts.n ? 0.5 * (pts.v[i] + pts.v[i + 1]) : pts.v[i] + 1.0;
        }
        for (int k = 0; k < ns; k++) {
            int p = phase_of_time(T, samples[k]);
            if (p >= 0) seen[p] = 1;
        }
    }
    int kept = 0;
    for (int p = 0; p < T->nphases; p++) {
        if (seen[p]) T->phases[kept++] = T->phases[p];
        else free(T->phases[p].choice);
    }
    T->nphases = kept;
    free(pts.v);
    free(seen);
}

int nsdae_tr_enumerate_phases(tctx *T)
{
    nsdae_switches *sw = NULL;
    T->st = nsdae_mode_switches(T->m, &sw, T->err);
    if (T->st) return 0;
    int nb = nsdae_model_nblocks(T->m);
    int *code = calloc((size_t)sw->n + 1, sizeof *code);
    int ok = code != NULL;
    if (!ok) nsdae_tr_nomem(T);
    if (ok) nsdae_mode_phase_first(sw, code);
    while (ok && (ok = add_phase(T, sw, code, nb)) && nsdae_mode_phase_next(sw, code)) {}
    free(code);
    nsdae_mode_switches_destroy(sw);
    if (ok && T->nphases > 1) prune(T);
    return ok;
}

/* ---- the callback context ----------------------------------------------------------------- */

/* The comparisons of the time guards and the time-dependent forcing terms are compiled into
 * tapes (nsdae/tape.h, time their only input), which copy what they evaluate: the context
 * outlives the model and the translation's pool. */

typedef struct tcond {
    nsdae_cond_kind kind;
    int lhs, rhs; /* comparisons: indices into the condition tape's values */
    int a, b;     /* indices into conds */
} tcond;

typedef struct tterm {
    int phase;
    char which;
    int row;
    int value;    /* index into the values of its phase's tape */
} tterm;

struct tphase_ctx {
    int nblocks;          /* model blocks (choices are indexed by block) */
    int *nconds;          /* per block: conditions of a time-guarded if, 0 otherwise */
    int **cond_root;      /* per block: root index of each condition */
    tcond *conds;
    int ncond, cap_cond;
    nsdae_tape *cond_tape;        /* every comparison side */
    double *cond_val;
    int nphases;
    int *choice;          /* nphases x nblocks */
    tterm *terms;
    const nsdae_expr **term_expr; /* until install: in the translation's pool */
    int nterms, cap_terms;
    nsdae_tape **term_tape;       /* per phase, from install on */
    double *term_val;
    int *scratch;         /* nblocks: branch selected at the current time */
};

/* A growing list of the expressions a tape will be compiled from. */
typedef struct expr_list {
    const nsdae_expr **e;
    int n, cap;
} expr_list;

static int push_expr(expr_list *l, const nsdae_expr *e)
{
    if (!e) return -1;
    if (l->n == l->cap) {
        int cap = l->cap ? 2 * l->cap : 16;
        const nsdae_expr **v = realloc(l->e, (size_t)cap * sizeof *v);
        if (!v) return -1;
        l->e = v;
        l->cap = cap;
    }
    l->e[l->n] = e;
    return l->n++;
}

/* A tape whose only input is the time (parameters bound before, no unknown). */
static nsdae_tape *time_tape(const nsdae_expr *const *e, int n)
{
    nsdae_tape_spec spec = {e, n, NULL, 0, 0, NULL, 0};
    nsdae_tape *t = NULL;
    return nsdae_tape_create(NULL, &spec, &t, NULL) == NSDAE_OK ? t : NULL;
}

static int copy_cond(tctx *T, tphase_ctx *c, expr_list *sides, const nsdae_cond *k)
{
    if (c->ncond == c->cap_cond) {
        int cap = c->cap_cond ? 2 * c->cap_cond : 16;
        tcond *v = realloc(c->conds, (size_t)cap * sizeof *v);
        if (!v) return -1;
        c->conds = v;
        c->cap_cond = cap;
    }
    int i = c->ncond++;
    c->conds[i] = (tcond){k->kind, -1, -1, -1, -1};
    if (k->lhs) {
        int l = push_expr(sides, nsdae_tr_bind(T, k->lhs));
        int r = push_expr(sides, nsdae_tr_bind(T, k->rhs));
        if (l < 0 || r < 0) return -1;
        c->conds[i].lhs = l;
        c->conds[i].rhs = r;
    }
    if (k->a) {
        int a = copy_cond(T, c, sides, k->a);
        if (a < 0) return -1;
        c->conds[i].a = a;
    }
    if (k->b) {
        int b = copy_cond(T, c, sides, k->b);
        if (b < 0) return -1;
        c->conds[i].b = b;
    }
    return i;
}

void nsdae_tr_phase_ctx_free(void *vp)
{
    tphase_ctx *c = vp;
    if (!c) return;
    for (int b = 0; c->cond_root && b < c->nblocks; b++) free(c->cond_root[b]);
    for (int p = 0; c->term_tape && p < c->nphases; p++) nsdae_tape_destroy(c->term_tape[p]);
    free(c->cond_root); free(c->nconds); free(c->conds); free(c->choice); free(c->terms); free(c->scratch);
    free(c->term_expr); free(c->term_tape); free(c->term_val); free(c->cond_val);
    nsdae_tape_destroy(c->cond_tape);
    free(c);
}

tphase_ctx *nsdae_tr_phase_ctx_create(tctx *T)
{
    tphase_ctx *c = calloc(1, sizeof *c);
    if (!c) return NULL;
    expr_list sides = {NULL, 0, 0};
    int nb = nsdae_model_nblocks(T->m);
    c->nblocks = nb;
    c->nphases = T->nphases;
    c->nconds = calloc((size_t)nb + 1, sizeof *c->nconds);
    c->cond_root = calloc((size_t)nb + 1, sizeof *c->cond_root);
    c->scratch = calloc((size_t)nb + 1, sizeof *c->scratch);
    c->choice = malloc(((size_t)nb * (size_t)T->nphases + 1) * sizeof *c->choice);
    if (!c->nconds || !c->cond_root || !c->scratch || !c->choice) goto fail;
    for (int p = 0; p < T->nphases; p++)
        memcpy(c->choice + (size_t)p * nb, T->phases[p].choice, (size_t)nb * sizeof *c->choice);
    for (int b = 0; b < nb; b++) {
        const nsdae_block *blk = nsdae_model_block(T->m, b);
        if (!is_time_if(blk)) continue;
        c->nconds[b] = blk->nbranches - 1;
        c->cond_root[b] = malloc((size_t)blk->nbranches * sizeof(int));
        if (!c->cond_root[b]) goto fail;
        for (int k = 0; k < blk->nbranches - 1; k++)
            if ((c->cond_root[b][k] = copy_cond(T, c, &sides, blk->conds[k])) < 0) goto fail;
    }
    c->cond_val = malloc(((size_t)sides.n + 1) * sizeof *c->cond_val);
    if (!c->cond_val || !(c->cond_tape = time_tape(sides.e, sides.n))) goto fail;
    free(sides.e);
    return c;
fail:
    free(sides.e);
    nsdae_tr_phase_ctx_free(c);
    return NULL;
}

int nsdae_tr_phase_ctx_add_term(tphase_ctx *c, int phase, char which, int row, const nsdae_expr *e)
{
    /* bound and time-only: what the forcing callback can evaluate */
    if (!e || (e->flags & (NSDAE_EXPR_HAS_VAR | NSDAE_EXPR_HAS_PARAM))) return 0;
    if (c->nterms == c->cap_terms) {
        int cap = c->cap_terms ? 2 * c->cap_terms : 16;
        tterm *v = realloc(c->terms, (size_t)cap * sizeof *v);
        if (!v) return 0;
        c->terms = v;
        const nsdae_expr **x = realloc(c->term_expr, (size_t)cap * sizeof *x);
        if (!x) return 0;
        c->term_expr = x;
        c->cap_terms = cap;
    }
    c->term_expr[c->nterms] = e;
    c->terms[c->nterms++] = (tterm){phase, which, row, -1};
    return 1;
}

/* The values of the condition sides at time t (NaN everywhere if t is not finite, so that every
 * comparison is false, as when each side is evaluated at that t). */
static void eval_conds(tphase_ctx *c, double t)
{
    nsdae_tape_point at = {NULL, NULL, t};
    if (nsdae_tape_eval(c->cond_tape, &at, c->cond_val, NULL, NULL) != NSDAE_OK) {
        nsdae_tape_info in;
        nsdae_tape_get_info(c->cond_tape, &in);
        for (int k = 0; k < in.nexprs; k++) c->cond_val[k] = NAN;
    }
}

static int cond_true(const tphase_ctx *c, int i)
{
    const tcond *k = &c->conds[i];
    const double *v = c->cond_val;
    switch (k->kind) {
    case NSDAE_COND_GT: return v[k->lhs] > v[k->rhs];
    case NSDAE_COND_GE: return v[k->lhs] >= v[k->rhs];
    case NSDAE_COND_LT: return v[k->lhs] < v[k->rhs];
    case NSDAE_COND_LE: return v[k->lhs] <= v[k->rhs];
    case NSDAE_COND_AND: return cond_true(c, k->a) && cond_true(c, k->b);
    case NSDAE_COND_OR: return cond_true(c, k->a) || cond_true(c, k->b);
    case NSDAE_COND_NOT: return !cond_true(c, k->a);
    }
    return 0;
}

static int phase_at(double t, void *vp)
{
    tphase_ctx *c = vp;
    eval_conds(c, t);
    for (int b = 0; b < c->nblocks; b++) {
        c->scratch[b] = -1;
        if (!c->cond_root[b]) continue;
        int k = 0;
        while (k < c->nconds[b] && !cond_true(c, c->cond_root[b][k])) k++;
        c->scratch[b] = k; /* the else branch when no condition holds */
    }
    for (int p = 0; p < c->nphases; p++) {
        const int *ch = c->choice + (size_t)p * c->nblocks;
        int ok = 1;
        for (int b = 0; b < c->nblocks && ok; b++)
            if (ch[b] >= 0 && ch[b] != c->scratch[b]) ok = 0;
        if (ok) return p;
    }
    return 0;
}

static void forcing(double t, double *b, double *cc, void *vp)
{
    tphase_ctx *c = vp;
    int p = c->nphases > 1 ? phase_at(t, c) : 0;
    nsdae_tape_point at = {NULL, NULL, t};
    nsdae_tape_info in;
    nsdae_tape_get_info(c->term_tape[p], &in);
    if (nsdae_tape_eval(c->term_tape[p], &at, c->term_val, NULL, NULL) != NSDAE_OK)
        for (int k = 0; k < in.nexprs; k++) c->term_val[k] = NAN; /* t not finite */
    for (int i = 0; i < c->nterms; i++) {
        const tterm *x = &c->terms[i];
        if (x->phase != p) continue;
        double v = c->term_val[x->value];
        if (x->which == 'b') b[x->row] += v;
        else cc[x->row] += v;
    }
}

/* One tape per phase over that phase's terms. */
static int compile_terms(tphase_ctx *c)
{
    const nsdae_expr **e = malloc(((size_t)c->nterms + 1) * sizeof *e);
    c->term_tape = calloc((size_t)c->nphases + 1, sizeof *c->term_tape);
    c->term_val = malloc(((size_t)c->nterms + 1) * sizeof *c->term_val);
    int ok = e && c->term_tape && c->term_val;
    for (int p = 0; p < c->nphases && ok; p++) {
        int n = 0;
        for (int i = 0; i < c->nterms; i++)
            if (c->terms[i].phase == p) {
                c->terms[i].value = n;
                e[n++] = c->term_expr[i];
            }
        ok = (c->term_tape[p] = time_tape(e, n)) != NULL;
    }
    free(e);
    free(c->term_expr); /* the translation's expressions are not needed any more */
    c->term_expr = NULL;
    return ok;
}

int nsdae_tr_phase_ctx_install(tphase_ctx *c, nsdae_mlcs *s)
{
    if (!compile_terms(c)) return 0;
    s->ctx = c;
    s->ctx_free = nsdae_tr_phase_ctx_free;
    s->phase_at = c->nphases > 1 ? phase_at : NULL;
    s->forcing = c->nterms > 0 ? forcing : NULL;
    return 1;
}
