/* The mode change array at one height K (Benveniste et al. 2026, sections 5.1-5.2, 9): the new mode's
 * completion shifted to t*, ..., t*+Ke, the hot-restart law at the last instant, the Euler identities that
 * make it ~-closed, and for every equation its dependent variables, which of them enter linearly (L_f, its
 * section 6) and with which power of 1/e. Facts are flagged (and later ignored), and each equation is
 * marked must-enable or may-disable. */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "impulse/impulse_internal.h"

/* Past iff fixed by the previous mode (section 5.2 of Benveniste et al. 2026, in closed form): y^(m)
 * shifted k with m + k <= d-_y - 1. */
int imp_is_past(const imp_ctx *cx, int var, int m, int k)
{
    int d = cx->prev.d[var];
    return d >= 0 && m + k <= d - 1;
}

int imp_find_avar(const imp_array *a, int var, int m, int k)
{
    for (int i = 0; i < a->nv; i++)
        if (a->v[i].var == var && a->v[i].m == m && a->v[i].k == k) return i;
    return -1;
}

static int add_avar(const imp_ctx *cx, imp_array *a, int var, int m, int k, int force_past)
{
    int i = imp_find_avar(a, var, m, k);
    if (i >= 0) return i;
    if (a->nv == a->capv) {
        int cap = a->capv ? 2 * a->capv : 32;
        imp_avar *p = realloc(a->v, (size_t)cap * sizeof *p);
        if (!p) return -1;
        a->v = p;
        a->capv = cap;
    }
    a->v[a->nv] = (imp_avar){var, m, k, force_past || imp_is_past(cx, var, m, k)};
    return a->nv++;
}

static imp_aeq *add_aeq(imp_array *a)
{
    if (a->ne == a->cape) {
        int cap = a->cape ? 2 * a->cape : 32;
        imp_aeq *p = realloc(a->e, (size_t)cap * sizeof *p);
        if (!p) return NULL;
        a->e = p;
        a->cape = cap;
    }
    imp_aeq *e = &a->e[a->ne++];
    memset(e, 0, sizeof *e);
    e->matched = -1;
    e->rest_n = -1;
    return e;
}

typedef struct shift_map {
    const imp_ctx *cx;
    imp_array *a;
    int k;          /* shift of the model's unknowns */
} shift_map;

/* Model leaf (j, o) -> array variable x_j^(o) shifted k; pre leaf -> shifted -1 (a left limit). */
static const nsdae_expr *map_shift(int j, int o, void *ctx)
{
    shift_map *s = ctx;
    const nsdae_impulse_input *in = s->cx->in;
    int v = j < in->nvars ? add_avar(s->cx, s->a, j, o, s->k, 0) : add_avar(s->cx, s->a, j - in->nvars, o, -1, 1);
    return v < 0 ? NULL : nsdae_expr_var(in->pool, IMP_LEAF(in, v), 0);
}

/* Whether r = c g for a nonzero constant c, tested at three pseudo-random points (our test for Lemma 3 of
 * Benveniste et al. 2026: facts are multiples of the guard; a numeric test accepts any way of writing it). */
int imp_proportional(const nsdae_impulse_input *in, const nsdae_expr *r, const nsdae_expr *g, int nv)
{
    enum { ORD = 5 };
    double *x = malloc((size_t)(nv ? nv : 1) * ORD * sizeof *x);
    if (!x) return 0;
    unsigned s = 12345u;
    double ratio = NAN;
    int ok = 1;
    for (int p = 0; p < 3 && ok; p++) {
        for (int i = 0; i < nv * ORD; i++) {
            s = s * 1103515245u + 12345u;
            x[i] = 0.3 + 1.4 * (double)((s >> 8) & 0xffff) / 65535.0;
        }
        nsdae_eval_env env = {in->params, in->nparams, x, nv, ORD - 1, 0.37};
        double a = nsdae_expr_eval(r, &env), b = nsdae_expr_eval(g, &env);
        if (!isfinite(a) || !isfinite(b) || fabs(b) < 1e-12 || fabs(a) < 1e-12) ok = 0;
        else if (p == 0) ratio = a / b;
        else ok = fabs(a / b - ratio) <= 1e-9 * fabs(ratio);
    }
    free(x);
    return ok;
}

static int in_list(const nsdae_impulse_eqs *l, const nsdae_expr *r)
{
    for (int i = 0; i < l->n; i++)
        if (l->residual[i] == r) return i;
    return -1;
}

