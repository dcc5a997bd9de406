/* The rows of the current phase: equations in source order, complementarity and relay relations as
 * set-valued rows, time-guarded blocks by their selected branch, and state-guarded blocks relaxed by
 * filling in the graph (Rocca et al. eq. (3); examples/LANGUAGE.md, "How the time stepper reads a model"). */
#include "translate/translate_internal.h"

#include "model/expr_internal.h"
#include <nsdae/tolerances.h>

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static int before(nsdae_srcpos a, nsdae_srcpos b) { return a.line < b.line || (a.line == b.line && a.col < b.col); }

/* 0 <= a _|_ b >= 0 */
static void add_compl(tctx *T, const nsdae_equation *q, row_list *out)
{
    if (q->friction) {
        nsdae_tr_fail(T, q, "Coulomb friction on a contact needs the Moreau-Jean scheme (Lagrangian contact "
                            "form), not an MLCS");
        return;
    }
    if (q->restitution) {
        nsdae_tr_fail(T, q, "an impact law (restitution) on a unilateral constraint needs the Moreau-Jean "
                            "scheme (Lagrangian contact form), not an MLCS");
        return;
    }
    nsdae_expr_pool *p = T->p;
    const nsdae_expr *a = nsdae_tr_prepare(T, q->a, q), *b = nsdae_tr_prepare(T, q->b, q);
    if (!a || !b) return;
    /* A never-differentiated variable on one side, not yet a multiplier, is the multiplier itself
     * (top level only: inside a time-guarded branch it must stay an unknown of every phase). */
    int lambda = -1;
    const nsdae_expr *w = a, *mult = b;
    for (int side = 0; side < 2 && lambda < 0 && q->block < 0; side++) {
        const nsdae_expr *x = side == 0 ? b : a;
        if (x->kind == NSDAE_EXPR_VAR && x->order == 0 && x->index < T->nvars &&
            nsdae_model_var(T->m, x->index)->max_order == 0 && T->u_site[x->index] < 0) {
            lambda = x->index;
            w = side == 0 ? a : b;
            mult = x;
        }
    }
    char arg[200], name[260];
    nsdae_tr_print(T, mult, arg, sizeof arg);
    snprintf(name, sizeof name, "mult(%s)", arg);
    int s = nsdae_tr_site(T, KEY_EQ, NULL, q->index, 0, 0, NSDAE_ROW_COMPLEMENTARITY, 0, INFINITY, q, name, lambda);
    if (s < 0) return;
    if (!T->sites[s].w) nsdae_tr_set_site_w(T, s, w);
    if (T->sites[s].lambda != lambda) /* the link row mult - b = 0 */
        nsdae_tr_push_row(T, out, X_SUB(p, nsdae_expr_var(p, T->sites[s].lambda, 0), mult), q);
}

/* v in [lo, hi] * sign(arg):  box row with w = -arg */
static void add_sign(tctx *T, const nsdae_equation *q, row_list *out)
{
    nsdae_expr_pool *p = T->p;
    const nsdae_expr *arg = nsdae_tr_prepare(T, q->arg, q);
    const nsdae_expr *lo = nsdae_tr_bind(T, q->lo), *hi = nsdae_tr_bind(T, q->hi);
    if (!arg || !lo || !hi) return;
    if (lo->kind != NSDAE_EXPR_CONST || hi->kind != NSDAE_EXPR_CONST) {
        nsdae_tr_fail(T, q, "relay bounds must be constants");
        return;
    }
    if (!(lo->value <= hi->value)) {
        nsdae_tr_fail(T, q, "relay bounds [%g, %g]: the lower bound exceeds the upper bound", lo->value, hi->value);
        return;
    }
    int v = q->var, lambda = -1;
    if (q->block < 0 && nsdae_model_var(T->m, v)->max_order == 0 && T->u_site[v] < 0) lambda = v;
    char name[300];
    snprintf(name, sizeof name, "relay(%s)", T->uname[v]);
    int s = nsdae_tr_site(T, KEY_EQ, NULL, q->index, 0, 0, NSDAE_ROW_BOX, lo->value, hi->value, q, name, lambda);
    if (s < 0) return;
    if (!T->sites[s].w) nsdae_tr_set_site_w(T, s, X_NEG(p, arg));
    if (T->sites[s].lambda != lambda) {
        const nsdae_expr *var = nsdae_tr_prepare(T, nsdae_expr_var(p, v, 0), q);
        nsdae_tr_push_row(T, out, X_SUB(p, var, nsdae_expr_var(p, T->sites[s].lambda, 0)), q);
    }
}

