/* Which variables are coordinates and which are contact multipliers, and the contacts
 * themselves: gap, gradient (symbolic), restitution. Everything outside the Lagrangian contact
 * form (guards, relays, first-order or algebraic unknowns) is refused here, before any equation
 * of motion is looked at, so that the message names the construct rather than a symptom. */
#include "translate/lagrangian_internal.h"

#include <math.h>
#include <stdlib.h>

/* The multiplier side of a complementarity: a variable alone, never differentiated, not yet the
 * multiplier of another contact. */
static int multiplier_side(const lctx *L, const nsdae_expr *x)
{
    return x->kind == NSDAE_EXPR_VAR && x->order == 0 && x->index >= 0 && x->index < L->nvars &&
           nsdae_model_var(L->m, x->index)->max_order == 0;
}

static int check_equation_kinds(lctx *L)
{
    for (int k = 0; k < nsdae_model_nequations(L->m) && !L->st; k++) {
        const nsdae_equation *q = nsdae_model_equation(L->m, k);
        if (q->block >= 0)
            nsdae_lag_fail(L, NSDAE_UNSUPPORTED, q,
                           "guarded equations (if/when) are not part of the Lagrangian contact form, which "
                           "takes equations of motion and unilateral contacts only");
        else if (q->kind == NSDAE_EQ_SIGN)
            nsdae_lag_fail(L, NSDAE_UNSUPPORTED, q,
                           "relay relations ('in sign') are not part of the Lagrangian contact form, which "
                           "takes equations of motion and unilateral contacts only");
    }
    return !L->st;
}

/* The variable after 'force' of a frictional contact: like a multiplier, never differentiated and
 * the force of no other contact. */
static int tangential_force(lctx *L, lag_contact *c)
{
    const nsdae_equation *q = c->eq;
    const char *name = nsdae_model_var(L->m, q->tforce->index)->name;
    if (!multiplier_side(L, q->tforce)) {
        nsdae_lag_fail(L, NSDAE_UNSUPPORTED, q,
                       "the tangential force '%s' after 'force' must be an unknown that is never differentiated",
                       name);
        return 0;
    }
    int v = q->tforce->index;
    if (L->contact_of_var[v] >= 0) {
        const nsdae_equation *other = L->contacts[L->contact_of_var[v]].eq;
        nsdae_lag_fail(L, NSDAE_UNSUPPORTED, q, "'%s' is already a multiplier or force of the contact at %d:%d", name,
                       other->pos.line, other->pos.col);
        return 0;
    }
    c->tvar = v;
    L->contact_of_var[v] = (int)(c - L->contacts);
    L->fric[L->nfric++] = (int)(c - L->contacts);
    return 1;
}

/* Each complementarity is a contact; its multiplier is b, or a when b is not a variable alone. */
static int find_multipliers(lctx *L)
{
    int n = 0;
    for (int k = 0; k < nsdae_model_nequations(L->m); k++)
        if (nsdae_model_equation(L->m, k)->kind == NSDAE_EQ_COMPL) n++;
    L->contacts = calloc((size_t)n + 1, sizeof *L->contacts);
    L->fric = calloc((size_t)n + 1, sizeof *L->fric);
    if (!L->contacts || !L->fric) {
        nsdae_lag_nomem(L);
        return 0;
    }
    for (int k = 0; k < nsdae_model_nequations(L->m) && !L->st; k++) {
        const nsdae_equation *q = nsdae_model_equation(L->m, k);
        if (q->kind != NSDAE_EQ_COMPL) continue;
        const nsdae_expr *mult = multiplier_side(L, q->b) ? q->b : multiplier_side(L, q->a) ? q->a : NULL;
        if (!mult) {
            nsdae_lag_fail(L, NSDAE_UNSUPPORTED, q,
                           "a contact is 0 <= gap(q) _|_ lambda >= 0 with the multiplier lambda a variable that "
                           "is never differentiated; neither side is one");
            break;
        }
        int v = mult->index;
        if (L->contact_of_var[v] >= 0) {
            const nsdae_equation *other = L->contacts[L->contact_of_var[v]].eq;
            nsdae_lag_fail(L, NSDAE_UNSUPPORTED, q, "'%s' is already the multiplier of the contact at %d:%d",
                           nsdae_model_var(L->m, v)->name, other->pos.line, other->pos.col);
            break;
        }
        lag_contact *c = &L->contacts[L->ncontacts];
        c->eq = q;
        c->var = v;
        c->tvar = -1;
        c->gap = mult == q->b ? q->a : q->b; /* bound in contact_data */
        L->contact_of_var[v] = L->ncontacts++;
        if (q->friction && !tangential_force(L, c)) break;
    }
    return !L->st;
}