/* Whether the new mode's equation i, differentiated m times and shifted k times, is one the previous
 * mode already entailed: it is in the previous mode's completion (f^(m) with m <= c-_f) and each of its
 * variables is past. Each past y^(o) shifted k is the left limit of y^(o) up to O(e) (Euler identities
 * back to the previous mode, section 5.2 of Benveniste et al. 2026), and `time` is t* + ke, so the
 * equation holds up to O(e) because the left limits satisfy the previous mode's completion. It has no
 * dependent variable to match, and it is not violated: like a fact of the guard, it is removed (the
 * half-wave rectifier's vs = vD + vC when the diode blocks: vD and vC are past, the previous mode had
 * it). A past-only equation the previous mode did not have (k1' = x x' + y y' at the cup-and-ball's
 * impact) stays: it is violated, and must-enable makes it D3. */
static int entailed_by_prev(const imp_ctx *cx, int i, int m, int k)
{
    const nsdae_impulse_input *in = cx->in;
    int p = in_list(&in->prev, in->next.residual[i]);
    if (p < 0 || !cx->prev.ok || m > cx->prev.c[p]) return 0;
    int *lv, nl;
    if (imp_leaves(cx->dnext[i * (cx->cmax + 1) + m], &lv, &nl, NULL) != NSDAE_OK)
        return 0; /* out of memory: kept, the conservative answer (at worst a D3) */
    int past = 1;
    for (int t = 0; t < nl && past; t++)
        if (lv[2 * t] < in->nvars) past = imp_is_past(cx, lv[2 * t], lv[2 * t + 1], k);
    free(lv);
    return past;
}

/* Lemma 3 of Benveniste et al. 2026, made syntactic (our test): f^(m) shifted k is a fact when k <= ell
 * and f^(m) is a constant multiple of the guard g (g shifted k is then entailed up to O(e)). With the
 * guard on s' (Benveniste et al. 2026, Appendix D.3), k1' = -2 (x x' + y y') is the fact, not k1.
 * Equations the previous mode entailed on past variables alone are facts too (entailed_by_prev). */
int imp_is_fact(const imp_ctx *cx, int i, int m, int k)
{
    const nsdae_impulse_input *in = cx->in;
    if (k <= cx->ell && in->guard && imp_proportional(in, cx->dnext[i * (cx->cmax + 1) + m], in->guard, 2 * in->nvars))
        return 1;
    return entailed_by_prev(cx, i, m, k);
}

/* Must-enable (Benveniste et al. 2026, (106), with our cascade rule for its section 9): consistency
 * equations at the last instant, and invariant equations (also in the previous mode, and in the
 * transient mode when there is one) at every shift; without a transient mode the whole tail. */
static int must_enable(const imp_ctx *cx, int i, int m, int k, int K)
{
    const nsdae_impulse_input *in = cx->in;
    const nsdae_expr *r = in->next.residual[i];
    int p = in_list(&in->prev, r);
    int invariant = p >= 0 && m <= (cx->prev.ok ? cx->prev.c[p] : 0) &&
                    (in->transient.n == 0 || in_list(&in->transient, r) >= 0);
    if (k == K && m < cx->next.c[i]) return 1;
    if (k == K && in->transient.n == 0) return 1;
    /* f^(m) shifted k, m >= 1, k < K is ~-equivalent to f^(m-1) shifted k+1, also in the array: the
     * Euler identity between their variables makes one of them redundant (one node of the ~-quotient,
     * Appendix C, Lemma 11), so only the most shifted member of the class must be enabled */
    return invariant && !(m >= 1 && k < K);
}

static nsdae_status add_model_eqs(imp_ctx *cx, imp_array *a, nsdae_error *err)
{
    const nsdae_impulse_input *in = cx->in;
    int K = a->K;
    for (int k = 0; k <= K; k++)
        for (int i = 0; i < in->next.n; i++)
            for (int m = 0; m <= cx->next.c[i]; m++) {
                shift_map sm = {cx, a, k};
                const nsdae_expr *ex;
                nsdae_status st = imp_relabel(in->pool, cx->dnext[i * (cx->cmax + 1) + m], map_shift, &sm, &ex, err);
                if (st != NSDAE_OK) return st;
                imp_aeq *e = add_aeq(a);
                if (!e) return nsdae_error_set(err, NSDAE_NOMEM, "impulse: out of memory for the array");
                *e = (imp_aeq){.kind = IMP_EQ_MODEL, .src = i, .m = m, .k = k, .expr = ex, .tail = k == K,
                               .ena = must_enable(cx, i, m, k, K), .matched = -1, .rest_n = -1};
                e->reluctant = in->transient.n > 0 && k < K && in_list(&in->transient, in->next.residual[i]) < 0;
                e->fact = imp_is_fact(cx, i, m, k);
            }
    for (int t = 0; t < cx->nlaw; t++) {
        int i = cx->law[t];
        shift_map sm = {cx, a, K};
        const nsdae_expr *ex;
        nsdae_status st = imp_relabel(in->pool, in->transient.residual[i], map_shift, &sm, &ex, err);
        if (st != NSDAE_OK) return st;
        imp_aeq *e = add_aeq(a);
        if (!e) return nsdae_error_set(err, NSDAE_NOMEM, "impulse: out of memory for the array");
        *e = (imp_aeq){.kind = IMP_EQ_LAW, .src = i, .k = K, .expr = ex, .tail = 1, .ena = 1, .matched = -1,
                       .rest_n = -1};
        e->fact = K <= cx->ell && in->guard && imp_proportional(in, in->transient.residual[i], in->guard, 2 * in->nvars);
    }
    return NSDAE_OK;
}