/* h with "then" active for h > 0 (the mode module's switching function); AND/OR cannot be relaxed
 * into one switching function. */
static const nsdae_expr *switching_function(tctx *T, const nsdae_cond *c, const nsdae_equation *eq)
{
    const nsdae_expr *h = nsdae_mode_switching_function(T->p, c);
    if (h && (h->flags & NSDAE_EXPR_HAS_PRE)) {
        nsdae_tr_fail(T, eq, "pre() in a state guard (line %d): left limits exist at events only, and the time "
                             "stepper has none (it relaxes the switch over a step)",
                      c->pos.line);
        return NULL;
    }
    if (h || nsdae_expr_pool_failed(T->p)) return h;
    while (c->kind == NSDAE_COND_NOT) c = c->a;
    nsdae_tr_fail(T, eq, "a state guard with 'and'/'or' cannot be relaxed into one switching function (line %d)",
                  c->pos.line);
    return NULL;
}

/* Is coef[] (2 nu entries) constant? Returns values in v; time-dependence or non-constant: 0. */
static int constant_coefs(const nsdae_expr **coef, int n, double *v)
{
    for (int i = 0; i < n; i++) {
        if (coef[i]->kind != NSDAE_EXPR_CONST) return 0;
        v[i] = coef[i]->value;
    }
    return 1;
}

/* sum_j c_j u_j + rest from affine coefficients (constant c_j): a readable, simplified form. */
static const nsdae_expr *canonical(tctx *T, const double *v, int nl, const nsdae_expr *rest)
{
    nsdae_expr_pool *p = T->p;
    const nsdae_expr *acc = X_C(p, 0.0);
    for (int j = 0; j < nl; j++) {
        if (v[j] == 0.0) continue;
        const nsdae_expr *u = nsdae_expr_var(p, j / 2, j % 2);
        acc = v[j] < 0 ? X_SUB(p, acc, X_MUL(p, X_C(p, -v[j]), u)) : X_ADD(p, acc, X_MUL(p, X_C(p, v[j]), u));
    }
    return X_ADD(p, acc, rest);
}

/* The multipliers of the relaxation of condition k of a state-guarded block, each a site created
 * once (*site): which 0 is s in step(h), a box row [0, 1] with w = -h, returned as s; which 1 is
 * minus(h) = h-, a complementarity row with w = h + minus, returned as h+ = h + minus, which is
 * the product s h for s in step(h). NULL on error. */
static const nsdae_expr *relax_multiplier(tctx *T, int *site, int block, int k, int which, const nsdae_expr *h,
                                          const char *hs, const nsdae_equation *eq)
{
    nsdae_expr_pool *p = T->p;
    char buf[260];
    if (*site < 0) {
        snprintf(buf, sizeof buf, which ? "minus(%s)" : "step(%s)", hs);
        *site = which ? nsdae_tr_site(T, KEY_BLOCK, NULL, block, k, 1, NSDAE_ROW_COMPLEMENTARITY, 0, INFINITY, eq, buf, -1)
                      : nsdae_tr_site(T, KEY_BLOCK, NULL, block, k, 0, NSDAE_ROW_BOX, 0.0, 1.0, eq, buf, -1);
        if (*site < 0) return NULL;
        const nsdae_expr *lam = nsdae_expr_var(p, T->sites[*site].lambda, 0);
        if (!T->sites[*site].w) nsdae_tr_set_site_w(T, *site, which ? X_ADD(p, h, lam) : X_NEG(p, h));
    }
    const nsdae_expr *lam = nsdae_expr_var(p, T->sites[*site].lambda, 0);
    return which ? X_ADD(p, h, lam) : lam;
}