static int find_coordinates(lctx *L)
{
    for (int v = 0; v < L->nvars && !L->st; v++) {
        const nsdae_var *x = nsdae_model_var(L->m, v);
        if (L->contact_of_var[v] >= 0) continue;
        if (x->max_order == 2) {
            L->coord_of_var[v] = L->ndof;
            L->coord[L->ndof++] = v;
        } else if (x->max_order > 2) {
            nsdae_lag_fail_var(L, v, "used with a derivative of order %d: the Lagrangian contact form takes second-order "
                                     "equations of motion", x->max_order);
        } else if (x->max_order == 1) {
            nsdae_lag_fail_var(L, v, "used only up to der(%s): the Lagrangian contact form needs second-order "
                                     "coordinates, der(der(%s)), and no first-order unknowns (write the "
                                     "equation of motion with der(der(%s)) instead of a velocity variable)",
                               x->name, x->name, x->name);
        } else if (x->max_order == 0) {
            nsdae_lag_fail_var(L, v, "neither a coordinate (used with der(der(%s))) nor the multiplier of a "
                                     "contact (0 <= gap _|_ %s >= 0): the Lagrangian contact form has no "
                                     "algebraic unknowns", x->name, x->name);
        } else {
            nsdae_lag_fail_var(L, v, "declared but used in no equation");
        }
    }
    if (!L->st && L->ndof == 0)
        nsdae_lag_fail(L, NSDAE_UNSUPPORTED, NULL,
                       "no coordinate: the Lagrangian contact form needs variables used with der(der(x))");
    return !L->st;
}

/* The VAR leaves of e (with repeats), into *leaves (malloc'd, the caller frees). A walk of the tree
 * with an explicit stack: a node shared by several paths is walked once per path, which is
 * nothing for a gap (a few nodes) and is bounded anyway. Returns the count; -1 when the walk
 * passes GAP_WALK_LIMIT nodes (the caller then asks every variable, as before), -2 out of memory.
 * Why a walk: nsdae_expr_max_order and nsdae_expr_diff cost O(pool size) each (memo by node id),
 * so asking them about every variable of every contact made a column of 1000 beads spend tens of
 * seconds here (O(N^3)). */
#define GAP_WALK_LIMIT 1000000L
static int gap_leaves(const nsdae_expr *e, const nsdae_expr ***leaves)
{
    size_t cap = 64, top = 0, nl = 0, lcap = 16;
    const nsdae_expr **stack = malloc(cap * sizeof *stack);
    *leaves = malloc(lcap * sizeof **leaves);
    if (!stack || !*leaves) goto nomem;
    stack[top++] = e;
    for (long steps = 0; top > 0; steps++) {
        if (steps > GAP_WALK_LIMIT) {
            free(stack);
            return -1;
        }
        const nsdae_expr *n = stack[--top];
        if (!(n->flags & NSDAE_EXPR_HAS_VAR)) continue;
        if (n->kind == NSDAE_EXPR_VAR) {
            if (nl == lcap) {
                const nsdae_expr **l2 = realloc(*leaves, 2 * lcap * sizeof *l2);
                if (!l2) goto nomem;
                *leaves = l2;
                lcap *= 2;
            }
            (*leaves)[nl++] = n;
            continue;
        }
        if (top + 2 > cap) {
            const nsdae_expr **s2 = realloc(stack, 2 * cap * sizeof *s2);
            if (!s2) goto nomem;
            stack = s2;
            cap *= 2;
        }
        if (n->a) stack[top++] = n->a;
        if (n->b) stack[top++] = n->b;
    }
    free(stack);
    return (int)nl;
nomem:
    free(stack);
    return -2;
}