static double binom(int n, int i)
{
    double c = 1;
    for (int t = 1; t <= i; t++) c = c * (n - i + t) / t;
    return c;
}

/* ~-closure (Benveniste et al. 2026, section 5.1; the per-class bookkeeping is ours): per class (base
 * variable, total degree m + k) of dependent variables, one identity from each member to the member with
 * the smallest m (the most shifted one): x = e^-n sum_i C(n,i) (-1)^i z shifted -i. Classes are visited
 * from the highest degree down, because an identity only adds variables of lower degree. */
static nsdae_status add_euler(const imp_ctx *cx, imp_array *a, nsdae_error *err)
{
    int maxdeg = 0;
    for (int i = 0; i < a->nv; i++)
        if (a->v[i].m + a->v[i].k > maxdeg) maxdeg = a->v[i].m + a->v[i].k;
    for (int deg = maxdeg; deg >= 0; deg--)
        for (int y = 0; y < cx->in->nvars; y++) {
            int zmin = -1;
            for (int i = 0; i < a->nv; i++) {
                imp_avar *v = &a->v[i];
                if (v->var == y && !v->past && v->k >= 0 && v->m + v->k == deg && (zmin < 0 || v->m < a->v[zmin].m))
                    zmin = i;
            }
            if (zmin < 0) continue;
            for (int i = 0; i < a->nv; i++) {
                int vm = a->v[i].m, vk = a->v[i].k;
                if (a->v[i].var != y || a->v[i].past || vk < 0 || vm + vk != deg || i == zmin) continue;
                int n = vm - a->v[zmin].m;
                if (n > 7) return nsdae_error_set(err, NSDAE_LIMIT, "impulse: Euler identity of order %d (> 7)", n);
                imp_aeq *e = add_aeq(a);
                if (!e) return nsdae_error_set(err, NSDAE_NOMEM, "impulse: out of memory for the array");
                e->kind = IMP_EQ_EULER;
                e->ex = i;
                e->en = n;
                e->ena = 1;
                e->tail = vk == a->K;
                for (int t = 0; t <= n; t++) {
                    int z = add_avar(cx, a, y, a->v[zmin].m, a->v[zmin].k - t, 0);
                    if (z < 0) return nsdae_error_set(err, NSDAE_NOMEM, "impulse: out of memory for the array");
                    e->ez[t] = z;
                    e->ecoef[t] = binom(n, t) * (t % 2 ? -1.0 : 1.0);
                }
            }
        }
    return NSDAE_OK;
}

static nsdae_status push_dep(imp_aeq *e, int v, int lin, int n, nsdae_error *err)
{
    for (int t = 0; t < e->ndep; t++)
        if (e->dep[t] == v) return NSDAE_OK;
    int *d = realloc(e->dep, (size_t)(e->ndep + 1) * sizeof *d);
    if (d) e->dep = d;
    int *l = d ? realloc(e->lin, (size_t)(e->ndep + 1) * sizeof *l) : NULL;
    if (l) e->lin = l;
    int *x = l ? realloc(e->nexp, (size_t)(e->ndep + 1) * sizeof *x) : NULL;
    if (!x) return nsdae_error_set(err, NSDAE_NOMEM, "impulse: out of memory for the array");
    e->nexp = x;
    e->dep[e->ndep] = v, e->lin[e->ndep] = lin, e->nexp[e->ndep] = n;
    e->ndep++;
    return NSDAE_OK;
}

/* L_f of a model or law equation: a dependent variable is linear when its partial derivative is
 * free of dependent variables (so f = sum x f_x + rest with f_x, rest free of L_f, (107)). */