/* then/else lists (same length) -> else + a (h + minus) + k step, in place in els. */
static void relax_pair(tctx *T, int block, int k, const nsdae_cond *cond, row_list *thn, row_list *els)
{
    nsdae_expr_pool *p = T->p;
    const nsdae_equation *eq0 = thn->n ? thn->v[0].eq : els->n ? els->v[0].eq : NULL;
    const nsdae_expr *h0 = switching_function(T, cond, eq0);
    const nsdae_expr *h = h0 ? nsdae_tr_prepare(T, h0, eq0) : NULL;
    if (!h) return;
    char hs[200], ds[200];
    int n = 2 * T->nu + 64; /* room for the multipliers created below */
    const nsdae_expr **ch = calloc((size_t)n, sizeof *ch), **cd = calloc((size_t)n, sizeof *cd);
    double *vh = calloc((size_t)n, sizeof *vh), *vd = calloc((size_t)n, sizeof *vd);
    if (!ch || !cd || !vh || !vd) {
        nsdae_tr_nomem(T);
        goto done;
    }
    const nsdae_expr *rh;
    if (!nsdae_tr_affine(T, h, eq0, ch, &rh)) goto done;
    int nl = 2 * T->nu;
    int hconst = constant_coefs(ch, nl, vh);
    nsdae_tr_print(T, hconst ? canonical(T, vh, nl, rh) : h, hs, sizeof hs);
    if (!hconst) {
        nsdae_tr_fail(T, eq0, "the switching function %s of the 'if' at line %d has time-dependent coefficients", hs,
                      nsdae_model_block(T->m, block)->pos.line);
        goto done;
    }
    int jmax = -1;
    for (int j = 0; j < nl; j++) {
        if (j % 2 == 1 && vh[j] != 0.0) {
            nsdae_tr_fail(T, eq0, "the switching function %s of the 'if' at line %d uses a derivative", hs,
                          nsdae_model_block(T->m, block)->pos.line);
            goto done;
        }
        if (vh[j] != 0.0 && (jmax < 0 || fabs(vh[j]) > fabs(vh[jmax]))) jmax = j;
    }
    int s_step = -1, s_minus = -1;
    for (int i = 0; i < thn->n && !T->st; i++) {
        const nsdae_equation *eq = thn->v[i].eq;
        const nsdae_expr *d = X_SUB(p, thn->v[i].r, els->v[i].r), *rd;
        if (!d) { nsdae_tr_nomem(T); break; }
        if (!nsdae_tr_affine(T, d, eq, cd, &rd)) break;
        int ok = constant_coefs(cd, nl, vd);
        nsdae_tr_print(T, ok ? canonical(T, vd, nl, rd) : d, ds, sizeof ds);
        ok = ok && jmax >= 0;
        double a = ok ? vd[jmax] / vh[jmax] : 0.0, scale = 1.0;
        for (int j = 0; ok && j < nl; j++) scale = fmax(scale, fabs(vd[j]));
        for (int j = 0; ok && j < nl; j++)
            if (fabs(vd[j] - a * vh[j]) > NSDAE_TOL_AFFINE * scale) ok = 0;
        const nsdae_expr *kx = ok ? X_SUB(p, rd, X_MUL(p, X_C(p, a), rh)) : NULL;
        if (ok && (!kx || kx->kind != NSDAE_EXPR_CONST)) ok = 0;
        if (!ok) {
            nsdae_tr_fail(T, eq,
                          "the state switch of the 'if' at line %d cannot be relaxed exactly: the difference "
                          "between its branches, %s, is not a*h + k with constants a, k for h = %s",
                          nsdae_model_block(T->m, block)->pos.line, ds, hs);
            break;
        }
        double kv = kx->value;
        const nsdae_expr *sh = NULL, *step = NULL;
        if ((a != 0.0 && !(sh = relax_multiplier(T, &s_minus, block, k, 1, h, hs, eq))) ||
            (kv != 0.0 && !(step = relax_multiplier(T, &s_step, block, k, 0, h, hs, eq)))) {
            if (!T->st) nsdae_tr_nomem(T);
            break;
        }
        /* g2 + s (g1 - g2) with g1 - g2 = a h + k: the mode module's relaxed pair */
        const nsdae_expr *g = nsdae_mode_relax_affine(p, els->v[i].r, a, sh, kv, step);
        if (!g) { nsdae_tr_nomem(T); break; }
        els->v[i].r = g;
        els->v[i].eq = eq;
    }
done:
    free(ch); free(cd); free(vh); free(vd);
}

