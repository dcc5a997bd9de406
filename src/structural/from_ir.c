/* One mode of a model IR: the enabled equations (guards, complementarity and sign choices, the
 * relaxed sliding mode), its signature matrix from the expression DAG, the structural analysis,
 * and the numeric check with the IR's symbolic derivatives evaluated at the start values. */
#include <nsdae/structural.h>

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define TEXT_SIZE 256

static char *dup_string(const char *s)
{
    size_t n = strlen(s) + 1;
    char *p = malloc(n);
    if (p) memcpy(p, s, n);
    return p;
}

void nsdae_structural_mode_destroy(nsdae_structural_mode *md)
{
    if (!md) return;
    for (int j = 0; md->var_names && j < md->nvar; j++) free(md->var_names[j]);
    free(md->var_names);
    free(md->choice);
    free(md->label);
    free(md->residual);
    free(md->origin);
    nsdae_sigma_destroy(md->sigma);
    nsdae_structural_result_destroy(md->result);
    free(md);
}

/* Appends printf-style text to a growing label. */
static int append(char **s, size_t *len, size_t *cap, const char *text)
{
    size_t n = strlen(text);
    if (*len + n + 1 > *cap) {
        size_t c = *cap ? *cap : 64;
        while (c < *len + n + 1) c *= 2;
        char *p = realloc(*s, c);
        if (!p) return 0;
        *s = p;
        *cap = c;
    }
    memcpy(*s + *len, text, n + 1);
    *len += n;
    return 1;
}

static void print_cond(const nsdae_model *m, const nsdae_cond *c, char *buf, size_t size)
{
    char a[TEXT_SIZE], b[TEXT_SIZE];
    static const char *ops[] = {">", ">=", "<", "<="};
    switch (c->kind) {
    case NSDAE_COND_GT: case NSDAE_COND_GE: case NSDAE_COND_LT: case NSDAE_COND_LE:
        nsdae_model_print_expr(m, c->lhs, a, sizeof a);
        nsdae_model_print_expr(m, c->rhs, b, sizeof b);
        snprintf(buf, size, "%s %s %s", a, ops[c->kind], b);
        return;
    case NSDAE_COND_AND: case NSDAE_COND_OR:
        print_cond(m, c->a, a, sizeof a);
        print_cond(m, c->b, b, sizeof b);
        snprintf(buf, size, "(%s) %s (%s)", a, c->kind == NSDAE_COND_AND ? "and" : "or", b);
        return;
    case NSDAE_COND_NOT:
        print_cond(m, c->a, a, sizeof a);
        snprintf(buf, size, "not (%s)", a);
        return;
    }
    snprintf(buf, size, "?");
}

typedef struct builder {
    const nsdae_model *m;
    nsdae_expr_pool *pool;
    const nsdae_structural_switch *sw;
    int nsw;
    const int *choice;
    const nsdae_expr **res;
    int *origin;
    char **names;
    int n, cap;
} builder;

static int add_eq(builder *B, const nsdae_expr *r, int origin, const char *name)
{
    if (!r) return 0;
    if (B->n == B->cap) {
        int c = B->cap ? 2 * B->cap : 16;
        const nsdae_expr **a = realloc(B->res, (size_t)c * sizeof *a);
        if (!a) return 0;
        B->res = a;
        int *o = realloc(B->origin, (size_t)c * sizeof *o);
        if (!o) return 0;
        B->origin = o;
        char **nm = realloc(B->names, (size_t)c * sizeof *nm);
        if (!nm) return 0;
        B->names = nm;
        B->cap = c;
    }
    B->names[B->n] = dup_string(name);
    if (!B->names[B->n]) return 0;
    B->res[B->n] = r;
    B->origin[B->n] = origin;
    B->n++;
    return 1;
}

static int switch_of_block(const nsdae_structural_switch *sw, int nsw, int block)
{
    for (int s = 0; s < nsw; s++) if (sw[s].kind == NSDAE_SWITCH_IF && sw[s].block == block) return s;
    return -1;
}

static int switch_of_equation(const nsdae_structural_switch *sw, int nsw, int eq)
{
    for (int s = 0; s < nsw; s++) if (sw[s].kind != NSDAE_SWITCH_IF && sw[s].equation == eq) return s;
    return -1;
}

/* Whether the branch (block, branch) is selected, following the ancestors; *sliding_switch is set
 * when the innermost block is in its sliding choice. */