/* The gap and the tangent may use the positions and parameters only. */
static int check_position_function(lctx *L, const lag_contact *c, const nsdae_expr *f, const char *what)
{
    char buf[200];
    if (f->flags & NSDAE_EXPR_HAS_TIME) {
        nsdae_lag_fail(L, NSDAE_UNSUPPORTED, c->eq, "the %s uses 'time': it must be a function of the positions",
                       what);
        return 0;
    }
    /* the first offending variable (in model order), as the scan of every variable found it */
    const nsdae_expr **leaves = NULL;
    int nl = gap_leaves(f, &leaves), first = nl == -1 ? 0 : L->nvars;
    if (nl == -2) {
        free(leaves);
        nsdae_lag_nomem(L);
        return 0;
    }
    for (int k = 0; k < nl; k++)
        if ((leaves[k]->order != 0 || L->coord_of_var[leaves[k]->index] < 0) && leaves[k]->index < first)
            first = leaves[k]->index;
    free(leaves);
    for (int v = first; v < L->nvars; v++) {
        int o = nsdae_expr_max_order(f, v);
        if (o < 0 || (o == 0 && L->coord_of_var[v] >= 0)) continue;
        nsdae_model_print_expr(L->m, f, buf, sizeof buf);
        nsdae_lag_fail(L, NSDAE_UNSUPPORTED, c->eq,
                       "the %s '%s' uses %s%s%s: it must be a function of the positions only", what, buf,
                       o == 0 ? (L->contact_of_var[v] >= 0 ? "the multiplier '" : "the unknown '")
                       : o == 1 ? "der(" : "der(der(",
                       nsdae_model_var(L->m, v)->name, o == 0 ? "'" : o == 1 ? ")" : "))");
        return 0;
    }
    return 1;
}

/* e_c: absent means 0 (plastic impact); otherwise a finite constant in [0, 1]. */
static int restitution(lctx *L, lag_contact *c)
{
    c->e = 0.0;
    if (!c->eq->restitution) return 1;
    const nsdae_expr *e = nsdae_lag_bind(L, c->eq->restitution);
    if (!e) return 0;
    if (e->kind != NSDAE_EXPR_CONST || !isfinite(e->value)) {
        char buf[200];
        nsdae_model_print_expr(L->m, c->eq->restitution, buf, sizeof buf);
        nsdae_lag_fail(L, NSDAE_UNSUPPORTED, c->eq,
                       "the restitution '%s' does not evaluate to a finite constant with the current parameters",
                       buf);
        return 0;
    }
    if (!(e->value >= 0.0 && e->value <= 1.0)) {
        nsdae_lag_fail(L, NSDAE_INVALID_INPUT, c->eq,
                       "restitution coefficient %g is outside [0, 1] (Newton's impact law)", e->value);
        return 0;
    }
    c->e = e->value;
    return 1;
}

/* mu_c: a finite constant >= 0 with the current parameters. */
static int friction(lctx *L, lag_contact *c)
{
    const nsdae_expr *mu = nsdae_lag_bind(L, c->eq->friction);
    if (!mu) return 0;
    if (mu->kind != NSDAE_EXPR_CONST || !isfinite(mu->value) || mu->value < 0.0) {
        char buf[200];
        nsdae_model_print_expr(L->m, c->eq->friction, buf, sizeof buf);
        nsdae_lag_fail(L, mu->kind == NSDAE_EXPR_CONST ? NSDAE_INVALID_INPUT : NSDAE_UNSUPPORTED, c->eq,
                       "the friction coefficient '%s' does not evaluate to a finite constant >= 0 with the "
                       "current parameters", buf);
        return 0;
    }
    c->mu = mu->value;
    return 1;
}

/* The gradient of f (a gap or a tangent) along the nc coordinates cols (increasing) that it reads,
 * into grad: the coefficients of its affine decomposition, which are its derivatives, at
 * O(size of f) where nsdae_expr_diff costs O(pool size) per coordinate. Returns 1 when done (or a
 * failure recorded), 0 when f is not affine (then differentiate). */
static int affine_gradient(lctx *L, const nsdae_expr *f, const int *cols, int nc, lag_entry *grad)
{
    if (nc == 0 || nc > 64) return 0;
    nsdae_leaf leaves[64];
    const nsdae_expr *coef[64], *rest = NULL;
    for (int k = 0; k < nc; k++) leaves[k] = (nsdae_leaf){L->coord[cols[k]], 0};
    nsdae_error e2;
    nsdae_status st = nsdae_expr_affine(L->p, f, leaves, nc, NULL, 0, NULL, 0, coef, &rest, &e2);
    if (st == NSDAE_UNSUPPORTED) return 0;
    if (st != NSDAE_OK) {
        nsdae_lag_nomem(L);
        return 1;
    }
    for (int k = 0; k < nc; k++) grad[k] = (lag_entry){cols[k], coef[k]};
    return 1;
}