static void relax_state_block(tctx *T, int b, row_list *out)
{
    const nsdae_block *blk = nsdae_model_block(T->m, b);
    int nb = blk->nbranches;
    row_list *lists = calloc((size_t)nb, sizeof *lists);
    if (!lists) {
        nsdae_tr_nomem(T);
        return;
    }
    for (int k = 0; k < nb && !T->st; k++) nsdae_tr_collect(T, b, k, &lists[k], 1);
    for (int k = 0; k < nb && !T->st; k++)
        if (lists[k].n != lists[0].n) /* the parser checks counts; relations inside are refused earlier */
            nsdae_tr_fail(T, NULL, "the 'if' at line %d has branches with different row counts", blk->pos.line);
    /* if c0 then L0 elseif c1 then L1 ... else Ln  =  if c0 then L0 else (if c1 then L1 else (...)) */
    for (int k = nb - 2; k >= 0 && !T->st; k--) relax_pair(T, b, k, blk->conds[k], &lists[k], &lists[nb - 1]);
    for (int i = 0; i < lists[nb - 1].n && !T->st; i++)
        nsdae_tr_push_row(T, out, lists[nb - 1].v[i].r, lists[nb - 1].v[i].eq);
    for (int k = 0; k < nb; k++) free(lists[k].v);
    free(lists);
}

void nsdae_tr_collect(tctx *T, int block, int branch, row_list *out, int in_state)
{
    const nsdae_model *m = T->m;
    int ne = nsdae_model_nequations(m), nb = nsdae_model_nblocks(m);
    int i = 0, b = 0;
    while (!T->st) {
        while (i < ne && !(nsdae_model_equation(m, i)->block == block && nsdae_model_equation(m, i)->branch == branch))
            i++;
        while (b < nb &&
               !(nsdae_model_block(m, b)->parent == block && nsdae_model_block(m, b)->parent_branch == branch))
            b++;
        if (i >= ne && b >= nb) break;
        int take_eq = i < ne && (b >= nb || before(nsdae_model_equation(m, i)->pos, nsdae_model_block(m, b)->pos));
        if (take_eq) {
            const nsdae_equation *q = nsdae_model_equation(m, i++);
            if (q->kind != NSDAE_EQ_EQUAL && in_state) {
                nsdae_tr_fail(T, q, "a %s relation inside a state-guarded 'if' cannot be relaxed into an MLCS",
                              q->kind == NSDAE_EQ_COMPL ? "complementarity" : "relay");
                break;
            }
            if (q->kind == NSDAE_EQ_COMPL) add_compl(T, q, out);
            else if (q->kind == NSDAE_EQ_SIGN) add_sign(T, q, out);
            else nsdae_tr_push_row(T, out, nsdae_tr_prepare(T, q->residual, q), q);
        } else {
            const nsdae_block *blk = nsdae_model_block(m, b++);
            if (blk->kind == NSDAE_BLOCK_WHEN) {
                T->st = nsdae_error_set(T->err, NSDAE_UNSUPPORTED,
                                        "%s:%d:%d: 'when': transient modes with a user law are not translated to "
                                        "an MLCS, so neither the time steppers nor the event-driven engine "
                                        "(--engine events, which runs the MLCS) take them; `nsdae restart` "
                                        "analyses the mode change",
                                        nsdae_model_filename(m), blk->pos.line, blk->pos.col);
                break;
            }
            if (blk->time_only) nsdae_tr_collect(T, blk->index, T->phases[T->cur].choice[blk->index], out, in_state);
            else relax_state_block(T, blk->index, out);
        }
    }
}