static int branch_selected(const builder *B, int block, int branch, int *sliding_switch)
{
    *sliding_switch = -1;
    int first = 1;
    for (int guard = 0; block >= 0 && guard < 10000; guard++) {
        int s = switch_of_block(B->sw, B->nsw, block);
        if (s < 0) return 0; /* a `when` block */
        if (B->sw[s].sliding && B->choice[s] == B->sw[s].nchoices - 1) {
            if (!first) return 0;
            *sliding_switch = s;
        } else if (B->choice[s] != branch) {
            return 0;
        }
        first = 0;
        const nsdae_block *blk = nsdae_model_block(B->m, block);
        block = blk->parent;
        branch = blk->parent_branch;
    }
    return 1;
}

static const nsdae_expr *sub(nsdae_expr_pool *p, const nsdae_expr *a, const nsdae_expr *b)
{
    return nsdae_expr_binary(p, NSDAE_EXPR_SUB, a, b);
}

nsdae_status nsdae_structural_mode_analyze(const nsdae_model *m, const nsdae_structural_switch *sw, int nsw,
                                           const int *choice, nsdae_structural_mode **out, nsdae_error *err)
{
    *out = NULL;
    if (!nsdae_structural_mode_canonical(sw, nsw, choice))
        return nsdae_error_set(err, NSDAE_INVALID_INPUT, "structural: not a canonical mode code");
    nsdae_status st = NSDAE_OK;
    nsdae_expr_pool *pool = nsdae_model_pool(m);
    int nv = nsdae_model_nvars(m), ne = nsdae_model_nequations(m);
    builder B = {m, pool, sw, nsw, choice, NULL, NULL, NULL, 0, 0};
    size_t llen = 0, lcap = 0;
    char *label = NULL;
    char text[TEXT_SIZE], t2[TEXT_SIZE], t3[TEXT_SIZE * 2 + 64];
    double *jac = NULL, *vals = NULL;
    nsdae_structural_mode *md = calloc(1, sizeof *md);
    if (!md) return nsdae_error_set(err, NSDAE_NOMEM, "structural: out of memory");
    md->nswitches = nsw;
    md->choice = malloc(((size_t)nsw + 1) * sizeof *md->choice);
    if (!md->choice) goto nomem;
    memcpy(md->choice, choice, (size_t)nsw * sizeof *choice);

    /* Label: the choice of every active switch, in words. */
    for (int s = 0; s < nsw; s++) {
        int sl;
        if (sw[s].parent_block >= 0 && !branch_selected(&B, sw[s].parent_block, sw[s].parent_branch, &sl)) continue;
        if (sw[s].parent_block >= 0 && sl >= 0) continue;
        if (sw[s].kind == NSDAE_SWITCH_IF) {
            const nsdae_block *blk = nsdae_model_block(m, sw[s].block);
            int k = choice[s];
            if (sw[s].sliding && k == sw[s].nchoices - 1) {
                const nsdae_cond *c = blk->conds[0];
                nsdae_model_print_expr(m, c->lhs, text, sizeof text);
                nsdae_model_print_expr(m, c->rhs, t2, sizeof t2);
                snprintf(t3, sizeof t3, "%s = %s (sliding)", text, t2);
            } else if (k < blk->nbranches - 1) {
                print_cond(m, blk->conds[k], t3, sizeof t3);
            } else if (blk->nbranches == 2) {
                print_cond(m, blk->conds[0], text, sizeof text);
                snprintf(t3, sizeof t3, "not (%s)", text);
            } else {
                snprintf(t3, sizeof t3, "else of the if at line %d", blk->pos.line);
            }
        } else {
            const nsdae_equation *q = nsdae_model_equation(m, sw[s].equation);
            if (sw[s].kind == NSDAE_SWITCH_COMPL) {
                nsdae_model_print_expr(m, choice[s] == 0 ? q->a : q->b, text, sizeof text);
                snprintf(t3, sizeof t3, "%s = 0", text);
            } else if (choice[s] == 0) {
                nsdae_model_print_expr(m, q->arg, text, sizeof text);
                snprintf(t3, sizeof t3, "%s = 0", text);
            } else {
                nsdae_model_print_expr(m, choice[s] == 1 ? q->hi : q->lo, text, sizeof text);
                snprintf(t3, sizeof t3, "%s = %s", nsdae_model_var(m, q->var)->name, text);
            }
        }
        if ((llen && !append(&label, &llen, &lcap, "; ")) || !append(&label, &llen, &lcap, t3)) goto nomem;
    }
    if (!label && !append(&label, &llen, &lcap, "(no switch)")) goto nomem;
    md->label = label;
    label = NULL;

    /* Equations in source order. A sliding block emits h = 0 and its relaxed pairs at the place of
     * its first then-branch equation. */
    int nrelax = 0;
    int *relax_of = calloc((size_t)nsw + 1, sizeof *relax_of);
    if (!relax_of) goto nomem;
    for (int i = 0; i < ne; i++) {
        const nsdae_equation *q = nsdae_model_equation(m, i);
        int sl = -1;
        if (q->block >= 0 && !branch_selected(&B, q->block, q->branch, &sl)) continue;
        if (sl >= 0) {
            if (q->branch != 0) continue; /* consumed with its then-branch partner */
            const nsdae_block *blk = nsdae_model_block(m, q->block);
            if (relax_of[sl] == 0) {
                relax_of[sl] = ++nrelax;
                const nsdae_cond *c = blk->conds[0];
                int gt = c->kind == NSDAE_COND_GT || c->kind == NSDAE_COND_GE;
                const nsdae_expr *h = gt ? sub(pool, c->lhs, c->rhs) : sub(pool, c->rhs, c->lhs);
                nsdae_model_print_expr(m, c->lhs, text, sizeof text);
                nsdae_model_print_expr(m, c->rhs, t2, sizeof t2);
                snprintf(t3, sizeof t3, "%s = %s (switching surface, line %d)", text, t2, blk->pos.line);
                if (!add_eq(&B, h, -1, t3)) { free(relax_of); goto nomem; }
            }
            /* partner: the k-th equation of the else branch, k = rank of q in the then branch */
            int k = 0, partner = -1;
            for (int t = 0; t < i; t++) {
                const nsdae_equation *u = nsdae_model_equation(m, t);
                if (u->block == q->block && u->branch == 0) k++;
            }
            for (int t = 0, r = 0; t < ne; t++) {
                const nsdae_equation *u = nsdae_model_equation(m, t);
                if (u->block == q->block && u->branch == 1) {
                    if (r == k) { partner = t; break; }
                    r++;
                }
            }
            if (partner < 0) {
                free(relax_of);
                st = nsdae_error_set(err, NSDAE_INVALID_INPUT, "structural: the if at line %d has unequal branches",
                                     blk->pos.line);
                goto fail;
            }
            const nsdae_expr *g1 = q->residual, *g2 = nsdae_model_equation(m, partner)->residual;
            const nsdae_expr *s = nsdae_expr_var(pool, nv + relax_of[sl] - 1, 0);
            const nsdae_expr *r = nsdae_expr_binary(pool, NSDAE_EXPR_ADD, g2,
                                                    nsdae_expr_binary(pool, NSDAE_EXPR_MUL, s, sub(pool, g1, g2)));
            snprintf(t3, sizeof t3, "%s | %s (relaxed, s_line%d in [0,1])", q->text,
                     nsdae_model_equation(m, partner)->text, blk->pos.line);
            if (!add_eq(&B, r, i, t3)) { free(relax_of); goto nomem; }
            continue;
        }
        const nsdae_expr *r = NULL;
        if (q->kind == NSDAE_EQ_EQUAL) {
            r = q->residual;
            snprintf(t3, sizeof t3, "%s", q->text);
        } else {
            int s = switch_of_equation(sw, nsw, i);
            if (s < 0) continue;
            if (q->kind == NSDAE_EQ_COMPL) {
                r = choice[s] == 0 ? q->a : q->b;
                nsdae_model_print_expr(m, r, text, sizeof text);
                snprintf(t3, sizeof t3, "%s = 0", text);
            } else if (choice[s] == 0) {
                r = q->arg;
                nsdae_model_print_expr(m, r, text, sizeof text);
                snprintf(t3, sizeof t3, "%s = 0", text);
            } else {
                const nsdae_expr *bound = choice[s] == 1 ? q->hi : q->lo;
                r = sub(pool, nsdae_expr_var(pool, q->var, 0), bound);
                nsdae_model_print_expr(m, bound, text, sizeof text);
                snprintf(t3, sizeof t3, "%s = %s", nsdae_model_var(m, q->var)->name, text);
            }
        }
        if (!add_eq(&B, r, i, t3)) { free(relax_of); goto nomem; }
    }
    free(relax_of);
    if (nsdae_expr_pool_failed(pool)) goto nomem;

    /* Unknowns: the model's, then the relaxation variables. */
    md->nrelax = nrelax;
    md->nvar = nv + nrelax;
    md->neq = B.n;
    md->var_names = calloc((size_t)md->nvar + 1, sizeof *md->var_names);
    if (!md->var_names) goto nomem;
    for (int j = 0; j < nv; j++) if (!(md->var_names[j] = dup_string(nsdae_model_var(m, j)->name))) goto nomem;
    for (int s = 0, k = 0; s < nsw; s++) {
        if (!(sw[s].sliding && choice[s] == sw[s].nchoices - 1)) continue;
        /* numbered in the order the relaxations were met: same as switch order for top-level blocks */
        snprintf(text, sizeof text, "s_line%d", sw[s].pos.line);
        if (k < nrelax && !(md->var_names[nv + k] = dup_string(text))) goto nomem;
        k++;
    }
    for (int j = nv; j < md->nvar; j++) if (!md->var_names[j] && !(md->var_names[j] = dup_string("s"))) goto nomem;

    st = nsdae_sigma_create(md->neq, md->nvar, &md->sigma, err);
    if (st != NSDAE_OK) goto fail;
    for (int i = 0; i < md->neq; i++) {
        if ((st = nsdae_sigma_set_name(md->sigma, 'e', i, B.names[i], err)) != NSDAE_OK) goto fail;
        for (int j = 0; j < md->nvar; j++) {
            int o = nsdae_expr_max_order(B.res[i], j);
            if (o > NSDAE_SIGMA_MAX_ORDER) {
                st = nsdae_error_set(err, NSDAE_UNSUPPORTED, "structural: derivative order %d of '%s' in '%s'", o,
                                     md->var_names[j], B.names[i]);
                goto fail;
            }
            if (o >= 0) md->sigma->s[(size_t)i * md->nvar + j] = o;
        }
    }
    for (int j = 0; j < md->nvar; j++)
        if ((st = nsdae_sigma_set_name(md->sigma, 'v', j, md->var_names[j], err)) != NSDAE_OK) goto fail;
    md->residual = B.res;
    md->origin = B.origin;
    B.res = NULL;
    B.origin = NULL;
    if ((st = nsdae_structural_analyze(md->sigma, &md->result, err)) != NSDAE_OK) goto fail;

    /* Numeric check at the start values, through the IR's symbolic derivatives. */
    nsdae_structural_result *r = md->result;
    int maxo = 0;
    for (size_t k = 0; k < (size_t)md->neq * md->nvar; k++)
        if (md->sigma->s[k] != NSDAE_SIGMA_NONE && md->sigma->s[k] > maxo) maxo = md->sigma->s[k];
    vals = calloc((size_t)(maxo + 1) * md->nvar + 1, sizeof *vals);
    jac = calloc((size_t)md->neq * md->nvar + 1, sizeof *jac);
    if (!vals || !jac) goto nomem;
    for (int o = 0; o <= maxo; o++)
        for (int j = 0; j < md->nvar; j++)
            vals[(size_t)o * md->nvar + j] = j < nv ? nsdae_model_start_value(m, j, o) : (o == 0 ? 0.5 : 0.0);
    nsdae_eval_env env = {nsdae_model_param_values(m), nsdae_model_nparams(m), vals, md->nvar, maxo, 0.0};
    md->numeric_status = NSDAE_OK;
    for (int i = 0; i < md->neq && md->numeric_status == NSDAE_OK; i++)
        for (int j = 0; j < md->nvar; j++) {
            if (!nsdae_structural_is_leading(r, md->sigma, i, j)) continue;
            const nsdae_expr *dexpr = NULL;
            nsdae_error e2 = {0};
            if (nsdae_expr_diff(pool, md->residual[i], j, r->d[j] - r->c[i], &dexpr, &e2) != NSDAE_OK) {
                md->numeric_status = e2.status;
                snprintf(md->numeric_message, sizeof md->numeric_message, "%s", e2.message);
                break;
            }
            double v = nsdae_expr_eval(dexpr, &env);
            if (!isfinite(v)) {
                char dn[TEXT_SIZE];
                nsdae_structural_deriv_name(md->var_names[j], r->d[j] - r->c[i], dn, sizeof dn);
                md->numeric_status = NSDAE_NUMERICAL;
                snprintf(md->numeric_message, sizeof md->numeric_message,
                         "d/d %s of '%.60s' is not finite at the start values", dn, B.names[i]);
                break;
            }
            jac[i + (size_t)j * md->neq] = v;
        }
    if (md->numeric_status == NSDAE_OK) {
        nsdae_error e2 = {0};
        nsdae_status s2 = nsdae_structural_check_numeric(r, md->sigma, jac, &e2);
        if (s2 != NSDAE_OK) {
            md->numeric_status = s2;
            snprintf(md->numeric_message, sizeof md->numeric_message, "%s", e2.message);
        }
    }
    free(vals);
    free(jac);
    for (int i = 0; i < B.n; i++) free(B.names[i]);
    free(B.names);
    *out = md;
    return NSDAE_OK;
nomem:
    st = nsdae_error_set(err, NSDAE_NOMEM, "structural: out of memory");
fail:
    free(vals);
    free(jac);
    free(label);
    for (int i = 0; i < B.n; i++) free(B.names[i]);
    free(B.names);
    free(B.res);
    free(B.origin);
    nsdae_structural_mode_destroy(md);
    return st;
}