static int increasing(const void *a, const void *b)
{
    int x = *(const int *)a, y = *(const int *)b;
    return (x > y) - (x < y);
}

/* The coordinates f reads, increasing, into cols (ndof); their count, or -1 out of memory. mark
 * (ndof, all 0) is left all 0. Every coordinate when f is too large to walk (gap_leaves). */
static int read_coordinates(lctx *L, const nsdae_expr *f, int *cols, unsigned char *mark)
{
    const nsdae_expr **leaves = NULL;
    int nl = gap_leaves(f, &leaves), nc = 0;
    if (nl == -2) {
        free(leaves);
        return -1;
    }
    for (int k = 0; k < nl; k++) {
        int j = L->coord_of_var[leaves[k]->index];
        if (!mark[j]) cols[nc++] = j;
        mark[j] = 1;
    }
    free(leaves);
    for (int k = 0; k < nc; k++) mark[cols[k]] = 0;
    if (nl == -1)
        for (nc = 0; nc < L->ndof; nc++) cols[nc] = nc;
    qsort(cols, (size_t)nc, sizeof *cols, increasing);
    return nc;
}

/* d f / d q_j for the coordinates f reads, pushed as the next row of L->grad; f is a function of
 * the positions (checked). Every other entry is the constant 0 by construction, and is not stored
 * (see gap_leaves for why asking every coordinate would matter). */
static int gradient(lctx *L, const nsdae_expr *f, int *cols, unsigned char *mark, lag_entry *grad)
{
    int nc = read_coordinates(L, f, cols, mark);
    if (nc < 0) {
        nsdae_lag_nomem(L);
        return 0;
    }
    if (!affine_gradient(L, f, cols, nc, grad))
        for (int k = 0; k < nc; k++) {
            nsdae_error e2;
            grad[k].col = cols[k];
            if (nsdae_expr_diff(L->p, f, L->coord[cols[k]], 0, &grad[k].e, &e2) != NSDAE_OK) {
                nsdae_lag_nomem(L);
                return 0;
            }
        }
    if (!L->st && !nsdae_lag_rows_push(&L->grad, grad, nc)) nsdae_lag_nomem(L);
    return !L->st;
}

static int contact_data(lctx *L, lag_contact *c)
{
    c->gap = nsdae_lag_bind(L, c->gap);
    if (!c->gap || !check_position_function(L, c, c->gap, "gap") || !restitution(L, c)) return 0;
    if (c->tvar < 0) return 1;
    c->tangent = nsdae_lag_bind(L, c->eq->tangent);
    return c->tangent && friction(L, c) && check_position_function(L, c, c->tangent, "tangent");
}

/* Row k of L->grad for every multiplier column k, in column order. */
static int gradients(lctx *L)
{
    const int nm = L->ncontacts + L->nfric;
    int *cols = malloc(((size_t)L->ndof + 1) * sizeof *cols);
    unsigned char *mark = calloc((size_t)L->ndof + 1, 1);
    lag_entry *grad = malloc(((size_t)L->ndof + 1) * sizeof *grad);
    if (!cols || !mark || !grad || !nsdae_lag_rows_init(&L->grad, nm)) nsdae_lag_nomem(L);
    for (int k = 0; k < nm && !L->st; k++) gradient(L, nsdae_lag_mult_function(L, k), cols, mark, grad);
    free(cols);
    free(mark);
    free(grad);
    return !L->st;
}

int nsdae_lag_mult_var(const lctx *L, int k)
{
    return k < L->ncontacts ? L->contacts[k].var : L->contacts[L->fric[k - L->ncontacts]].tvar;
}

const nsdae_expr *nsdae_lag_mult_function(const lctx *L, int k)
{
    return k < L->ncontacts ? L->contacts[k].gap : L->contacts[L->fric[k - L->ncontacts]].tangent;
}

int nsdae_lag_classify(lctx *L)
{
    if (!check_equation_kinds(L) || !find_multipliers(L) || !find_coordinates(L)) return 0;
    for (int c = 0; c < L->ncontacts; c++)
        if (!contact_data(L, &L->contacts[c])) return 0;
    return gradients(L);
}