static nsdae_status classify(const imp_ctx *cx, imp_array *a, imp_aeq *e, nsdae_error *err)
{
    const nsdae_impulse_input *in = cx->in;
    e->rest_n = 0;
    if (e->kind == IMP_EQ_EULER) {
        e->rest_n = -1;
        nsdae_status st = push_dep(e, e->ex, 1, 0, err);
        for (int t = 0; t <= e->en && st == NSDAE_OK; t++) {
            if (a->v[e->ez[t]].past) e->rest_n = e->en;
            else st = push_dep(e, e->ez[t], 1, e->en, err);
        }
        return st;
    }
    int *lv, nl;
    nsdae_status st = imp_leaves(e->expr, &lv, &nl, err);
    for (int t = 0; t < nl && st == NSDAE_OK; t++) {
        int v = lv[2 * t] - IMP_LEAF(in, 0);
        if (a->v[v].past) continue;
        const nsdae_expr *dx;
        st = nsdae_expr_diff(in->pool, e->expr, lv[2 * t], 0, &dx, err);
        if (st != NSDAE_OK) break;
        int *dl, nd, lin = 1;
        st = imp_leaves(dx, &dl, &nd, err);
        if (st != NSDAE_OK) break;
        for (int u = 0; u < nd; u++)
            if (!a->v[dl[2 * u] - IMP_LEAF(in, 0)].past) lin = 0;
        free(dl);
        st = push_dep(e, v, lin, 0, err);
    }
    free(lv);
    return st;
}

nsdae_status imp_array_build(imp_ctx *cx, int K, imp_array *a, nsdae_error *err)
{
    memset(a, 0, sizeof *a);
    a->K = K;
    nsdae_status st = add_model_eqs(cx, a, err);
    /* every state and leading variable of the new mode at the last instant (the tail variables,
     * Benveniste et al. 2026, (106)), so that the Euler identities tie them to the impulsive head */
    for (int j = 0; j < cx->in->nvars && st == NSDAE_OK; j++)
        for (int d = 0; d <= cx->next.d[j] && st == NSDAE_OK; d++)
            if (add_avar(cx, a, j, d, K, 0) < 0) st = nsdae_error_set(err, NSDAE_NOMEM, "impulse: out of memory");
    if (st == NSDAE_OK) st = add_euler(cx, a, err);
    for (int i = 0; i < a->ne && st == NSDAE_OK; i++)
        if (!a->e[i].fact) st = classify(cx, a, &a->e[i], err);
    return st;
}

void imp_array_free(imp_array *a)
{
    for (int i = 0; i < a->ne; i++) {
        free(a->e[i].dep);
        free(a->e[i].lin);
        free(a->e[i].nexp);
    }
    free(a->e);
    free(a->v);
    memset(a, 0, sizeof *a);
}

static void shift_text(int k, char *buf, size_t size)
{
    if (k == 0) snprintf(buf, size, "t*");
    else if (k == 1) snprintf(buf, size, "t*+e");
    else if (k < 0) snprintf(buf, size, "t*-");
    else snprintf(buf, size, "t*+%de", k);
}

void imp_avar_name(const imp_ctx *cx, const imp_avar *v, char *buf, size_t size)
{
    char base[96], sh[16];
    const char *nm = cx->in->var_names ? cx->in->var_names[v->var] : "x";
    if (v->m == 0) snprintf(base, sizeof base, "%s", nm);
    else if (v->m == 1) snprintf(base, sizeof base, "der(%s)", nm);
    else if (v->m == 2) snprintf(base, sizeof base, "der(der(%s))", nm);
    else snprintf(base, sizeof base, "der(%s, %d)", nm, v->m);
    shift_text(v->k, sh, sizeof sh);
    snprintf(buf, size, "%s@%s", base, sh);
}

void imp_aeq_name(const imp_ctx *cx, const imp_array *a, const imp_aeq *e, char *buf, size_t size)
{
    const nsdae_impulse_input *in = cx->in;
    char sh[16];
    shift_text(e->k, sh, sizeof sh);
    if (e->kind == IMP_EQ_EULER) {
        char x[128], z[128];
        imp_avar_name(cx, &a->v[e->ex], x, sizeof x);
        imp_avar_name(cx, &a->v[e->ez[0]], z, sizeof z);
        snprintf(buf, size, "E(%s, %s)", x, z);
        return;
    }
    const nsdae_impulse_eqs *l = e->kind == IMP_EQ_LAW ? &in->transient : &in->next;
    char nm[32];
    const char *name = l->name && l->name[e->src] ? l->name[e->src] : NULL;
    if (!name) snprintf(nm, sizeof nm, "%s%d", e->kind == IMP_EQ_LAW ? "law" : "f", e->src + 1), name = nm;
    const char *primes[] = {"", "'", "''", "'''"};
    if (e->m <= 3) snprintf(buf, size, "%s%s@%s", name, primes[e->m], sh);
    else snprintf(buf, size, "%s^(%d)@%s", name, e->m, sh);
}
